"""Play again: a finished game's player makes a new lobby on the same course and settings, the other players
invited; exactly one new game however often (and by however many players at once) it is pressed."""

import pytest

from games import broadcast
from games.models import Game, GameEvent, Notice
from games.selectors import access
from games.selectors import lobby as lobby_selectors
from games.services import lobby as lobby_services
from games.services import rematch
from tests.games.factories import started_game
from tests.helpers import client_for
from tests.integration.conftest import needs_postgres

SETTINGS = ("course_id", "course_data", "max_seats", "lives", "visibility", "timer_preset", "move_time", "game_time",
            "timeout_policy")


PLAYERS = ("alice", "bob", "carol")  # the `players` fixture (tests/conftest.py)


def finished_game(courses, users, **options):
    """A game on Bolt Bay that ended by resignation: every player but the first resigns."""
    game = lobby_services.create_game(user=users[0], course=courses["bolt-bay"], max_seats=len(users), **options)
    for user in users[1:]:
        lobby_services.join_game(user=user, game_id=game.pk, invite=game.invite_code)
    for user in users[1:]:
        lobby_services.leave_game(user=user, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_play_again_copies_the_course_and_every_setting(courses, players, monkeypatch,
                                                        django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(broadcast, "notify_users", lambda notices: sent.extend(notices))
    alice, bob, carol = players
    old = finished_game(courses, players, lives=5, visibility="private", timer_preset="custom", move_time=45,
                        game_time=300, timeout_policy="eject")
    with django_capture_on_commit_callbacks(execute=True):
        new, created = rematch.play_again(user=bob, game_id=old.pk)
    assert created
    assert {field: getattr(new, field) for field in SETTINGS} == {field: getattr(old, field) for field in SETTINGS}
    assert new.status == Game.Status.LOBBY and new.pk != old.pk and new.turn == 0
    assert new.creator == bob and list(new.seats.values_list("user__username", "number")) == [("bob", 1)]
    assert new.invite_code and new.invite_code != old.invite_code and new.seed != old.seed
    old.refresh_from_db()
    assert old.rematch == new and new.rematch_of == old
    assert GameEvent.objects.filter(game=old, kind="rematch").get().data == {"game": new.pk, "seat": 2}
    # The others are invited: a notice on their own socket with the invite link, and the game in My games.
    link = f"/games/{new.pk}/invite/{new.invite_code}/"
    assert sorted(user_id for user_id, _ in sent) == sorted([alice.pk, carol.pk])
    assert all(notice["type"] == "rematch" and notice["game"] == new.pk and notice["url"] == link
               and notice["from_game"] == old.pk for _, notice in sent)
    # ... kept for their bells too, naming the new game as the source (games/services/notices.py).
    kept = Notice.objects.filter(kind="rematch").order_by("user_id")
    assert [(n.user_id, n.link, n.source) for n in kept] == sorted(
        [(alice.pk, link, {"game": new.pk}), (carol.pk, link, {"game": new.pk})])
    assert all(n.text.startswith("bob wants to play again: game") for n in kept)
    for user in (alice, carol):
        assert new in lobby_selectors.games_of(user=user)
        assert access.can_view(user=user, game=new)
    # Invited players of a private game join without the code; a stranger still needs it.
    lobby_services.join_game(user=alice, game_id=new.pk)
    assert new.seats.filter(user=alice).exists()
    assert new not in access.invitations(user=alice)  # seated now: a game of hers, no longer an invitation


def test_a_second_press_goes_to_the_same_game(courses, players):
    alice, bob, _ = players
    old = finished_game(courses, players[:2])
    first, created = rematch.play_again(user=alice, game_id=old.pk)
    again, created_again = rematch.play_again(user=alice, game_id=old.pk)
    other, created_other = rematch.play_again(user=bob, game_id=old.pk)
    assert created and not created_again and not created_other
    assert first == again == other
    assert Game.objects.count() == 2
    assert GameEvent.objects.filter(game=old, kind="rematch").count() == 1


def test_strangers_unfinished_and_cancelled_games_are_refused(courses, players, make_user):
    alice, bob, _ = players
    stranger, staff = make_user("mallory"), make_user("root", is_staff=True)
    public = finished_game(courses, players[:2])
    private = finished_game(courses, players[:2], visibility="private")
    running = started_game(users=[alice, bob], course=courses["bolt-bay"])
    lobby = lobby_services.create_game(user=alice, course=courses["bolt-bay"], max_seats=2)
    cancelled = lobby_services.cancel_game(user=alice, game_id=lobby_services.create_game(
        user=alice, course=courses["bolt-bay"], max_seats=2).pk)
    count = Game.objects.count()
    answers = {
        "stranger, public": client_for(stranger).post(f"/api/games/{public.pk}/play-again/"),
        "stranger, private": client_for(stranger).post(f"/api/games/{private.pk}/play-again/"),
        "staff, not a player": client_for(staff).post(f"/api/games/{private.pk}/play-again/"),
        "running": client_for(alice).post(f"/api/games/{running.pk}/play-again/"),
        "lobby": client_for(alice).post(f"/api/games/{lobby.pk}/play-again/"),
        "cancelled": client_for(alice).post(f"/api/games/{cancelled.pk}/play-again/"),
        "no such game": client_for(alice).post("/api/games/999999/play-again/"),
    }
    assert {name: answer.status_code for name, answer in answers.items()} == {
        "stranger, public": 403, "stranger, private": 404, "staff, not a player": 403, "running": 409,
        "lobby": 409, "cancelled": 409, "no such game": 404,
    }
    assert answers["stranger, private"].json() == {"detail": f"game {private.pk} does not exist"}
    assert "finished" in answers["running"].json()["detail"]
    assert Game.objects.count() == count  # nothing was made
    assert not Game.objects.filter(rematch__isnull=False).exists()
    # A stranger is not invited: the private rematch stays absent to them.
    new, _ = rematch.play_again(user=alice, game_id=private.pk)
    assert not access.can_view(user=stranger, game=new)
    assert new not in lobby_selectors.games_of(user=stranger)


def test_the_api_answers_201_then_200_and_the_snapshot_links_the_new_game(courses, players, make_user):
    alice, bob, _ = players
    old = finished_game(courses, players[:2])
    before = client_for(bob).get(f"/api/games/{old.pk}/").json()
    assert before["can_play_again"] is True and before["rematch"] is None
    first = client_for(bob).post(f"/api/games/{old.pk}/play-again/")
    second = client_for(alice).post(f"/api/games/{old.pk}/play-again/")
    assert first.status_code == 201 and second.status_code == 200
    new = Game.objects.get(rematch_of=old)
    assert first.json() == {"game": new.pk, "url": f"/games/{new.pk}/", "created": True}
    assert second.json() == {"game": new.pk, "url": f"/games/{new.pk}/", "created": False}
    snapshot = client_for(alice).get(f"/api/games/{old.pk}/").json()
    assert snapshot["rematch"] == {"id": new.pk, "url": f"/games/{new.pk}/"}
    mine = client_for(alice).get("/api/games/").json()["mine"]
    assert new.pk in [game["id"] for game in mine]  # invited: in alice's My games before she joins
    watcher = client_for(make_user("sam"))  # a spectator of the public game
    assert watcher.get(f"/api/games/{old.pk}/").json()["can_play_again"] is False


@pytest.mark.django_db(transaction=True)
@needs_postgres()
def test_concurrent_presses_make_one_game(courses, players):
    from tests.integration.test_concurrency import together

    old = finished_game(courses, players)
    results = together(12, lambda i: rematch.play_again(user=players[i % 3], game_id=old.pk))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert len({game.pk for game, _ in results}) == 1
    assert sum(created for _, created in results) == 1
    assert Game.objects.filter(rematch_of=old).count() == 1 and Game.objects.count() == 2
    assert GameEvent.objects.filter(game=old, kind="rematch").count() == 1
