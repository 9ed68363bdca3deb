"""RAMbots on the site (issue 21): a second game kind through the same lobby, moves, clocks, timeout policies,
events, computer players and results, with its hidden information (goal stacks, programs) kept hidden."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

import engine
from engine.kinds import rambots as rules
from games import kinds
from games.models import Draft, Game, GameEvent, Hand, Program, Seat, Turn
from games.selectors import lobby as lobby_selectors
from games.services import computer_seats, moves, rematch, timeouts, turns
from games.services import lobby as lobby_services
from roboracer.common.errors import Conflict, InvalidInput, NotFound

PLAYERS = ("ada", "bob", "cy")  # the `players` fixture (tests/conftest.py)


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _rambots(users, **fields) -> Game:
    """A RAMbots game of `users`, created through the API by the first and joined by the others (it starts once
    full)."""
    answer = _client(users[0]).post("/api/games/", {"kind": "rambots", "max_seats": len(users), **fields},
                                    format="json")
    assert answer.status_code == 201, answer.content
    invite = {"invite": Game.objects.get(pk=answer.data["id"]).invite_code}  # "" for a public game
    for user in users[1:]:
        assert _client(user).post(f"/api/games/{answer.data['id']}/join/", invite, format="json").status_code == 200
    return Game.objects.get(pk=answer.data["id"])


def _move(user, game, body):
    return _client(user).post(f"/api/games/{game.pk}/move/", body, format="json")


def _stack_for(game, user) -> list[str]:
    """A goal stack built from the user's own pool: the pieces of each colour of one size, in colour order."""
    seat = game.seats.get(user=user)
    pool = next(p for p in game.state["players"] if p["id"] == seat.bot_id)["pool"]
    return [next(piece for piece in pool if piece.endswith(colour)) for colour in ("blue", "green", "red", "yellow")]


def _build_goals(game, users):
    for user in users:
        assert _move(user, game, {"turn": 0, "goals": _stack_for(game, user)}).status_code == 200
    assert turns.resolve_turn(game_id=game.pk, turn=0) is not None
    game.refresh_from_db()


def _snapshot(game, user) -> dict:
    return _client(user).get(f"/api/games/{game.pk}/").data


def test_the_registry_knows_both_kinds_and_a_game_names_its_own():
    assert set(kinds.names()) == {"roboracer", "rambots"}
    assert kinds.get("rambots").title == "RAMbots" and not kinds.get("rambots").takes_chips
    with pytest.raises(KeyError):
        kinds.get("chess")


def test_a_full_game_starts_with_the_goal_stack_step(players):
    game = _rambots(players, options={"speedbots": False})
    assert game.kind == "rambots" and game.course_id is None and game.rated  # rated in RAMbots ratings
    assert game.status == Game.Status.PROGRAMMING and game.turn == 0
    assert game.state["phase"] == "goals" and [p["id"] for p in game.state["players"]] == ["1", "2", "3"]
    # Every seat's pool as it stood when the step began, and every clock running.
    assert Hand.objects.filter(seat__game=game, turn=0).count() == 3
    assert all(seat.clock_started_at is not None for seat in game.seats.all())
    lobby = lobby_selectors.game_summary(game=lobby_selectors.with_winner_names([lobby_selectors.lobby_game(game_id=game.pk)])[0])
    assert lobby["kind"] == "rambots" and lobby["course_name"] == "RAMbots" and lobby["course"] is None
    snap = _snapshot(game, players[0])
    assert snap["kind"] == "rambots" and snap["course"] is None and "bots" not in snap
    assert snap["me"]["rambots"]["goals_for"] == "2"  # the player on my left (clockwise)


@pytest.mark.parametrize("body", [
    {"kind": "rambots", "max_seats": 5},
    {"kind": "rambots", "max_seats": 1},
    {"kind": "rambots", "options": {"speedbots": "yes"}},
    {"kind": "rambots", "options": {"lives": 3}},
    {"kind": "chess"},
    {"kind": ["rambots"]},
    {"kind": "rambots", "options": {"speedbots": {"a": [[[[[[[]]]]]]]}}},
])
def test_a_bad_game_is_refused_and_nothing_is_made(players, body):
    before = Game.objects.count()
    answer = _client(players[0]).post("/api/games/", body, format="json")
    assert answer.status_code == 400 and answer.data["detail"]
    assert Game.objects.count() == before


def test_goal_stacks_are_checked_and_stay_hidden_until_all_are_built(players):
    ada, bob, cy = players
    game = _rambots(players)
    stack = _stack_for(game, ada)
    for bad in ([], stack[:3], [stack[0]] * 4, ["S-red", "S-red", "S-green", "S-blue"], ["L-purple"] * 4,
                [{"piece": "S-red"}] * 4, "S-red", None):
        answer = _move(ada, game, {"turn": 0, "goals": bad})
        assert answer.status_code == 400, bad
    assert not Program.objects.filter(seat__game=game).exists()
    assert _move(ada, game, {"turn": 0, "goals": stack}).status_code == 200
    # Nobody else sees ada's stack: not bob (its owner, until all are built), not cy, not a spectator.
    for viewer in (bob, cy):
        text = json.dumps(_snapshot(game, viewer))
        assert json.dumps(stack) not in text
        assert _snapshot(game, viewer)["me"]["rambots"]["goals_made"] is None
    assert _snapshot(game, ada)["me"]["rambots"]["goals_made"] == stack
    assert all(json.dumps(stack) not in json.dumps(e.data) for e in GameEvent.objects.filter(game=game))
    assert [s["ready"] for s in _snapshot(game, bob)["seats"]] == [True, False, False]
    _move(bob, game, {"turn": 0, "goals": _stack_for(game, bob)})
    _move(cy, game, {"turn": 0, "goals": _stack_for(game, cy)})
    game.refresh_from_db()
    assert game.status == Game.Status.RESOLVING
    turns.resolve_turn(game_id=game.pk, turn=0)
    game.refresh_from_db()
    assert game.turn == 1 and game.state["phase"] == "programming"
    bob_player = next(p for p in _snapshot(game, bob)["rambots"]["players"] if p["id"] == "2")
    assert bob_player["goals"] == stack  # the owner sees his stack, the maker (ada) sees it too
    assert next(p for p in _snapshot(game, ada)["rambots"]["players"] if p["id"] == "2")["goals"] == stack
    cy_view = next(p for p in _snapshot(game, cy)["rambots"]["players"] if p["id"] == "2")
    assert cy_view["goals"] is None and cy_view["goal_top"] == stack[0] and cy_view["goals_left"] == 4
    # The step's record and its event reveal the tops only; the stacks are not in the replay.
    record = _client(cy).get(f"/api/games/{game.pk}/turns/0/").data
    assert record["programs"] == {} and json.dumps(stack) not in json.dumps(record)
    resolved = GameEvent.objects.get(game=game, kind="turn_resolved", data__turn=0)
    assert json.dumps(stack) not in json.dumps(resolved.data)


def test_a_program_stays_hidden_until_it_runs_and_then_is_revealed(players):
    ada, bob, cy = players
    game = _rambots(players)
    _build_goals(game, players)
    program = [{"piece": "S-red", "dir": "S"}, {"piece": "M-blue", "dir": "E"}]
    pool = next(p for p in game.state["players"] if p["id"] == "1")["pool"]
    program = [i for i in program if i["piece"] in pool] or [{"piece": pool[0], "dir": "S"}]
    answer = _move(ada, game, {"turn": 1, "program": program, "compiled": True})
    assert answer.status_code == 200 and answer.data["program"] == program
    for viewer in (bob, cy):
        snap = _snapshot(game, viewer)
        assert snap["me"]["rambots"]["program"] is None
        assert '"dir": "S"' not in json.dumps(snap["me"]) and json.dumps(program) not in json.dumps(snap)
    assert _snapshot(game, ada)["me"]["rambots"]["program"] == program
    assert all(json.dumps(program) not in json.dumps(e.data) for e in GameEvent.objects.filter(game=game))
    for user in (bob, cy):
        assert _move(user, game, {"turn": 1, "program": [], "compiled": True}).status_code == 200
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    assert game.turn == 2
    record = _client(cy).get(f"/api/games/{game.pk}/turns/1/").data
    assert record["programs"]["1"] == program
    assert [e["type"] for e in record["events"]].count("instruction") == len(program)
    # Everyone sees the pools as they stand when programming begins (002 "Code Pool Disclosure").
    pools = {p["id"]: p["pool"] for p in _snapshot(game, cy)["rambots"]["players"]}
    assert pools == {p["id"]: p["pool"] for p in game.state["players"]}


@pytest.mark.parametrize("body", [
    {"turn": 1, "program": [{"piece": "S-purple", "dir": "N"}], "compiled": True},
    {"turn": 1, "program": [{"piece": "S-red", "dir": "NE"}], "compiled": True},
    {"turn": 1, "program": [{"piece": "S-red", "dir": "N", "x": 1}], "compiled": True},
    {"turn": 1, "program": [{"piece": "S-red", "dir": "N"}] * 6, "compiled": True},
    {"turn": 1, "program": "S-red", "compiled": True},
    {"turn": 1, "program": [], "compiled": "yes"},
    {"turn": 1, "program": [], "extra": 1},
    {"turn": 2, "program": [], "compiled": True},
    {"turn": True, "program": []},
    {"turn": 1, "program": [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]},
    {"turn": 1, "program": [{"piece": "Ｓ-ｒｅｄ", "dir": "Ｎ"}]},
    ["turn", 1],
])
def test_a_bad_move_is_a_clear_4xx_and_changes_nothing(players, body):
    game = _rambots(players)
    _build_goals(game, players)
    version = game.version
    answer = _move(players[0], game, body)
    assert 400 <= answer.status_code < 500 and answer.data["detail"]
    game.refresh_from_db()
    assert game.version == version and not Program.objects.filter(seat__game=game, turn=1).exists()


def test_pieces_held_in_the_pool_can_be_used_once_each(players):
    game = _rambots(players)
    _build_goals(game, players)
    pool = next(p for p in game.state["players"] if p["id"] == "1")["pool"]
    twice = [{"piece": pool[0], "dir": "N"}] * (pool.count(pool[0]) + 1)
    assert _move(players[0], game, {"turn": 1, "program": twice, "compiled": True}).status_code == 400


def test_a_stranger_gets_a_404_and_roboracer_endpoints_refuse_a_rambots_game(players, make_user):
    game = _rambots(players[:2], visibility="private")
    eve = make_user("eve")
    assert _move(eve, game, {"turn": 0, "goals": []}).status_code == 404
    assert _client(eve).post("/api/games/999999/move/", {"turn": 0}, format="json").status_code == 404
    answer = _client(players[0]).post(f"/api/games/{game.pk}/program/",
                                      {"turn": 1, "chips": ["1", "2", "3", "L", "R"]}, format="json")
    assert answer.status_code in (400, 409) and "move" in answer.data["detail"]


def test_uncompiling_and_drafts_and_speedbots_running_the_last_program_as_it_lies(players):
    ada, bob, cy = players
    game = _rambots(players, options={"speedbots": True})
    _build_goals(game, players)
    pool = next(p for p in game.state["players"] if p["id"] == "3")["pool"]
    draft = [{"piece": pool[0], "dir": "N"}, {"piece": pool[1], "dir": "up"}]
    assert _move(cy, game, {"turn": 1, "program": draft, "compiled": False}).status_code == 200
    assert Draft.objects.get(seat__game=game, seat__number=3, turn=1).program == draft
    assert _snapshot(game, cy)["me"]["rambots"]["draft"] == draft
    assert _snapshot(game, ada)["me"]["rambots"]["draft"] is None  # a draft is its player's alone
    # bob compiles, then uncompiles (his clock runs again), then compiles again.
    assert _move(bob, game, {"turn": 1, "program": [], "compiled": True}).status_code == 200
    assert _move(bob, game, {"turn": 1, "program": [], "compiled": False}).status_code == 200
    assert not Program.objects.filter(seat__game=game, seat__number=2, turn=1).exists()
    assert game.seats.get(number=2).clock_started_at is not None
    assert GameEvent.objects.filter(game=game, kind="seat_unready", data__seat=2).exists()
    _move(bob, game, {"turn": 1, "program": [], "compiled": True})
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING  # two of three still to compile
    _move(ada, game, {"turn": 1, "program": [], "compiled": True})
    game.refresh_from_db()
    # All but one compiled: the round ends, and cy's arrangement runs as it lies.
    assert game.status == Game.Status.RESOLVING
    assert Program.objects.get(seat__game=game, seat__number=3, turn=1).chips == draft
    assert GameEvent.objects.filter(game=game, kind="seat_ready", data__seat=3, data__as_it_lies=True).exists()
    turns.resolve_turn(game_id=game.pk, turn=1)
    assert Turn.objects.get(game=game, number=1).programs["3"] == draft


def test_without_speedbots_the_round_waits_for_everyone(players):
    game = _rambots(players)
    _build_goals(game, players)
    for user in players[:2]:
        _move(user, game, {"turn": 1, "program": [], "compiled": True})
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING


def test_a_resigning_player_is_out_and_the_last_one_in_wins(players):
    ada, bob, _ = players
    game = _rambots(players[:2])
    _build_goals(game, players[:2])
    lobby_services.leave_game(user=bob, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user == ada
    assert next(p for p in game.state["players"] if p["id"] == "2")["out"]
    finished = GameEvent.objects.get(game=game, kind="game_finished")
    assert finished.data["winner_seat"] == 1 and finished.data["places"] == {"1": 1, "2": 2}
    snap = _snapshot(game, bob)
    assert snap["standings"][0]["user"] == "ada" and snap["standings_summary"] == "ada wins"
    with pytest.raises(Conflict):
        lobby_services.leave_game(user=bob, game_id=game.pk)


def test_the_random_timeout_policy_plays_a_legal_move(players):
    game = _rambots(players[:2], timeout_policy="random")
    Seat.objects.filter(game=game).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeouts.enforce_deadline(game_id=game.pk) == "random"
    game.refresh_from_db()
    assert game.status == Game.Status.RESOLVING
    for program in Program.objects.filter(seat__game=game, turn=0):
        assert rules.goal_stack_problem(game.state, program.seat.bot_id, program.chips) is None
    turns.resolve_turn(game_id=game.pk, turn=0)
    game.refresh_from_db()
    Seat.objects.filter(game=game).update(deadline=timezone.now() - timedelta(seconds=1), expired=False)
    assert timeouts.enforce_deadline(game_id=game.pk) == "random"
    for program in Program.objects.filter(seat__game=game, turn=1):
        assert rules.program_problem(game.state, program.seat.bot_id, program.chips) is None


def test_computers_play_a_whole_game_to_its_winner(players):
    """Three computer players of the three strengths and one person who plays nothing: the computers go
    through the checks a person's move goes through, and the game ends with a winner and places."""
    ada = players[0]
    game = lobby_services.create_game(user=ada, kind="rambots", max_seats=4)
    for strength in ("easy", "normal", "hard"):
        computer_seats.add_computer(user=ada, game_id=game.pk, strength=strength)
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING and game.turn == 0
    for _ in range(120):
        for seat in game.seats.filter(computer__gt=""):
            moves.play_computer_turn(game_id=game.pk, turn=game.turn, seat_number=seat.number)
        _move(ada, game, {"turn": game.turn, **({"goals": _stack_for(game, ada)} if game.turn == 0
                                                  else {"program": [], "compiled": True})})
        game.refresh_from_db()
        assert game.status == Game.Status.RESOLVING, game.turn
        turns.resolve_turn(game_id=game.pk, turn=game.turn)
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
    assert game.status == Game.Status.FINISHED, f"no winner after {game.turn} rounds"
    assert game.winner is not None and game.winner.computer
    assert sorted(GameEvent.objects.get(game=game, kind="game_finished").data["places"]) == ["1", "2", "3", "4"]
    # The whole game again from its stored inputs (the seed, the stacks, the programs) gives every stored state.
    state = rules.new_game(["1", "2", "3", "4"], seed=engine.derive_seed(game.seed, 0, "setup"),
                           options=game.options)
    for record in Turn.objects.filter(game=game).order_by("number"):
        assert record.state_before == state
        if record.number == 0:
            state, _ = rules.set_goal_stacks(state, record.programs)
        else:
            state, _ = rules.resolve_round(state, record.programs)
        assert state == record.state_after
    assert state == game.state


def test_play_again_makes_a_rambots_lobby_with_the_same_options(players):
    ada, bob, _ = players
    game = _rambots(players[:2], options={"speedbots": True})
    _build_goals(game, players[:2])
    lobby_services.leave_game(user=bob, game_id=game.pk)
    new, made = rematch.play_again(user=ada, game_id=game.pk)
    assert made and new.kind == "rambots" and new.options == {"speedbots": True} and new.max_seats == 2


def test_the_service_refuses_what_the_api_refuses(players):
    game = _rambots(players[:2])
    with pytest.raises(InvalidInput):
        moves.submit_move(user=players[0], game_id=game.pk, data={"turn": 0, "goals": ["S-red"]})
    with pytest.raises(NotFound):
        moves.submit_move(user=players[2], game_id=Game.objects.order_by("-pk")[0].pk + 1,
                                   data={"turn": 0, "goals": []})


def test_the_lobby_form_makes_a_rambots_game_with_computer_players(players):
    from django.test import Client

    client = Client()
    client.force_login(players[0])
    assert b"Create RAMbots game" in client.get("/").content
    answer = client.post("/games/new/rambots/", {
        "rambots-max_seats": "3", "rambots-computers": "2", "rambots-strength": "easy", "rambots-speedbots": "on",
        "rambots-visibility": "public", "rambots-timer_preset": "realtime", "rambots-timeout_policy": "wait",
    })
    game = Game.objects.get(creator=players[0])
    assert answer.status_code == 302 and answer.url == f"/games/{game.pk}/"
    assert game.kind == "rambots" and game.options == {"speedbots": True} and game.status == Game.Status.PROGRAMMING
    assert [seat.computer for seat in game.seats.order_by("number")] == ["", "easy", "easy"]
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and b"RAMbots" in page.content
    # Too many computers, or a bad number of players: back to the lobby with the reason, and no game.
    for fields in ({"rambots-max_seats": "2", "rambots-computers": "2"}, {"rambots-max_seats": "9"}):
        answer = client.post("/games/new/rambots/", {"rambots-visibility": "public", "rambots-timer_preset": "realtime",
                                                     "rambots-timeout_policy": "wait", **fields}, follow=True)
        assert answer.redirect_chain[-1][0] == "/" and Game.objects.filter(creator=players[0]).count() == 1


def test_a_roboracer_game_refuses_moves_and_keeps_its_snapshot(players, courses):
    game = lobby_services.create_game(user=players[0], course=courses["bolt-bay"], max_seats=2)
    lobby_services.join_game(user=players[1], game_id=game.pk)
    answer = _move(players[0], game, {"turn": 1, "program": [], "compiled": True})
    assert answer.status_code == 400 and "/program/" in answer.data["detail"]
    snap = _snapshot(game, players[0])
    assert snap["kind"] == "roboracer" and snap["bots"] and len(snap["me"]["hand"]) == 9 and "rambots" not in snap


def test_seats_take_their_bots_colours_and_speedbots_reloads_the_last_clock(players):
    game = _rambots(players, options={"speedbots": True})
    colours = {p["id"]: p["colour"] for p in game.state["players"]}
    hexes = {"red": "#dc2626", "yellow": "#eab308", "green": "#16a34a", "blue": "#2563eb"}
    assert {seat.bot_id: seat.color for seat in game.seats.all()} == {bot: hexes[c] for bot, c in colours.items()}
    _build_goals(game, players)
    cy = game.seats.get(number=3)
    Seat.objects.filter(pk=cy.pk).update(move_left=10.0)  # cy dawdled: 10 s of move time left
    for user in players[:2]:
        _move(user, game, {"turn": 1, "program": [], "compiled": True})
    cy.refresh_from_db()
    assert cy.clock_started_at is None and cy.move_left > 10.0  # ran as it lay, and reloaded as a compile would


def test_a_kind_without_a_create_form_of_its_own_has_no_create_page(players):
    """/games/new/<kind>/ serves a kind's own create form (RAMbots'); RoboRacer's is the lobby's, and an unknown
    kind is a 404 that changes nothing."""
    from django.test import Client

    client = Client()
    client.force_login(players[0])
    for kind in ("roboracer", "chess", "r%C3%A9"):
        answer = client.post(f"/games/new/{kind}/", {"roboracer-max_seats": "2"})
        assert answer.status_code == 404, kind
    assert not Game.objects.filter(creator=players[0]).exists()
    lobby = client.get("/").content.decode()
    assert 'value="rambots"' in lobby and 'id="create-rambots"' in lobby and 'action="/games/new/rambots/"' in lobby


def test_a_rambots_your_move_notice_says_round(players, monkeypatch):
    """The players' trial: RAMbots plays rounds (002), and its "your move" notice said "turn"."""
    from games.services import notices, publish

    game = _rambots(players, options={"speedbots": False})
    sent = []
    monkeypatch.setattr(notices, "notify", lambda **fields: sent.append(fields))
    publish.notify_turn(game, list(game.seats.order_by("number"))[:1])
    assert sent[0]["text"] == f"Your move in game {game.pk} (RAMbots), round {game.turn}"
    assert sent[0]["message"]["turn_noun"] == "round"
