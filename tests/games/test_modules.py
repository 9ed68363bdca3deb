"""Bot modules on the site (issue 15): creating games with modules, the snapshot's module fields, programs
carrying the module action (and every refusal changing nothing), 003's economy example through the API, and a
whole game with modules replayed from its stored inputs."""

import copy

import pytest

import engine
from games.kinds.roboracer.replay import replay
from games.models import Game, GameEvent, Hand, Program, Turn
from games.services import lobby as lobby_services
from games.services import moves, rematch, timeouts, turns
from roboracer.economy.models import ModulePrice, PricePoint
from tests.games.factories import legal_program
from tests.games.modules_helpers import FULL_HAND, client_for, module_game, set_bot, set_hand

pytestmark = pytest.mark.django_db


PLAYERS = ("alice", "bob", "sam")  # the `players` fixture (tests/conftest.py)


# --- creating ----------------------------------------------------------------------------------------


def test_create_through_the_api_with_a_subset_all_or_none(courses, players):
    alice = players[0]
    client = client_for(alice)
    subset = client.post("/api/games/", {"course": "tiny-yard", "max_seats": 2, "modules": ["turbo", "shield"]},
                         format="json")
    assert subset.status_code == 201, subset.json()
    assert subset.json()["modules"] == ["shield", "turbo"] and subset.json()["prices"] == {}
    assert Game.objects.get(pk=subset.json()["id"]).modules == ["shield", "turbo"]
    every = client.post("/api/games/", {"course": "tiny-yard", "modules": "all"}, format="json").json()
    assert every["modules"] == sorted(engine.MODULE_NAMES) and len(every["modules"]) == 17
    plain = client.post("/api/games/", {"course": "tiny-yard"}, format="json").json()
    assert plain["modules"] == []
    lobby = client.get("/api/games/").json()
    assert {g["id"]: g["modules"] for g in lobby["mine"]}[subset.json()["id"]] == ["shield", "turbo"]


@pytest.mark.parametrize("modules, fragment", [
    (["turbo", "laser_cannon"], "unknown module 'laser_cannon'"),
    (["turbo", "turbo"], "'turbo' is listed twice"),
    ("some", 'a list of module names, or "all"'),
    ([1], "1 is not a module name"),
    ({"turbo": True}, 'a list of module names, or "all"'),
])
def test_bad_module_lists_are_a_400_naming_the_problem(courses, players, modules, fragment):
    before = Game.objects.count()
    answer = client_for(players[0]).post("/api/games/", {"course": "tiny-yard", "modules": modules}, format="json")
    assert answer.status_code == 400 and fragment in answer.json()["detail"]
    assert Game.objects.count() == before


def test_the_lobby_form_creates_a_game_with_modules(courses, players):
    from django.test import Client

    client = Client()
    client.force_login(players[0])
    form = {"course": courses["tiny-yard"].pk, "max_seats": 2, "lives": 3, "visibility": "public",
            "timer_preset": "realtime", "timeout_policy": "wait", "modules": ["repair", "turbo"]}
    assert client.post("/", form).status_code == 302
    assert Game.objects.latest("id").modules == ["repair", "turbo"]
    assert client.post("/", {**form, "all_modules": "on"}).status_code == 302
    assert Game.objects.latest("id").modules == sorted(engine.MODULE_NAMES)
    page = client.get("/").content.decode()
    assert "Modules: Repair, Turbo" in page and "All 17 modules" in page


def test_play_again_keeps_the_modules(courses, players):
    alice, bob, _ = players
    game = module_game(users=[alice, bob], course=courses["tiny-yard"], modules=["scanner", "shield"])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    new, created = rematch.play_again(user=alice, game_id=game.pk)
    assert created and new.modules == ["scanner", "shield"]


# --- the snapshot ------------------------------------------------------------------------------------


def test_the_snapshot_shows_modules_prices_batteries_and_my_private_parts(courses, players):
    alice, bob, sam = players
    game = module_game(users=[alice, bob], course=courses["tiny-yard"], modules=["turbo", "shield", "repair"])
    set_bot(game, "1", module={"type": "turbo", "charges": 2}, battery=250, stored_chip="3")
    body = client_for(alice).get(f"/api/games/{game.pk}/").json()
    assert body["modules"] == ["repair", "shield", "turbo"]
    assert body["prices"] == {"repair": 150, "shield": 200, "turbo": 250}
    bots = {bot["id"]: bot for bot in body["bots"]}
    assert bots["1"]["module"] == {"type": "turbo", "charges": 2} and bots["1"]["battery"] == 250
    assert bots["2"]["module"] is None and bots["2"]["battery"] == 500 and bots["2"]["drone_of"] is None
    assert body["me"]["stored_chip"] == "3" and body["me"]["scan"] is None and body["me"]["action"] is None
    assert body["me"]["scan_due"] is False
    for other in (bob, sam):
        seen = client_for(other).get(f"/api/games/{game.pk}/").json()
        assert "stored_chip" not in str(seen["bots"]) and (seen["me"] is None or seen["me"]["stored_chip"] is None)


def test_a_game_without_modules_has_empty_prices(courses, players):
    alice, bob, _ = players
    game = module_game(users=[alice, bob], course=courses["tiny-yard"], modules=[])
    body = client_for(alice).get(f"/api/games/{game.pk}/").json()
    assert body["modules"] == [] and body["prices"] == {}


def test_a_new_game_starts_from_the_book_or_the_site_average(courses, players):
    from roboracer.economy import selectors

    alice, bob, _ = players
    course = courses["tiny-yard"]
    other = courses["bolt-bay"]
    ModulePrice.objects.create(course=course, module="turbo", price=300)
    ModulePrice.objects.create(course=other, module="turbo", price=201)
    # Fewer than MIN_FINISHED_GAMES finished games on the course: the all-course average, rounded half up.
    game = module_game(users=[alice, bob], course=course, modules=["turbo", "shield"])
    assert game.state["prices"] == {"shield": 200, "turbo": 251}  # (300 + 201) / 2 = 250.5
    for _ in range(selectors.MIN_FINISHED_GAMES):
        done = lobby_services.create_game(user=alice, course=course)
        Game.objects.filter(pk=done.pk).update(status=Game.Status.FINISHED)
    game = module_game(users=[alice, bob], course=course, modules=["turbo", "shield"])
    assert game.state["prices"] == {"shield": 200, "turbo": 300}  # now its own book
    started = GameEvent.objects.get(game=game, kind="game_started").data
    assert started["prices"] == {"shield": 200, "turbo": 300} and started["modules"] == ["shield", "turbo"]


# --- 003's economy example, through the API ----------------------------------------------------------


def test_the_economy_example_through_the_api(courses, players):
    """003 "The Economy": Turbo 250, Shield 200, Repair 150; 600 battery and Turbo installed; two charges of
    Turbo cost 250 + 254 = 504, and the prices become Turbo 258, Shield 196, Repair 146."""
    alice, bob, sam = players
    course = courses["tiny-yard"]
    for module, price in {"turbo": 250, "shield": 200, "repair": 150}.items():
        ModulePrice.objects.create(course=course, module=module, price=price)
    game = module_game(users=[alice, bob], course=course, modules=["turbo", "shield", "repair"])
    assert game.state["prices"] == {"repair": 150, "shield": 200, "turbo": 250}
    set_bot(game, "1", battery=600, module={"type": "turbo", "charges": 0})
    a = client_for(alice)
    program = legal_program(game, alice)
    sent = a.post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": program, "action": {"charge": 2}},
                  format="json")
    assert sent.status_code == 200, sent.json()
    assert sent.json()["action"] == {"charge": 2}
    assert a.get(f"/api/games/{game.pk}/").json()["me"]["action"] == {"charge": 2}
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=legal_program(game, bob))
    turns.resolve_turn(game_id=game.pk, turn=1)
    body = a.get(f"/api/games/{game.pk}/").json()
    assert body["prices"] == {"repair": 146, "shield": 196, "turbo": 258}
    me = next(bot for bot in body["bots"] if bot["id"] == "1")
    assert me["module"] == {"type": "turbo", "charges": 2}
    assert me["battery"] == 600 - 504 + 50  # 003 "Battery": +50 at the end of a race turn
    charged = [e for e in Turn.objects.get(game=game, number=1).events if e["type"] == "module_charged"]
    assert charged == [{**charged[0], "module": "turbo", "charges": 2, "price_paid": 504}]
    # The course's book moved the same way, and records the turn.
    book = dict(ModulePrice.objects.filter(course=course, module__in=["turbo", "shield", "repair"])
                .values_list("module", "price"))
    assert book == {"turbo": 258, "shield": 196, "repair": 146}
    point = PricePoint.objects.get(course=course)
    assert point.game_id == game.pk and point.turn == 1
    assert point.purchases == [{"module": "turbo", "charges": 2, "modules": ["repair", "shield", "turbo"]}]
    prices = client_for(sam).get(f"/api/courses/{course.slug}/prices/").json()
    assert prices["prices"]["turbo"] == 258 and prices["prices"]["blaster"] == 200
    assert prices["history"][-1]["game"] == game.pk and prices["history"][-1]["prices"]["shield"] == 196
    # The turn record and its event carry the action (public once played), never the hands.
    record = client_for(sam).get(f"/api/games/{game.pk}/turns/1/").json()
    assert record["actions"] == {"1": {"charge": 2}} and "hands" not in record
    resolved = GameEvent.objects.get(game=game, kind="turn_resolved").data
    assert resolved["actions"] == {"1": {"charge": 2}} and "hands" not in resolved


# --- every refusal changes nothing -------------------------------------------------------------------


REFUSALS = [
    # (bot fields, prices, action, program, fragment)
    ({}, None, "install", None, "an action is exactly one of"),
    ({}, None, {"install": "turbo", "charge": 1}, None, "an action is exactly one of"),
    ({}, None, {"fly": 1}, None, "an action is exactly one of"),
    ({}, None, [], None, "an action is exactly one of"),
    ({}, None, {"install": "laser_cannon"}, None, "unknown module 'laser_cannon'"),
    ({}, None, {"install": "blaster"}, None, "not available in this game"),
    ({}, None, {"install": {"deep": [[[1]]]}}, None, "unknown module"),
    ({}, None, {"charge": 1}, None, "no module is installed"),
    ({}, None, {"activate": {}}, None, "no module is installed"),
    ({"module": {"type": "turbo", "charges": 0}}, None, {"charge": 0}, None, "from 1 to 5"),
    ({"module": {"type": "turbo", "charges": 0}}, None, {"charge": 6}, None, "from 1 to 5"),
    ({"module": {"type": "turbo", "charges": 0}}, None, {"charge": "2"}, None, "from 1 to 5"),
    ({"module": {"type": "turbo", "charges": 0}}, None, {"charge": True}, None, "from 1 to 5"),
    ({"module": {"type": "turbo", "charges": 97}}, None, {"charge": 3}, None, "at most 99"),
    ({"module": {"type": "turbo", "charges": 0}, "battery": 503}, None, {"charge": 2}, None, "not enough battery"),
    ({"module": {"type": "turbo", "charges": 0}}, None, {"activate": {"phases": [3]}}, None, "no charge left"),
    ({"module": {"type": "blaster", "charges": 1}}, None, {"charge": 1}, None, "not available in this game"),
    ({"module": {"type": "turbo", "charges": 1}}, None, {"activate": {"phases": [6]}}, None, "phase"),
    ({"module": {"type": "turbo", "charges": 1}}, None, {"activate": {"phases": [1, 2]}}, None, "phase"),
    ({"module": {"type": "turbo", "charges": 1}}, None, {"activate": {}}, None, "phase"),
    ({"module": {"type": "turbo", "charges": 1}}, None, {"activate": {"phases": [2]}},
     ["1", "2", "3", "B", "1"], "spare move chip"),
    ({"module": {"type": "shield", "charges": 1}}, None, {"activate": {"phases": [2]}}, None, "phases"),
    ({"module": {"type": "turret", "charges": 1}}, None, {"activate": {"aim": "L"}}, None, "front"),
    ({"module": {"type": "prioritizer", "charges": 1}}, None, {"activate": {"order": "middle"}}, None, "order"),
    ({"module": {"type": "storage", "charges": 1}}, None, {"activate": {}}, ["1", "2", "3", "L", "R"], "no unused"),
    ({"module": {"type": "scanner", "charges": 1}, "scan_due": True}, None, {"activate": {}}, None,
     "no charge left"),
    ({}, None, None, ["S", "1", "2", "3", "L"], "has none stored"),
    ({"stored_chip": "2"}, None, None, ["S", "S", "1", "2", "3"], "at most once"),
    ({"rebooting": True}, None, {"charge": 1}, ["0", "0", "0", "0", "0"], "rebooting"),
]


@pytest.mark.parametrize("bot, prices, action, program, fragment", REFUSALS)
def test_every_illegal_action_is_a_400_that_changes_nothing(courses, players, bot, prices, action, program,
                                                            fragment):
    alice, bob, _ = players
    modules = ["turbo", "shield", "repair", "turret", "prioritizer", "storage", "scanner"]
    game = module_game(users=[alice, bob], course=courses["tiny-yard"], modules=modules)
    set_bot(game, "1", **bot)
    set_hand(game, alice, ["1", "2", "3", "L", "R", "U", "B", "1", "2"][: 9 if program != ["1", "2", "3", "L", "R"]
                                                                          else 5])
    if program == ["1", "2", "3", "B", "1"]:
        set_hand(game, alice, ["1", "2", "3", "B", "1", "L", "R", "U", "L"])
    first = ["1", "2", "3", "L", "R"]
    client = client_for(alice)
    if not bot.get("rebooting"):
        ok = client.post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": first}, format="json")
        assert ok.status_code == 200, ok.json()
    game.refresh_from_db()
    state_before, version = copy.deepcopy(game.state), game.version
    programs_before = list(Program.objects.filter(seat__game=game).values("seat_id", "chips", "action", "reboot"))
    book_before = list(ModulePrice.objects.values_list("course_id", "module", "price"))
    body = {"turn": 1, "chips": program or first}
    if action is not None:
        body["action"] = action
    answer = client.post(f"/api/games/{game.pk}/program/", body, format="json")
    assert answer.status_code == 400, answer.json()
    assert fragment in answer.json()["detail"], answer.json()
    game.refresh_from_db()
    assert game.state == state_before and game.version == version
    assert list(Program.objects.filter(seat__game=game).values("seat_id", "chips", "action", "reboot")) == \
        programs_before
    assert list(ModulePrice.objects.values_list("course_id", "module", "price")) == book_before


def test_an_action_in_a_game_without_modules_is_refused(courses, players):
    alice, bob, _ = players
    game = module_game(users=[alice, bob], course=courses["tiny-yard"], modules=[])
    answer = client_for(alice).post(f"/api/games/{game.pk}/program/",
                                    {"turn": 1, "chips": legal_program(game, alice), "action": {"charge": 1}},
                                    format="json")
    assert answer.status_code == 400 and "no modules are available" in answer.json()["detail"]
    assert not Program.objects.filter(seat__game=game).exists()


def test_the_action_changes_with_the_program_until_execution(courses, players):
    alice, bob, _ = players
    game = module_game(users=[alice, bob], course=courses["tiny-yard"], modules=["turbo", "shield"])
    client = client_for(alice)
    chips = legal_program(game, alice)
    for action in ({"install": "turbo"}, {"install": "shield"}, None):
        answer = client.post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": chips, "action": action},
                             format="json")
        assert answer.status_code == 200 and answer.json()["action"] == action
        assert Program.objects.get(seat__game=game, seat__user=alice).action == action
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=chips, action={"install": "shield"})
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=legal_program(game, bob))
    late = client.post(f"/api/games/{game.pk}/program/", {"turn": 1, "chips": chips, "action": None}, format="json")
    assert late.status_code == 409  # executing: nothing changes any more
    assert Program.objects.get(seat__game=game, seat__user=alice).action == {"install": "shield"}


def test_the_stored_chip_is_played_with_s(courses, players):
    alice, bob, _ = players
    game = module_game(users=[alice, bob], course=courses["tiny-yard"], modules=["storage"])
    set_bot(game, "1", stored_chip="U")
    set_hand(game, alice, FULL_HAND)
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=["S", "L", "R", "U", "1"])
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=legal_program(game, bob))
    turns.resolve_turn(game_id=game.pk, turn=1)
    events = Turn.objects.get(game=game, number=1).events
    assert any(e["type"] == "stored_chip_played" and e["bot"] == "1" for e in events)
    assert [e["chip"] for e in events if e["type"] == "chip" and e["bot"] == "1"][0] == "U"
    game.refresh_from_db()
    assert next(b for b in game.state["bots"] if b["id"] == "1")["stored_chip"] is None


def test_a_random_program_for_a_timed_out_seat_has_no_action(courses, players):
    alice, bob, _ = players
    game = module_game(users=[alice, bob], course=courses["tiny-yard"], modules=["turbo"])
    Game.objects.filter(pk=game.pk).update(timeout_policy=Game.TimeoutPolicy.RANDOM)
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=legal_program(game, alice),
                            action={"install": "turbo"})
    from datetime import timedelta

    from django.utils import timezone

    seat = game.seats.get(user=bob)
    type(seat).objects.filter(pk=seat.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeouts.enforce_deadline(game_id=game.pk) == "random"
    assert Program.objects.get(seat=seat, turn=1).action is None
    assert turns.resolve_turn(game_id=game.pk, turn=1) is not None
    assert Turn.objects.get(game=game, number=1).actions == {"1": {"install": "turbo"}}


# --- a whole game with modules, replayed ---------------------------------------------------------------


def random_action(rng, bot, hand, chips, state):
    """A random legal action for the bot (or None), checked with engine.check_program."""
    choices = [{"install": name} for name in state.prices]
    choices += [{"charge": n} for n in range(1, 6)]
    choices += [{"activate": {}}, {"activate": {"phases": [rng.randint(1, 5)]}},
                {"activate": {"phases": [p := rng.randint(1, 4), p + 1]}},
                {"activate": {"aim": rng.choice("LRB"), "front": rng.random() < 0.5}},
                {"activate": {"order": rng.choice(["first", "last"])}}]
    rng.shuffle(choices)
    for action in choices:
        if engine.check_program(bot, hand, chips, action, state=state) is None:
            return action
    return None


def test_a_whole_game_with_modules_replays_from_its_stored_inputs(courses, players):
    import random

    alice, bob, _ = players
    course = courses["tiny-yard"]
    game = module_game(users=[alice, bob], course=course, modules="all", lives=9)
    # Played through the services from the start as dealt: a replay starts from the stored inputs alone.
    rng = random.Random(15)
    actions_taken = 0
    for _ in range(30):
        game.refresh_from_db()
        if game.status != Game.Status.PROGRAMMING:
            break
        state = engine.state_from_dict(game.state, engine.parse_course(game.course_data))
        for user in (alice, bob):
            seat = game.seats.get(user=user)
            if Program.objects.filter(seat=seat, turn=game.turn).exists() or not state.bot(seat.bot_id).in_game:
                continue
            hand = Hand.objects.get(seat=seat, turn=game.turn).chips
            bot = state.bot(seat.bot_id)
            chips = list(engine.random_program(bot, hand, rng.randrange(1 << 30)))
            action = random_action(rng, bot, hand, chips, state)
            actions_taken += action is not None
            moves.submit_program(user=user, game_id=game.pk, turn=game.turn, chips=chips, action=action)
        game.refresh_from_db()
        turns.resolve_turn(game_id=game.pk, turn=game.turn)
    assert actions_taken >= 10
    assert Turn.objects.filter(game=game).exclude(actions={}).exists()
    book = list(ModulePrice.objects.order_by("course_id", "module").values_list("course_id", "module", "price"))
    points = PricePoint.objects.count()
    assert points > 0  # charges were bought, and the book moved while the game was played
    game.refresh_from_db()
    final, differences = replay(game=game)
    assert differences == [] and final["prices"] == game.state["prices"]
    assert list(ModulePrice.objects.order_by("course_id", "module").values_list("course_id", "module", "price")) \
        == book
    assert PricePoint.objects.count() == points
    # A changed stored action is found by the replay: the stored inputs are what the game was played from.
    first = Turn.objects.filter(game=game).exclude(actions={}).order_by("number").first()
    Turn.objects.filter(pk=first.pk).update(actions={})
    assert replay(game=game)[1] != []
