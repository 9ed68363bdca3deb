"""Rulesets on the site (issue 19, docs/rulesets.md): the create form and API take the ruleset, the course
must suit it, hands and programs follow its cards, turns resolve by its rules, and the snapshot says which."""

import pytest

import engine
from games.kinds.roboracer import services as roboracer_services
from games.models import Game
from games.selectors import snapshots
from games.services import lobby, turns
from tests.games.factories import hand_of, legal_program
from tests.helpers import client_for


def roborace_game(courses, users):
    game = lobby.create_game(user=users[0], course=courses["roborace-factory-hall"], max_seats=len(users),
                                ruleset="roborace")  # fmt: skip
    for user in users[1:]:
        lobby.join_game(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_create_checks_the_ruleset_against_the_course_and_the_options(courses, make_user):
    api = client_for(make_user("alice"))
    cases = [
        ({"course": "roborace-factory-hall"}, "this course suits RoboRace, not RoboRacer"),
        ({"course": "tiny-yard", "ruleset": "roborace"}, "this course suits RoboRacer, not RoboRace"),
        ({"course": "roborace-factory-hall", "ruleset": "roborace", "modules": ["shield"]}, "no bot modules"),
        ({"course": "roborace-factory-hall", "ruleset": "roborace", "options": {"electric_fence": True}}, "no option"),
        ({"course": "roborace-factory-hall", "ruleset": "chess"}, "not a valid choice"),
        ({"course": "roborace-factory-hall", "ruleset": "roborace", "options": {"a": {"b": [[[[]]]]}}}, "no option"),
    ]
    for body, message in cases:
        answer = api.post("/api/games/", body, format="json")
        assert answer.status_code == 400, (body, answer.content)
        assert message in str(answer.json()), (body, answer.json())
    assert Game.objects.count() == 0
    ok = api.post("/api/games/", {"course": "roborace-factory-hall", "ruleset": "roborace", "max_seats": 2}, format="json")
    assert ok.status_code == 201
    assert Game.objects.get().ruleset == "roborace"


@pytest.mark.django_db
def test_a_roborace_game_deals_numbered_cards_and_resolves_by_004(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = roborace_game(courses, [alice, bob])
    assert game.status == Game.Status.PROGRAMMING and game.state["ruleset"] == "roborace"
    hands = {user.username: hand_of(game, user) for user in (alice, bob)}
    cards = hands["alice"] + hands["bob"]
    assert all(len(hand) == 7 for hand in hands.values()) and len(set(cards)) == 14
    assert all(engine.cards.roborace_problem(card) is None for card in cards)
    snap = snapshots.game_snapshot(game=game, user=alice)
    assert snap["ruleset"]["name"] == "roborace" and snap["ruleset"]["numbered"] is True
    assert snap["can_reboot"] is False and snap["me"]["hand"] == hands["alice"]
    api = client_for(alice)
    # A plain chip, a card of bob's, a reboot: refused, nothing stored.
    for chips, reboot, message in (
        (["1", *hands["alice"][:4]], False, "is not a card"),
        ([hands["bob"][0], *hands["alice"][:4]], False, "not in the hand"),
        (hands["alice"][:5], True, "has no reboot"),
    ):
        answer = api.post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": chips, "reboot": reboot}, format="json")
        assert answer.status_code == 400 and message in answer.json()["detail"], answer.json()
    assert not game.seats.get(user=alice).programs.exists()
    programs = {user.username: legal_program(game, user) for user in (alice, bob)}
    for user in (alice, bob):
        answer = client_for(user).post(f"/api/games/{game.pk}/program/",
                                       {"turn": 1, "chips": programs[user.username]}, format="json")  # fmt: skip
        assert answer.status_code in (200, 201), answer.content
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    assert game.turn == 2
    record = game.turns.get(number=1)
    # The stored turn is 004's: cards with their numbers, the spaces step, and the same result as the engine's.
    chip_events = [e for e in record.events if e["type"] == "chip"]
    assert chip_events and all("number" in e for e in chip_events)
    assert any(e["type"] == "space_order" for e in record.events)
    course = engine.parse_course(game.course_data)
    expected, _ = engine.resolve_turn(engine.state_from_dict(record.state_before, course), record.programs, record.seed,
                                      hands=record.hands or None)  # fmt: skip
    assert engine.state_to_dict(expected)["bots"] == game.state["bots"]
    # hands of turn 2: fresh numbered cards again
    assert len(hand_of(game, alice)) == 7
    from games.kinds.roboracer.replay import replay

    _, differences = replay(game=game)
    assert differences == []


@pytest.mark.django_db
def test_the_create_form_offers_the_rulesets(courses, make_user, client):
    client.force_login(make_user("alice"))
    page = client.get("/").content.decode()
    assert 'name="ruleset"' in page and "RoboRace: the small version" in page and "RoboRacer: the full game" in page
    assert "Classic: 10 instructions" in page and "Fused: hit points" in page
    answer = client.post("/", {"ruleset": "roborace", "course": courses["roborace-press-line"].pk, "max_seats": 2,
                               "lives": 3, "visibility": "public", "timer_preset": "realtime",
                               "timeout_policy": "wait"})  # fmt: skip
    assert answer.status_code == 302
    assert Game.objects.get().ruleset == "roborace"


@pytest.mark.django_db
def test_how_to_play_has_a_section_per_available_ruleset(client):
    page = client.get("/how-to-play/").content.decode()
    assert 'id="rulesets-roborace"' in page and 'id="rulesets-fused"' in page and 'id="rulesets-classic"' in page
    assert "electrified fence" in page and "larger number moves first" in page


@pytest.mark.django_db
def test_a_fused_game_starts_everyone_virtual_on_one_square_with_the_fence_option(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    api = client_for(alice)
    answer = api.post("/api/games/", {"course": "fused-foundry", "ruleset": "fused", "max_seats": 2,
                                      "options": {"electric_fence": False}}, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    game = Game.objects.get()
    assert game.options == {"electric_fence": False}
    lobby.join_game(user=bob, game_id=game.pk)
    game.refresh_from_db()
    bots = game.state["bots"]
    assert {tuple(bot["at"]) for bot in bots} == {(1, 10)} and all(bot["virtual"] for bot in bots)
    assert game.state["options"] == {"electric_fence": False}
    hands = [hand_of(game, user) for user in (alice, bob)]
    assert all(len(hand) == 9 for hand in hands) and len(set(hands[0]) | set(hands[1])) == 18
    snap = snapshots.game_snapshot(game=game, user=bob)
    assert snap["ruleset"]["options"] == {"electric_fence": False} and snap["ruleset"]["max_damage"] == 10
    assert snap["can_reboot"] is True
    for user in (alice, bob):
        assert client_for(user).post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": legal_program(game, user)},
                                     format="json").status_code in (200, 201)  # fmt: skip
    turns.resolve_turn(game_id=game.pk, turn=1)
    stages = client_for(bob).get(f"/api/games/{game.pk}/turns/1/").json()["report"]["stages"]  # 001's table
    assert [stage["stage"] for stage in stages] == [1, 2, 3, 4, 5]
    assert {row["mode"] for row in stages[0]["robots"].values()} <= {"virtual", "real", "destroyed"}
    refused = api.post("/api/games/", {"course": "fused-foundry", "ruleset": "fused", "options": {"electric_fence": "no"}},
                       format="json")  # fmt: skip
    assert refused.status_code == 400 and "electric_fence" in refused.json()["detail"]


def classic_game(courses, users, seed=4):
    """A classic game with a fixed seed (hands and the random programs of `legal_program` replay exactly)."""
    game = lobby.create_game(user=users[0], course=courses["classic-conveyor-court"], max_seats=len(users),
                                ruleset="classic")  # fmt: skip
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in users[1:]:
        lobby.join_game(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game


def play(game, user, chips, action=None):
    body = {"turn": game.turn, "chips": chips, **({"action": action} if action is not None else {})}
    return client_for(user).post(f"/api/games/{game.pk}/program/", body, format="json")


@pytest.mark.django_db
def test_classic_power_down_is_asked_with_the_program_and_sits_the_next_round_out(courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = classic_game(courses, [alice, bob])
    assert game.state["ruleset"] == "classic" and len(hand_of(game, alice)) == 10
    bad = play(game, alice, legal_program(game, alice), {"power_down": True, "jetpack": 1})
    assert bad.status_code == 400 and "classic action" in bad.json()["detail"]
    for action, message in (({"power_down": "yes"}, "'power_down' must be true or false"),
                            ({"upgrade_use": {"scrambler": [[{"x": "\u0000"}]]}}, "which the robot does not have"),
                            ({"upgrade_use": "all"}, "'upgrade_use' must be an object")):  # fmt: skip
        bad = play(game, alice, legal_program(game, alice), action)
        assert bad.status_code == 400 and message in bad.json()["detail"], bad.json()
    assert not game.seats.get(user=alice).programs.exists()
    assert play(game, alice, legal_program(game, alice), {"power_down": True}).status_code in (200, 201)
    assert snapshots.game_snapshot(game=game, user=alice)["me"]["power_down"] is True
    assert play(game, bob, legal_program(game, bob)).status_code in (200, 201)
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    assert game.turn == 2
    alice_bot = game.seats.get(user=alice).bot_id
    assert not any(e["type"] == "destroyed" and e["bot"] == alice_bot for e in game.turns.get(number=1).events)
    snap = snapshots.game_snapshot(game=game, user=bob)
    [mine] = [bot for bot in snap["bots"] if bot["id"] == game.seats.get(user=alice).bot_id]
    assert mine["power_down_next"] is True and "saved_chip" not in mine and "upgrade_use" not in mine
    # The server entered alice's program: she sits this round out, with no instructions.
    assert hand_of(game, alice) == [] and game.seats.get(user=alice).programs.get(turn=2).chips == ["0"] * 5
    assert play(game, bob, legal_program(game, bob)).status_code in (200, 201)
    turns.resolve_turn(game_id=game.pk, turn=2)
    game.refresh_from_db()
    record = game.turns.get(number=2)
    assert any(e["type"] == "powered_down" and e["bot"] == mine["id"] for e in record.events)
    report = client_for(bob).get(f"/api/games/{game.pk}/turns/2/").json()["report"]  # 000's register report
    assert [register["register"] for register in report] == [1, 2, 3, 4, 5]
    [row] = [row for row in report[0]["rows"] if row["name"] == mine["id"]]
    assert row["notes"][0] == "Powered down"
    assert all(token in ("", "N", "E", "S", "W") for token in row["move"].split(","))  # moved only by the floor
    from games.kinds.roboracer.replay import replay

    assert replay(game=game)[1] == []


@pytest.mark.django_db
def test_classic_recompile_once_a_turn_for_two_damage_and_only_with_the_upgrade(courses, make_user):
    import dataclasses

    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    game = classic_game(courses, [alice, bob])
    seat = game.seats.get(user=alice)
    state = engine.state_from_dict(game.state, engine.parse_course(game.course_data))
    upgraded = dataclasses.replace(state.bot(seat.bot_id), upgrades=("recompile",))
    given = state.with_bots(upgraded if b.id == seat.bot_id else b for b in state.bots)
    game.state = engine.state_to_dict(given)
    game.save(update_fields=["state"])
    url = f"/api/games/{game.pk}/recompile/"
    assert client_for(bob).post(url, {"turn": 1}, format="json").status_code == 400  # no such upgrade
    assert client_for(eve).post(url, {"turn": 1}, format="json").status_code == 403  # no seat
    assert client_for(alice).post(url, {"turn": 7}, format="json").status_code == 409
    answer = client_for(alice).post(url, {"turn": 1}, format="json")
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert answer.json()["hand"] == hand_of(game, alice) and len(hand_of(game, alice)) == 9  # 2 damage: 9
    assert [b["damage"] for b in game.state["bots"] if b["id"] == seat.bot_id] == [2]
    assert client_for(alice).post(url, {"turn": 1}, format="json").status_code == 409  # once a turn
    event = game.events.get(kind="recompiled")
    # The public event tells nothing that draws the new hand: no hand, no seed.
    assert "hand" not in event.data and "seed" not in event.data and event.data["seat"] == seat.number
    # The derived seed replays the recompile exactly (games/kinds/roboracer/replay.py applies it before the turn).
    seed = roboracer_services.recompile_seed(game, 1, event.data["bot"])
    again, hand = engine.rulesets.get("classic").redeal(given, event.data["bot"], seed)
    assert list(hand) == hand_of(game, alice) and engine.state_to_dict(again) == game.state
    for user in (alice, bob):
        assert play(game, user, legal_program(game, user)).status_code in (200, 201)
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    assert game.turns.get(number=1).state_before == engine.state_to_dict(again)
