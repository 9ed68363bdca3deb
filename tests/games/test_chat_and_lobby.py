"""Chat, chat commands, private games, leaving and cancelling, and profiles, through the services and API."""

from datetime import date

import pytest
from rest_framework.test import APIClient

from games.models import ChatMessage, Game, GameEvent, Program, Seat
from games.services import chat, lobby, moves
from roboracer.accounts.services import update_profile
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, RateLimited
from tests.games.factories import legal_program, started_game


@pytest.fixture
def trio(make_user):
    return make_user("alice"), make_user("bob"), make_user("carol")


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_chat_is_stored_pushed_as_an_event_and_in_the_snapshot(courses, trio):
    alice, bob, _ = trio
    game = started_game(users=trio, course=courses["bolt-bay"])
    answer = chat.post_chat(user=alice, game_id=game.pk, text="  <b>good luck</b>  ")
    assert answer["message"]["text"] == "<b>good luck</b>" and answer["message"]["seat"] == 1
    event = GameEvent.objects.filter(game=game, kind="chat").get()
    assert event.data == answer["message"]
    snapshot = api(bob).get(f"/api/games/{game.pk}/").json()
    assert snapshot["chat"][-1]["text"] == "<b>good luck</b>"


def test_chat_limits(courses, trio, make_user):
    alice = trio[0]
    game = started_game(users=trio, course=courses["bolt-bay"])
    with pytest.raises(InvalidInput, match="empty"):
        chat.post_chat(user=alice, game_id=game.pk, text="   ")
    with pytest.raises(InvalidInput, match="at most 500"):
        chat.post_chat(user=alice, game_id=game.pk, text="x" * 501)
    with pytest.raises(NotAllowed):
        chat.post_chat(user=make_user("stranger"), game_id=game.pk, text="hi")
    with pytest.raises(InvalidInput, match="unknown command !dance"):
        chat.post_chat(user=alice, game_id=game.pk, text="!dance")
    for n in range(chat.CHAT_BURST):
        chat.post_chat(user=alice, game_id=game.pk, text=f"line {n}")
    with pytest.raises(RateLimited):
        chat.post_chat(user=alice, game_id=game.pk, text="one too many")
    assert ChatMessage.objects.filter(game=game).count() == chat.CHAT_BURST
    # The limit is per player: bob may still talk.
    chat.post_chat(user=trio[1], game_id=game.pk, text="my turn to talk")


def test_chat_api_status_codes(courses, trio, make_user):
    alice = trio[0]
    game = started_game(users=trio, course=courses["bolt-bay"])
    assert api(alice).post(f"/api/games/{game.pk}/chat/", {"text": "hello"}, format="json").status_code == 201
    assert api(alice).post(f"/api/games/{game.pk}/chat/", {"text": ""}, format="json").status_code == 400
    response = api(make_user("eve")).post(f"/api/games/{game.pk}/chat/", {"text": "hi"}, format="json")
    assert response.status_code == 403 and "players" in response.json()["detail"]
    for _ in range(chat.CHAT_BURST):
        api(alice).post(f"/api/games/{game.pk}/chat/", {"text": "spam"}, format="json")
    limited = api(alice).post(f"/api/games/{game.pk}/chat/", {"text": "spam"}, format="json")
    assert limited.status_code == 429 and "slow down" in limited.json()["detail"]


def test_at_all_is_stripped(courses, trio):
    game = started_game(users=trio, course=courses["bolt-bay"])
    answer = chat.post_chat(user=trio[0], game_id=game.pk, text="@all gg")
    assert answer["message"]["text"] == "gg" and ChatMessage.objects.get(game=game).to_all


def test_archive_toggles_my_list_only(courses, trio):
    alice, bob, _ = trio
    game = started_game(users=trio, course=courses["bolt-bay"])
    assert chat.post_chat(user=alice, game_id=game.pk, text="!archive") == {"command": "archive", "archived": True}
    mine = api(alice).get("/api/games/").json()
    assert game.pk not in [g["id"] for g in mine["mine"]] and game.pk in [g["id"] for g in mine["archived"]]
    assert game.pk in [g["id"] for g in api(bob).get("/api/games/").json()["mine"]]
    assert chat.post_chat(user=alice, game_id=game.pk, text="!archive")["archived"] is False
    assert game.pk in [g["id"] for g in api(alice).get("/api/games/").json()["mine"]]


def test_eject_clears_programs_and_everyone_resubmits(courses, trio):
    alice, bob, carol = trio
    game = started_game(users=trio, course=courses["bolt-bay"])
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice))
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=legal_program(game, bob))
    from datetime import timedelta

    from django.utils import timezone

    Seat.objects.filter(game=game, user=carol).update(deadline=timezone.now() - timedelta(seconds=1))
    assert chat.post_chat(user=bob, game_id=game.pk, text="!eject")["ejected"] == [3]
    assert not Program.objects.filter(seat__game=game, turn=1).exists()
    event = GameEvent.objects.filter(game=game, kind="seats_ejected").get()
    assert event.data["resubmit"] is True and event.data["by"] == "bob"
    system = GameEvent.objects.filter(game=game, kind="chat", data__system=True).values_list("data", flat=True)
    assert [line["text"] for line in system] == ["carol forfeits: out of game time, ejected by bob."]
    assert Seat.objects.get(game=game, user=alice).clock_started_at is not None  # thinking again
    with pytest.raises(Conflict, match="ejected"):
        moves.submit_program(user=carol, game_id=game.pk, turn=1, chips=legal_program(game, carol))
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice))
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=legal_program(game, bob))
    game.refresh_from_db()
    assert game.status == Game.Status.RESOLVING  # two programs are enough now


def test_ejecting_down_to_one_bot_ends_the_race(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(users=[alice, bob], course=courses["bolt-bay"])
    lobby.leave_game(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user == alice


def test_staff_eject_and_its_authorisation(courses, trio, make_user):
    game = started_game(users=trio, course=courses["bolt-bay"])
    response = api(trio[0]).post(f"/api/games/{game.pk}/seats/2/eject/")
    assert response.status_code == 403 and "only staff" in response.json()["detail"]
    staff = make_user("admin", is_staff=True)
    assert api(staff).post(f"/api/games/{game.pk}/seats/2/eject/").json() == {"ejected": [2]}
    again = api(staff).post(f"/api/games/{game.pk}/seats/2/eject/")
    assert again.status_code == 409 and "already out" in again.json()["detail"]
    assert api(staff).post(f"/api/games/{game.pk}/seats/7/eject/").status_code == 404


def test_private_game_is_invisible_without_its_invite(courses, trio):
    alice, bob, carol = trio
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=3, visibility="private")
    assert len(game.invite_code) >= 16
    assert game.pk not in [g["id"] for g in api(bob).get("/api/games/").json()["open"]]
    assert api(bob).get(f"/api/games/{game.pk}/").status_code == 404
    wrong = api(bob).post(f"/api/games/{game.pk}/join/", {"invite": "guess"}, format="json")
    assert wrong.status_code == 404
    joined = api(bob).post(f"/api/games/{game.pk}/join/", {"invite": game.invite_code}, format="json")
    assert joined.status_code == 200 and joined.json()["invite_url"].endswith(f"/invite/{game.invite_code}/")
    assert api(carol).get(f"/api/games/{game.pk}/").status_code == 404  # still a stranger


def test_invite_page_joins(courses, trio, client):
    alice, bob, _ = trio
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=3, visibility="private")
    client.force_login(bob)
    assert client.get(f"/games/{game.pk}/").status_code == 404
    assert client.get(f"/games/{game.pk}/invite/nope/").status_code == 404
    page = client.get(f"/games/{game.pk}/invite/{game.invite_code}/")
    assert page.status_code == 200 and b"Take a seat" in page.content
    assert client.post(f"/games/{game.pk}/invite/{game.invite_code}/").status_code == 302
    assert Seat.objects.filter(game=game, user=bob).exists()


def test_leave_and_cancel_in_the_lobby(courses, trio):
    alice, bob, carol = trio
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=4)
    lobby.join_game(user=bob, game_id=game.pk)
    with pytest.raises(Conflict, match="cancel it instead"):
        lobby.leave_game(user=alice, game_id=game.pk)
    lobby.leave_game(user=bob, game_id=game.pk)
    assert not Seat.objects.filter(game=game, user=bob).exists()
    with pytest.raises(NotAllowed):
        lobby.cancel_game(user=bob, game_id=game.pk)
    lobby.cancel_game(user=alice, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    with pytest.raises(Conflict):
        lobby.join_game(user=carol, game_id=game.pk)


def test_cancel_after_start_is_refused(courses, trio):
    game = started_game(users=trio, course=courses["bolt-bay"])
    response = api(trio[0]).post(f"/api/games/{game.pk}/cancel/")
    assert response.status_code == 409 and "not started" in response.json()["detail"]


def test_eject_in_the_lobby_closes_empty_seats_and_starts(courses, trio):
    alice, bob, _ = trio
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=4)
    lobby.join_game(user=bob, game_id=game.pk)
    assert chat.post_chat(user=bob, game_id=game.pk, text="!eject") == {"command": "eject", "ejected": [3, 4]}
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING and game.max_seats == 2


def test_profile_shows_to_opponents(courses, trio):
    alice, bob, _ = trio
    update_profile(user=alice, display_name="Al the Great", color="#15803d", vacation_from=date(2099, 1, 1),
                   vacation_until=date(2099, 1, 10))
    game = lobby.create_game(user=alice, course=courses["bolt-bay"], max_seats=2)
    lobby.join_game(user=bob, game_id=game.pk)
    seat = api(bob).get(f"/api/games/{game.pk}/").json()["seats"][0]
    assert seat["display_name"] == "Al the Great" and seat["color"] == "#15803d"
    assert seat["vacation"] == {"from": "2099-01-01", "until": "2099-01-10"}


def test_profile_api_validates(trio):
    alice = trio[0]
    bad = api(alice).patch("/api/profile/", {"color": "#123456"}, format="json")
    assert bad.status_code == 400 and "color" in bad.json()["detail"]
    bad = api(alice).patch("/api/profile/", {"vacation_from": "2030-01-10", "vacation_until": "2030-01-01"},
                           format="json")
    assert bad.status_code == 400 and "before the first" in bad.json()["detail"]
    ok = api(alice).patch("/api/profile/", {"display_name": "Ally", "email": "a@example.com"}, format="json")
    assert ok.status_code == 200 and ok.json()["display_name"] == "Ally"
    alice.refresh_from_db()
    assert alice.email == "a@example.com"


def test_profile_page(trio, client):
    client.force_login(trio[0])
    assert client.get("/profile/").status_code == 200
    response = client.post("/profile/", {"display_name": "Queen A", "color": "", "email": "", "vacation_from": "",
                                         "vacation_until": ""})
    assert response.status_code == 302
    assert trio[0].profile.display_name == "Queen A"


def test_a_player_whose_bot_is_out_cannot_resign_again(courses, trio):
    from games.models import Game as GameModel

    game = started_game(users=trio, course=courses["bolt-bay"])
    state = game.state
    for bot in state["bots"]:
        if bot["id"] == "3":
            bot["at"], bot["lives"] = None, 0
    GameModel.objects.filter(pk=game.pk).update(state=state)
    with pytest.raises(Conflict, match="already out"):
        lobby.leave_game(user=trio[2], game_id=game.pk)
