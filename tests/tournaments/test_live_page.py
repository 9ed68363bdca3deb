"""The live tournament page (issue 38 item 1): its socket (/ws/tournaments/<id>/, through the whole ASGI application
on the real channel layer) says "tournament_changed" once per committed change and nothing else; the page's live
part (?part=live) is rendered for its viewer, so the "your game is ready" card reaches only that player."""

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import transaction
from django.utils import timezone

from roboracer.tournaments.models import Tournament
from roboracer.tournaments.services import registration, rounds
from tests.games.wsclient import session_cookie, site_socket
from tests.tournaments.factories import current_tables, open_tournament, organiser, users_at

pytestmark = pytest.mark.django_db(transaction=True)


async def connected(tournament_id, user=None):
    cookie = await session_cookie(user) if user is not None else None
    comm = site_socket(f"/ws/tournaments/{tournament_id}/", cookie=cookie)
    ok, _ = await comm.connect()
    assert ok
    return comm


async def test_a_change_is_told_once_per_transaction_and_says_nothing_else(courses, make_user):
    olga = await sync_to_async(organiser)(make_user)
    tournament = await sync_to_async(open_tournament)(organiser=olga, courses=[courses["tiny-yard"]], table_size=2)
    players = [await sync_to_async(make_user)(f"p{n}") for n in range(3)]
    watcher = await connected(tournament.pk)  # anyone may follow a tournament page
    player = await connected(tournament.pk, players[0])

    await sync_to_async(registration.register)(user=players[0], tournament_id=tournament.pk)
    for comm in (watcher, player):
        assert await comm.receive_json_from(timeout=5) == {"type": "tournament_changed", "tournament": tournament.pk}
        assert await comm.receive_nothing(timeout=0.2)  # the entry and its log line: one message

    def two_then_roll_back():
        with transaction.atomic():
            registration.register(user=players[1], tournament_id=tournament.pk)
            raise RuntimeError("rolled back")

    with pytest.raises(RuntimeError):
        await sync_to_async(two_then_roll_back)()
    assert await watcher.receive_nothing(timeout=0.3)  # nothing committed, nothing told

    # Registration closes: seating round 1 (rounds, tables, seats, games, the log) is one message.
    await sync_to_async(registration.register)(user=players[1], tournament_id=tournament.pk)
    assert (await watcher.receive_json_from(timeout=5))["type"] == "tournament_changed"
    await sync_to_async(Tournament.objects.filter(pk=tournament.pk).update)(registration_closes=timezone.now())
    assert await sync_to_async(rounds.close_registration)(tournament_id=tournament.pk) == "started"
    assert await watcher.receive_json_from(timeout=5) == {"type": "tournament_changed", "tournament": tournament.pk}
    assert await watcher.receive_nothing(timeout=0.2)

    # A sync is answered the same way; anything else is refused and the socket stays open.
    await watcher.send_json_to({"type": "sync"})
    assert (await watcher.receive_json_from(timeout=5))["type"] == "tournament_changed"
    await watcher.send_json_to({"type": "program", "chips": ["1"]})
    assert (await watcher.receive_json_from(timeout=5))["type"] == "error"
    for comm in (watcher, player):
        await comm.disconnect()


async def test_an_unknown_tournament_is_refused(make_user):
    comm = site_socket("/ws/tournaments/987654/")
    ok, code = await comm.connect()
    assert not ok and code == 4404


def test_the_live_part_carries_the_viewers_own_card_only(client, courses, make_user):
    olga = organiser(make_user)
    tournament = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2)
    fay, hal, eve = make_user("fay"), make_user("hal"), make_user("eve")
    for user in (fay, hal):
        registration.register(user=user, tournament_id=tournament.pk)
    client.force_login(fay)
    before = client.get(f"/tournaments/{tournament.pk}/?part=live")
    assert before.status_code == 200 and "<html" not in before.content.decode()
    assert 'id="start-countdown"' in before.content.decode() and 'id="my-game-ready"' not in before.content.decode()
    assert before["Cache-Control"] == "no-store"

    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now())
    rounds.close_registration(tournament_id=tournament.pk)
    table = current_tables(tournament)[0]
    assert {u.username for u in users_at(table)} == {"fay", "hal"}
    after = client.get(f"/tournaments/{tournament.pk}/?part=live").content.decode()
    assert 'id="my-game-ready"' in after and f"/games/{table.game_id}/" in after
    client.force_login(eve)  # not playing: the same part without anyone's card
    assert 'id="my-game-ready"' not in client.get(f"/tournaments/{tournament.pk}/?part=live").content.decode()
    client.logout()
    assert 'id="my-game-ready"' not in client.get(f"/tournaments/{tournament.pk}/?part=live").content.decode()
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="tournament-live"' in page and "tournaments/live.js" in page and "<noscript>" in page


def test_a_table_says_forfeited_for_a_player_who_left_and_lists_places_in_order(client, courses, make_user):
    """The walkthrough: players who pressed Forfeit read "ejected", and a finished table listed 2nd, 3rd, 1st."""
    from games.services import lobby

    olga = organiser(make_user)
    tournament = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=3)
    field = [make_user(name) for name in ("fay", "hal", "ivy")]
    for user in field:
        registration.register(user=user, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now())
    rounds.close_registration(tournament_id=tournament.pk)
    table = current_tables(tournament)[0]
    first, second, third = users_at(table)
    lobby.leave_game(user=third, game_id=table.game_id)  # forfeits first: last place
    lobby.leave_game(user=second, game_id=table.game_id)  # the game ends: `first` wins
    page = client.get(f"/tournaments/{tournament.pk}/?part=live").content.decode()
    players = page.split('class="t-players"')[1].split("</ul>")[0]
    names = [first.username, second.username, third.username]
    assert [players.index(n) for n in names] == sorted(players.index(n) for n in names)  # 1st, 2nd, 3rd
    assert players.count("· forfeited") == 2 and "· ejected" not in players
