"""Game modes on the site (issue 16, docs/modes.md): team play in the lobby and at the start, team chat kept
inside its team (over the API, in snapshots and on WebSockets), arenas without reboots, puzzles with fixed
deals, the puzzle page and the mode's standings."""

import json
from pathlib import Path

import pytest
from channels.db import database_sync_to_async as sync_to_async

import engine
from games.models import ChatMessage, Game, Hand
from games.selectors import puzzles, snapshots
from games.services import chat, lobby, moves, team_play, turns
from tests.games.factories import hand_of, legal_program, started_game
from tests.games.test_hidden_information import drain, game_socket
from tests.helpers import client_for

SOLUTIONS = json.loads((Path(__file__).parents[1] / "engine" / "puzzle_solutions.json").read_text())


def team_lobby(courses, users, course="twin-lanes"):
    game = lobby.create_game(user=users[0], course=courses[course], max_seats=len(users), teams=True)
    for user in users[1:]:
        lobby.join_game(user=user, game_id=game.pk)
    return game


# --- team play: the lobby and the start --------------------------------------------------------------------


@pytest.mark.django_db
def test_team_play_is_for_races_and_arenas_with_four_seats(courses, make_user):
    alice = make_user("alice")
    api = client_for(alice)
    ok = api.post("/api/games/", {"course": "twin-lanes", "max_seats": 4, "teams": True}, format="json")
    assert ok.status_code == 201 and ok.json()["teams"] is True and ok.json()["can_balance"] is True
    for body in ({"course": "scrap-pit", "max_seats": 3, "teams": True},
                 {"course": "puzzle-relay-run", "teams": True}):  # fmt: skip
        refused = api.post("/api/games/", body, format="json")
        assert refused.status_code == 400 and "team play" in refused.json()["detail"]
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_players_choose_teams_the_creator_places_and_balances_and_strangers_cannot(courses, make_user):
    users = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    stranger = make_user("eve")
    game = team_lobby(courses, users)
    bob = client_for(users[1])
    assert bob.post(f"/api/games/{game.pk}/team/", {"team": "orange"}, format="json").status_code == 200
    assert game.seats.get(user=users[1]).team == "orange"
    # bob may not place carol; the creator may; a stranger has no seat; "green" is no team.
    assert bob.post(f"/api/games/{game.pk}/team/", {"team": "blue", "seat": 3}, format="json").status_code == 403
    alice = client_for(users[0])
    assert alice.post(f"/api/games/{game.pk}/team/", {"team": "orange", "seat": 3}, format="json").status_code == 200
    assert game.seats.get(number=3).team == "orange"
    assert client_for(stranger).post(f"/api/games/{game.pk}/team/", {"team": "blue"}, format="json").status_code == 403
    assert alice.post(f"/api/games/{game.pk}/team/", {"team": "green"}, format="json").status_code == 400
    assert bob.post(f"/api/games/{game.pk}/teams/balance/", format="json").status_code == 403
    answer = alice.post(f"/api/games/{game.pk}/teams/balance/", format="json")
    assert answer.status_code == 200
    teams = sorted(seat["team"] for seat in answer.json()["seats"])
    assert teams == ["blue", "blue", "orange", "orange"]


@pytest.mark.django_db
def test_a_team_game_starts_only_with_two_on_each_team_and_the_bots_carry_their_teams(courses, make_user):
    users = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    game = team_lobby(courses, users)
    for user in users[:3]:
        team_play.choose_team(user=user, game_id=game.pk, team="blue")
    refused = client_for(users[0]).post(f"/api/games/{game.pk}/start/", format="json")
    assert refused.status_code == 409 and "two players on each team" in refused.json()["detail"]
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY
    team_play.choose_team(user=users[2], game_id=game.pk, team="orange")
    lobby.start_game(user=users[0], game_id=game.pk)  # dave had no team: he joins the smaller one
    game.refresh_from_db()
    assert game.seats.get(user=users[3]).team == "orange"
    teams = {bot["id"]: bot["team"] for bot in game.state["bots"]}
    assert teams == {"1": "blue", "2": "blue", "3": "orange", "4": "orange"}
    snap = snapshots.game_snapshot(game=game, user=users[3])
    assert snap["me"]["team"] == "orange" and {b["team"] for b in snap["bots"]} == {"blue", "orange"}


# --- team chat ---------------------------------------------------------------------------------------------


def _started_team_game(courses, users):
    game = team_lobby(courses, users)
    for user, team in zip(users, ("blue", "blue", "orange", "orange"), strict=True):
        team_play.choose_team(user=user, game_id=game.pk, team=team)
    lobby.start_game(user=users[0], game_id=game.pk)
    game.refresh_from_db()
    return game


@pytest.mark.django_db(transaction=True)
async def test_team_chat_reaches_the_team_only(courses, make_user):
    alice, bob, carol, dave, sam = [await sync_to_async(make_user)(n) for n in ("alice", "bob", "carol", "dave", "sam")]
    game = await sync_to_async(_started_team_game)(courses, [alice, bob, carol, dave])
    sockets = {name: game_socket(game.pk, user) for name, user in (("bob", bob), ("carol", carol), ("sam", sam))}
    for comm in sockets.values():
        assert (await comm.connect())[0]
    for comm in sockets.values():
        await drain(comm)  # the snapshot on connect
    secret = "flank them on the left belt"
    await sync_to_async(chat.post_chat)(user=alice, game_id=game.pk, text=secret)
    await sync_to_async(chat.post_chat)(user=dave, game_id=game.pk, text="@all good luck everyone")
    received = {name: await drain(comm) for name, comm in sockets.items()}
    for comm in sockets.values():
        await comm.disconnect()
    # bob (Blue) gets alice's line on his own socket, as a team_chat frame; carol (Orange) and sam never do.
    assert [m["message"]["text"] for m in received["bob"] if m["type"] == "team_chat"] == [secret]
    for name in ("carol", "sam"):
        assert secret not in json.dumps(received[name]), name
        assert any(m.get("kind") == "chat" and m["data"]["text"] == "good luck everyone" for m in received[name])
    stored = await sync_to_async(lambda: list(ChatMessage.objects.filter(game=game).values_list("team", "text")))()
    assert ("blue", secret) in stored and ("", "good luck everyone") in stored
    events = await sync_to_async(lambda: json.dumps(list(game.events.values_list("data", flat=True))))()
    assert secret not in events, "a team's line is no public event"

    def views():
        fresh = Game.objects.get(pk=game.pk)
        return {
            name: json.dumps([snapshots.game_snapshot(game=fresh, user=user),
                              client_for(user).get(f"/api/games/{game.pk}/chat/").json()])
            for name, user in (("bob", bob), ("carol", carol), ("sam", sam))
        }  # fmt: skip

    seen = await sync_to_async(views)()
    assert secret in seen["bob"] and secret not in seen["carol"] and secret not in seen["sam"]
    assert all("good luck everyone" in text for text in seen.values())


# --- arenas ------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_arena_refuses_a_reboot_and_says_so_in_the_snapshot(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(users=[alice, bob], course=courses["scrap-pit"])
    snap = client_for(alice).get(f"/api/games/{game.pk}/").json()
    assert snap["mode"] == "arena" and snap["can_reboot"] is False and snap["remains"] == []
    body = {"turn": 1, "chips": legal_program(game, alice), "reboot": True}
    answer = client_for(alice).post(f"/api/games/{game.pk}/program/", body, format="json")
    assert answer.status_code == 400 and "arena" in answer.json()["detail"]
    assert not game.seats.get(user=alice).programs.exists()


# --- puzzles -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_solo_puzzle_starts_at_once_with_the_puzzles_own_deal(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    course = courses["puzzle-push-off"]
    games = [lobby.create_game(user=user, course=course) for user in (alice, bob)]
    seed = course.data["puzzle"]["seed"]
    for game in games:
        game.refresh_from_db()
        assert game.status == Game.Status.PROGRAMMING and game.seed == seed and game.max_seats == 1
    assert hand_of(games[0], alice) == hand_of(games[1], bob) == SOLUTIONS["puzzle-push-off"][0]["hands"]["1"]
    snap = snapshots.game_snapshot(game=games[0], user=bob)
    assert snap["puzzle"]["goal"] == {"type": "destroy", "targets": ["crate"]}
    assert [bot["id"] for bot in snap["bots"] if bot.get("target")] == ["crate"]
    assert snap["rated"] is False and snap["me"] is None
    assert not Hand.objects.filter(seat__game=games[0]).exclude(seat__user=alice).exists()


@pytest.mark.django_db
def test_playing_the_shipped_solution_solves_the_puzzle_and_the_page_counts_it(courses, make_user, client):
    alice, bob = make_user("alice"), make_user("bob")
    slug = "puzzle-first-steps"
    game = lobby.create_game(user=alice, course=courses[slug])
    lobby.create_game(user=bob, course=courses[slug])  # bob tried, did not solve
    for turn in SOLUTIONS[slug]:
        game.refresh_from_db()
        moves.submit_program(user=alice, game_id=game.pk, turn=game.turn, chips=turn["programs"]["1"])
        turns.resolve_turn(game_id=game.pk, turn=game.turn)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.state["outcome"] == "solved"
    snap = snapshots.game_snapshot(game=game, user=alice)
    used = len(SOLUTIONS[slug])
    assert snap["outcome"] == "solved" and snap["standings_summary"] == f"Solved in {used} of 3 turns"
    [row] = [p for p in puzzles.puzzle_list(user=alice) if p["slug"] == slug]
    assert (row["tried"], row["solved"], row["best_turns"]) == (2, 1, used)
    assert [s["game"] for s in row["mine"]] == [game.pk]
    client.force_login(alice)
    page = client.get("/puzzles/").content.decode()
    assert "First Steps" in page and f"/games/{game.pk}/" in page and "2 tried" in page
    api = client_for(bob).get("/api/puzzles/").json()
    assert {p["slug"] for p in api} >= {slug, "puzzle-relay-run"} and all(p["mine"] == [] for p in api)


@pytest.mark.django_db
def test_play_on_the_puzzle_page_starts_a_game_and_refuses_what_is_no_puzzle(courses, make_user, client):
    alice = make_user("alice")
    client.force_login(alice)
    answer = client.post("/puzzles/puzzle-push-off/play/")
    game = Game.objects.get(creator=alice)
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    assert client.post("/puzzles/tiny-yard/play/").status_code == 404
    assert client.post("/puzzles/no-such-course/play/").status_code == 404
    assert client.get("/puzzles/puzzle-push-off/play/").status_code == 405
    assert Game.objects.count() == 1


# --- standings ---------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_arena_ranks_by_survival_in_its_standings(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(users=[alice, bob], course=courses["scrap-pit"], lives=1)
    # bob leaves (an ejection): alice is the last bot alive.
    lobby.leave_game(user=bob, game_id=game.pk)
    game.refresh_from_db()
    snap = snapshots.game_snapshot(game=game, user=alice)
    assert game.status == Game.Status.FINISHED
    assert [(row["user"], row["place"]) for row in snap["standings"]] == [("alice", 1), ("bob", 2)]
    assert snap["standings"][0]["detail"] == "last bot alive" and snap["standings"][1]["detail"].startswith("out in turn")
    assert snap["standings_summary"] == "alice wins (last bot alive)"


def test_puzzle_goal_texts():
    assert puzzles.puzzle_goal_text({"goal": {"type": "checkpoint", "number": 2}, "turn_limit": 4}) == (
        "Reach check point 2 within 4 turns")
    assert puzzles.puzzle_goal_text({"goal": {"type": "survive", "turns": 3}, "turn_limit": 3}) == (
        "Survive 3 turns with no bot destroyed")
    assert puzzles.puzzle_goal_text({"goal": {"type": "destroy", "targets": ["a", "b"]}, "turn_limit": 1}) == (
        "Destroy a, b within 1 turn")
    assert engine.bundled_course("puzzle-push-off").puzzle["goal"]["type"] == "destroy"
