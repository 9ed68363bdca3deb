"""A classic (000) game in two browsers on the real stack (issue 19): alice creates it in the lobby form (rules
"Classic", the course Classic Conveyor Court, two seats), bob joins on his phone, and both play three turns by
clicking five of their ten plain instructions. The screen names the ruleset, shows damage out of 22 and a
"Power down next round" toggle (no reboot). Alice powers down with her turn 2 program: in turn 3 she has no
hand, her screen says her robot is powered down, the robots panel says so to both, and the server enters her
program (five "0"). After every turn the robots stand where the engine puts them."""

import pytest

from games.models import Game
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import (
    engine_result,
    registers,
    wait_for_bots,
    wait_for_turn,
)
from tests.e2e.test_program_socket import expect_program
from tests.e2e.test_rulesets_browser import two_players_in_a_game
from tests.e2e.test_rulesets_fused_browser import damage_of, panel_stats, plan_programs

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SLUG = "classic-conveyor-court"
PLAIN = {"1", "2", "3", "B", "L", "R", "U"}


def damage_shown_as_in_state(page, game):
    damage = {bot["id"]: bot["damage"] for bot in game.state["bots"]}
    seats = {seat.number: seat.bot_id for seat in game.seats.all()}
    shown = panel_stats(page, "stat-damage")
    assert shown == {n: f"damage {damage[bot]}/22" for n, bot in seats.items()}, shown
    assert page.locator(".stat-hp").count() == 0


def test_two_players_play_three_turns_of_classic_with_a_power_down(live_stack, courses, new_page):
    alice, alice_console, bob, bob_console, game_url, game = two_players_in_a_game(
        live_stack, courses, new_page, ruleset="classic", slug=SLUG
    )  # alice watches the turns play on a desktop, bob on a phone

    for page in (alice, bob):
        page.wait_for_selector("#game-mode:has-text('Classic')")
        assert "power down" in page.inner_text("#game-mode")

    for turn in (1, 2, 3):
        game.refresh_from_db()
        for page in (alice, bob):
            page.wait_for_selector(f"#game-status:has-text('Turn {turn} — programming')")
        powering_down = turn == 2
        hands, clicks, programs, locked = plan_programs(
            game,
            actions={"1": {"power_down": True}} if powering_down else None,
            # Destruction cancels a power down: alice's robot must come through turn 2.
            accept=(lambda after: after.bot("1").power_down_next) if powering_down else None,
        )
        players = ((alice, "1"), (bob, "2"))
        if turn == 3:
            # Alice sits this turn out: no hand, the server entered her program, both see "powered down".
            assert hands["1"] == [] and "1" not in clicks and programs["1"] == ["0"] * 5
            alice.wait_for_selector(".rr-program-placeholder:has-text('powered down')")
            assert alice.locator("button.chip:visible").count() == 0 and alice.is_hidden("#submit-program")
            for page in (alice, bob):
                page.wait_for_selector(".rr-seat[data-seat='1'] .stat-notes:has-text('powered down this turn')")
            alice.screenshot(path=str(ARTIFACTS / "rulesets-classic-desktop-powered-down.png"))
            players = ((bob, "2"),)
        for page, bot in players:
            hand = hands[bot]
            page.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(hand))
            assert set(hand) <= PLAIN and "@" not in "".join(hand), hand
            assert len(hand) == 10 - damage_of(game, bot) // 2, hand
            shown = page.eval_on_selector_all("button.chip", "els => els.map(e => e.dataset.chip)")
            assert shown == hand
            damage_shown_as_in_state(page, game)
            assert page.is_hidden("label.rr-reboot")  # classic has no reboot, it has power down
            assert page.is_visible("label.rr-power-down")
            assert not page.is_checked("#power-down-toggle")
            assert set(dict(page.eval_on_selector_all(
                ".register.locked", "els => els.map(e => [+e.dataset.register, e.textContent])"))) == set(locked[bot])
            for index in clicks[bot]:
                page.click(f"button.chip[data-index='{index}']")
            assert registers(page) == programs[bot]
            if powering_down and bot == "1":
                page.check("#power-down-toggle")
                assert "sits the next turn out" in page.inner_text("#rr-power-down-help")
            if turn == 1:
                size = "desktop" if bot == "1" else "phone"
                page.screenshot(path=str(ARTIFACTS / f"rulesets-classic-{size}-programming.png"))
                page.screenshot(path=str(ARTIFACTS / f"rulesets-classic-{size}-programming-full.png"), full_page=True)
            with expect_program(page) as answer:
                page.click("#submit-program")
            assert answer.value.status == 200, answer.value.text()
            sent = answer.value.request.post_data_json
            if powering_down and bot == "1":
                assert sent["action"] == {"power_down": True}, sent
                page.wait_for_selector(".rr-seat[data-seat='1'] .stat-notes:has-text('power down next turn requested')")
            else:
                assert not (sent.get("action") or {}).get("power_down"), sent

        record = wait_for_turn(game, turn)
        assert record.programs == programs
        if powering_down:
            assert record.actions == {"1": {"power_down": True}}
        expected = engine_result(game, record)
        game.refresh_from_db()
        for page in (alice, bob):
            wait_for_bots(page, expected)
            page.wait_for_selector(f"#game-status:has-text('Turn {turn + 1}')")
            page.wait_for_selector("#game-root[data-animating='0']")
            log = page.inner_text("#turn-log")
            assert "Robots act in this order:" in log, log
            heads = page.eval_on_selector_all("#turn-log thead th", "els => els.map(e => e.textContent)")
            assert heads[2] == "Instruction" and heads[5] == "Damage", heads
            if turn == 3:
                assert "powered down" in log, log
        if turn == 2:
            bob.screenshot(path=str(ARTIFACTS / "rulesets-classic-phone-after-turn-2.png"), full_page=True)

    game.refresh_from_db()
    for page, bot in ((alice, "1"), (bob, "2")):  # alice is back with a full hand (her damage repaired)
        page.wait_for_selector("#game-status:has-text('Turn 4 — programming')")
        size = 10 - damage_of(game, bot) // 2
        page.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=size)
        damage_shown_as_in_state(page, game)
    assert game.turn == 4 and game.status == Game.Status.PROGRAMMING

    alice.screenshot(path=str(ARTIFACTS / "rulesets-classic-desktop-after-three-turns.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "rulesets-classic-phone-after-three-turns.png"), full_page=True)
    alice.set_viewport_size(PHONE)
    alice.screenshot(path=str(ARTIFACTS / "rulesets-classic-phone-log.png"), full_page=True)
    for page in (alice, bob):
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert alice_console.errors + bob_console.errors == []
