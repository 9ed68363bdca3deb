"""classic's upgrades on screen (issue 37 item 10): the switched upgrades have controls in the program panel that
send the `upgrade_use` the API accepts, and each of them changes the resolved turn; the wrench/hammer squares are
drawn apart from the plain repair squares and name the upgrade on offer.

A classic game on Classic Conveyor Court. Before turn 1 is programmed, alice's robot stands on the gear at (5,5)
facing north with 5 damage and four switched upgrades (Gyroscopic Stabilizer, Pressor Beam, Circuit Breaker,
Flywheel); bob's robot stands two squares ahead of her at (5,2). Both are dealt known hands. On her phone alice
clicks L R L R L into her registers, switches the stabilizer and the pressor beam on, sets the breaker to 3 and
keeps a "1" with the flywheel, and submits. The turn record holds exactly what the controls said, and playing the
same stored inputs again with any one of the four left out gives another result (the engine decides; the test
only compares). The board after the turn shows bob's desktop the offers on both upgrade squares."""

import pytest

import engine
from games.models import Game, Hand
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_modules import api
from tests.e2e.test_play_three_turns import sign_up, wait_for_turn

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
SWITCHED = ["gyroscopic_stabilizer", "pressor_beam", "circuit_breaker", "flywheel"]
ALICE_HAND = ["L", "R", "L", "R", "L", "1", "2", "3"]  # 5 damage: a hand of 8 (000)
BOB_HAND = ["L", "R", "L", "R", "L", "1", "2", "3", "B", "U"]
PROGRAM = ["L", "R", "L", "R", "L"]


def set_the_scene(game_id):
    game = Game.objects.get(pk=game_id)
    seats = {seat.user.username: seat for seat in game.seats.select_related("user")}
    alice_bot, bob_bot = seats["alice"].bot_id, seats["bob"].bot_id
    state = dict(game.state)
    bots = []
    for bot in state["bots"]:
        if bot["id"] == alice_bot:
            bot = {**bot, "at": [5, 5], "dir": "N", "damage": 5, "upgrades": SWITCHED}
        elif bot["id"] == bob_bot:
            bot = {**bot, "at": [5, 2], "dir": "N"}
        bots.append(bot)
    game.state = {**state, "bots": bots}
    engine.state_from_dict(game.state, engine.parse_course(game.course_data))  # still a legal state
    game.save(update_fields=["state"])
    Hand.objects.filter(seat=seats["alice"], turn=1).update(chips=ALICE_HAND)
    Hand.objects.filter(seat=seats["bob"], turn=1).update(chips=BOB_HAND)
    return game, alice_bot, bob_bot


def replayed(game, record, actions):
    before = engine.state_from_dict(record.state_before, engine.parse_course(game.course_data))
    state, events = engine.resolve_turn(before, record.programs, record.seed, reboots=record.reboots,
                                        actions=actions, hands=record.hands or None)
    return engine.state_to_dict(state), events


def test_each_switched_upgrade_is_sent_from_the_panel_and_changes_the_turn(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, _ = new_page("alice", PHONE)
    bob, _ = new_page("bob", DESKTOP)
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)
    created = api(alice, "POST", "/api/games/", {"course": "classic-conveyor-court", "ruleset": "classic",
                                                 "max_seats": 2, "rated": False})
    assert created["status"] == 201, created
    game_id = created["body"]["id"]
    assert api(bob, "POST", f"/api/games/{game_id}/join/")["status"] == 200
    game, alice_bot, bob_bot = set_the_scene(game_id)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    bob.goto(f"{base}/games/{game_id}/?speed=0")
    bob.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    bob.wait_for_function("() => document.querySelectorAll('svg.rr-board g.el-upgrade').length === 2")
    squares = bob.eval_on_selector_all("svg.rr-board g.el-upgrade", "els => els.map(e => e.dataset.at)")
    assert sorted(squares) == ["10,1", "5,1"], squares  # the course's two wrench/hammer squares
    assert bob.locator("svg.rr-board g.el-repair:not(.el-upgrade)").count() == 2  # the plain wrenches
    fills = bob.evaluate("""() => [
        getComputedStyle(document.querySelector('svg.rr-board g.el-upgrade .upgrade-base')).fill,
        getComputedStyle(document.querySelector('svg.rr-board g.el-repair:not(.el-upgrade) .repair-base')).fill]""")
    assert fills[0] != fills[1], fills  # drawn apart, not as another repair disc

    alice.goto(f"{base}/games/{game_id}/?speed=0")
    alice.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    alice.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(ALICE_HAND))
    alice.wait_for_selector("#upgrade-switches:not([hidden])")
    assert bob.is_hidden("#upgrade-switches")  # bob's robot has no upgrades
    for index in range(5):
        alice.click(f"button.chip[data-index='{index}']")
    # The flywheel offers only what the registers leave in the hand.
    options = alice.eval_on_selector_all("#use-flywheel option", "els => els.map(e => e.value)")
    assert options == ["", "1", "2", "3"], options
    alice.check("#use-gyroscopic_stabilizer")
    alice.select_option("#use-beam", "pressor_beam")
    alice.fill("#use-circuit_breaker", "3")
    alice.select_option("#use-flywheel", "1")
    alice.locator("#upgrade-switches").scroll_into_view_if_needed()
    alice.screenshot(path=str(ARTIFACTS / "classic-upgrade-switches-phone.png"))
    alice.click("#submit-program")
    alice.wait_for_selector(".rr-program-message:has-text('Program submitted')")
    answer = api(bob, "POST", f"/api/games/{game_id}/program/", {"turn": 1, "chips": PROGRAM})
    assert answer["status"] in (200, 201), answer

    record = wait_for_turn(game, 1)
    sent = {"gyroscopic_stabilizer": True, "pressor_beam": True, "circuit_breaker": 3, "flywheel": "1"}
    assert record.actions == {alice_bot: {"upgrade_use": sent}}, record.actions
    assert record.programs[alice_bot] == PROGRAM
    after, events = replayed(game, record, record.actions)
    assert after == record.state_after and events == record.events  # the stored turn is the engine's
    for name in SWITCHED:
        without = {key: value for key, value in sent.items() if key != name}
        other = replayed(game, record, {alice_bot: {"upgrade_use": without}})
        assert other != (record.state_after, record.events), f"leaving out {name} changed nothing"

    # The offers were drawn in turn 1: both squares name theirs, as the state says, in words.
    game.refresh_from_db()
    offers = {f"{sq[0]},{sq[1]}": name for sq, name, _ in game.state["board"]["offers"]}
    assert sorted(offers) == ["10,1", "5,1"], offers
    bob.wait_for_selector("#game-status:has-text('Turn 2 — programming')")
    bob.wait_for_function(
        "() => [...document.querySelectorAll('svg.rr-board g.el-upgrade')].every(g => g.dataset.offer)")
    shown = dict(bob.eval_on_selector_all(
        "svg.rr-board g.el-upgrade",
        "els => els.map(e => [e.dataset.at, [...e.querySelectorAll('text.upgrade-offer tspan')]"
        ".map(t => t.textContent).filter(Boolean).join(' ')])"))
    words = {at: " ".join(part.capitalize() for part in name.split("_")) for at, name in offers.items()}
    assert shown == words, (shown, words)
    titles = bob.eval_on_selector_all("svg.rr-board g.el-upgrade title", "els => els.map(e => e.textContent)")
    assert all("Upgrade square: repairs 2 and gives the" in t for t in titles), titles
    bob.locator("svg.rr-board g.el-upgrade >> nth=0").scroll_into_view_if_needed()
    bob.screenshot(path=str(ARTIFACTS / "classic-upgrade-squares-desktop.png"))
    alice.wait_for_selector("#game-status:has-text('Turn 2 — programming')")
    alice.screenshot(path=str(ARTIFACTS / "classic-upgrade-squares-phone.png"))
