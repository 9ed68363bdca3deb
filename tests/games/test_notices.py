"""The site's one notice mechanism (games/services/notices.py, docs/site.md "Notices"): kept notices for the bell
with their source, the socket push after the commit, e-mail for those who want it (once), the API and the page
that only ever show a player's own notices, and the callers (play again, a tournament's invitation) using it."""

import pytest
from django.core import mail
from django.test import Client

from games import broadcast
from games.models import Notice
from games.services import notices
from games.tasks import send_notice_emails
from roboracer.accounts.services import update_profile
from tests.helpers import client_for

pytestmark = pytest.mark.django_db
PLAYERS = ("alice", "bob", "carol")
PLAYER_EMAILS = True


@pytest.fixture
def pushed(monkeypatch):
    sent = []
    monkeypatch.setattr(broadcast, "notify_users", lambda batch: sent.extend(batch))
    return sent


def test_a_kept_notice_is_stored_for_each_player_once_and_pushed_after_the_commit(
        players, pushed, django_capture_on_commit_callbacks):
    alice, bob, _ = players
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        kept = notices.notify(user_ids=[alice.pk, bob.pk, alice.pk], kind="tournament_game_ready",
                              text="Your game in Spring Cup, round 1 table 2, is ready", link="/games/5/",
                              source={"tournament": 3, "round": 1, "table": 2, "game": 5}, message={"game": 5})
    assert pushed == []  # nothing before the commit
    assert sorted(n.user_id for n in kept) == sorted([alice.pk, bob.pk])
    for callback in callbacks:
        callback()
    assert [user_id for user_id, _ in pushed] == [alice.pk, bob.pk]
    for user_id, message in pushed:
        notice = Notice.objects.get(user_id=user_id)
        assert message["type"] == "tournament_game_ready" and message["game"] == 5
        assert message["notice"]["id"] == notice.pk and message["notice"]["source"] == {
            "tournament": 3, "round": 1, "table": 2, "game": 5}
        assert notice.read_at is None and notice.link == "/games/5/"


def test_a_your_move_notice_is_pushed_but_not_kept(players, pushed, django_capture_on_commit_callbacks):
    alice = players[0]
    with django_capture_on_commit_callbacks(execute=True):
        kept = notices.notify(user_ids=[alice.pk], kind="your_turn", text="Your move in game 4", link="/games/4/",
                              source={"game": 4}, message={"game": 4, "turn": 2})
    assert kept == [] and not Notice.objects.exists()
    assert pushed == [(alice.pk, {"type": "your_turn", "game": 4, "turn": 2, "text": "Your move in game 4",
                                  "link": "/games/4/", "source": {"game": 4}})]


def test_an_undeclared_kind_or_a_source_that_is_not_ids_is_a_callers_bug(players):
    with pytest.raises(KeyError):
        notices.notify(user_ids=[players[0].pk], kind="surprise", text="x")
    with pytest.raises(ValueError):
        notices.notify(user_ids=[players[0].pk], kind="rematch", text="x", source={"game": "5"})
    with pytest.raises(ValueError):
        notices.notify(user_ids=[players[0].pk], kind="rematch", text="x", source={"secret": 1})
    assert not Notice.objects.exists()


def test_the_api_shows_and_marks_only_my_own_notices(players, pushed):
    alice, bob, _ = players
    mine = notices.notify(user_ids=[alice.pk], kind="rematch", text="bob wants to play again", link="/games/9/",
                          source={"game": 9})[0]
    theirs = notices.notify(user_ids=[bob.pk], kind="rematch", text="alice wants to play again", link="/games/8/",
                            source={"game": 8})[0]
    answer = client_for(alice).get("/api/notices/")
    assert answer.status_code == 200
    assert answer.json()["unread"] == 1 and [n["id"] for n in answer.json()["notices"]] == [mine.pk]
    assert answer.json()["notices"][0]["source"] == {"game": 9} and answer.json()["notices"][0]["read"] is False
    # Bob's notice id exists, but it is not alice's: nothing changes.
    answer = client_for(alice).post("/api/notices/read/", {"ids": [theirs.pk]}, format="json")
    assert answer.status_code == 200 and answer.json() == {"marked": 0, "unread": 1}
    theirs.refresh_from_db()
    assert theirs.read_at is None
    answer = client_for(alice).post("/api/notices/read/", {"ids": [mine.pk]}, format="json")
    assert answer.json() == {"marked": 1, "unread": 0}
    assert client_for(alice).get("/api/notices/?unread=1").json()["notices"] == []
    assert client_for(bob).get("/api/notices/").json()["unread"] == 1


@pytest.mark.parametrize("body", [{"ids": "all"}, {"ids": [0]}, {"ids": [{"a": 1}]}, {"ids": list(range(1, 300))},
                                  {"ids": ["١"]}, {"ids": ["1"]}, {"ids": [True]}, [1, 2]])
def test_hostile_bodies_get_a_400_and_change_nothing(players, pushed, body):
    alice = players[0]
    notices.notify(user_ids=[alice.pk], kind="rematch", text="x", source={"game": 1})
    answer = client_for(alice).post("/api/notices/read/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert Notice.objects.filter(read_at__isnull=True).count() == 1


def test_strangers_get_no_notices(players):
    assert client_for(None).get("/api/notices/").status_code in (401, 403)
    assert client_for(None).post("/api/notices/read/", {}, format="json").status_code in (401, 403)
    assert Client().get("/notices/").status_code == 302  # the page asks to log in


def test_the_bell_counts_unread_notices_and_the_page_marks_them_read(players, pushed):
    alice = players[0]
    notices.notify(user_ids=[alice.pk], kind="rematch", text="bob wants to play again: game 9", link="/games/9/",
                   source={"game": 9})
    notices.notify(user_ids=[alice.pk], kind="tournament_invitation", text="You are invited to Spring Cup",
                   link="/tournaments/mine/", source={"tournament": 1})
    browser = Client()
    browser.force_login(alice)
    lobby = browser.get("/").content.decode()
    assert 'id="rr-bell-count">2<' in lobby and "Notices (2 unread)" in lobby
    page = browser.get("/notices/").content.decode()
    assert page.count("notice-unread") == 2 and 'href="/games/9/"' in page
    assert page.index("Spring Cup") < page.index("bob wants")  # newest first
    assert not Notice.objects.filter(read_at__isnull=True).exists()
    again = browser.get("/notices/").content.decode()
    assert "notice-unread" not in again and 'id="rr-bell-count" hidden>0<' in again


def test_e_mails_go_once_to_those_who_want_them(players, pushed):
    alice, bob, carol = players
    update_profile(user=bob, e_mail_notices=False)
    carol.email = ""
    carol.save()
    kept = notices.notify(user_ids=[alice.pk, bob.pk, carol.pk], kind="pyramid_challenge",
                          text="dave challenged you in the Pyramid", link="/pyramid/", source={"challenge": 4})
    ids = [n.pk for n in kept]
    assert send_notice_emails(ids) == 1
    assert send_notice_emails(ids) == 0  # run twice: nothing sent twice
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    assert "dave challenged you" in mail.outbox[0].subject and "/pyramid/" in mail.outbox[0].body
    read = notices.notify(user_ids=[alice.pk], kind="rematch", text="read already", source={"game": 2})
    notices.mark_read(user=alice)
    assert send_notice_emails([n.pk for n in read]) == 0  # read before the e-mail went: none


def test_a_games_end_tells_its_people_so_their_your_move_notices_go(courses, players, pushed,
                                                                     django_capture_on_commit_callbacks):
    from games.services import lobby as lobby_services

    alice, bob, _ = players
    game = lobby_services.create_game(user=alice, course=courses["bolt-bay"], max_seats=2)
    with django_capture_on_commit_callbacks(execute=True):
        lobby_services.join_game(user=bob, game_id=game.pk)
    assert {user_id for user_id, m in pushed if m["type"] == "your_turn" and m["game"] == game.pk} == {alice.pk, bob.pk}
    pushed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        lobby_services.leave_game(user=bob, game_id=game.pk)  # bob resigns: alice wins, the game is over
    over = [(user_id, m) for user_id, m in pushed if m["type"] == "game_over"]
    assert sorted(user_id for user_id, _ in over) == sorted([alice.pk, bob.pk])
    assert all(m["game"] == game.pk and "notice" not in m for _, m in over)  # pushed, never kept
    assert not Notice.objects.filter(kind="game_over").exists()
