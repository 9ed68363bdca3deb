"""The board and the animator against the hand-written demo turn (static/demo/all-events.json), which
uses every element type of the course format and every engine event type: what is drawn, what each event
shows, where the bots end, the turn log, and the pause / step / skip controls."""

import json
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DEMO = json.loads((Path(__file__).resolve().parents[2] / "static" / "demo" / "all-events.json").read_text())
TURN1 = DEMO["turns"][0]

RECORD_FX = """() => {
  window.fxSeen = new Set();
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.classList) n.classList.forEach((c) => window.fxSeen.add(c));
  }).observe(document.querySelector('.layer-fx'), { childList: true });
}"""

# The page's next task has run, and a frame has been drawn since.
NEXT_TASK_AND_FRAME = "() => new Promise(done => setTimeout(() => requestAnimationFrame(() => done()), 0))"

BOTS_JS = """els => els.map(e => ({id: e.dataset.bot, at: [+e.dataset.x, +e.dataset.y], dir: e.dataset.dir,
  lives: +e.dataset.lives, damage: +e.dataset.damage, virtual: e.classList.contains('virtual')}))
  .sort((a, b) => a.id.localeCompare(b.id))"""


def shown_bots(page):
    return page.eval_on_selector_all("g.bot", BOTS_JS)


def expected_bots(bots):
    return sorted(
        ({key: bot[key] for key in ("id", "at", "dir", "lives", "damage", "virtual")} for bot in bots if bot["at"]),
        key=lambda bot: bot["id"],
    )


def checkpoint_colours(page):
    return page.eval_on_selector_all(
        "svg.rr-board g.el-checkpoint",
        "els => Object.fromEntries(els.map(e => [e.dataset.checkpoint, "
        "['cp-mine', 'cp-leader', 'cp-other'].find(c => e.classList.contains(c))]))",
    )


def open_demo(new_page, base, query="", viewport=None):
    page, console = new_page("demo", viewport)
    page.goto(f"{base}/games/demo/{query}")
    page.wait_for_selector("g.bot")
    return page, console


def test_every_element_is_drawn_and_every_control_is_labelled(live_stack, new_page):
    page, console = open_demo(new_page, live_stack.base_url)
    counts = page.evaluate(
        "types => Object.fromEntries(types.map(t => [t, document.querySelectorAll('.rr-board .el-' + t).length]))",
        ["start", "checkpoint", "pit", "wall", "repair", "belt", "pusher", "turntable", "crusher", "laser", "beam", "unknown"],
    )
    assert counts == {"start": 4, "checkpoint": 3, "pit": 2, "wall": 4, "repair": 2, "belt": 6, "pusher": 1,
                      "turntable": 2, "crusher": 1, "laser": 3, "beam": 3, "unknown": 1}
    # Beam lines stop at the first wall: the laser on (0,1)'s west side fires east up to the wall east of (3,1).
    first_beam = page.eval_on_selector(
        "svg.rr-board .el-beam polyline",
        "l => { const xs = l.getAttribute('points').split(' ').map(p => +p.split(',')[0]); return [xs[0], xs.at(-1)]; }",
    )
    assert first_beam == [0, 400]
    assert page.eval_on_selector_all("svg.rr-board .el-laser .laser-count", "els => els.map(e => e.textContent)") == ["1", "2", "3"]
    assert page.eval_on_selector_all("svg.rr-board .el-crusher .crusher-dot.on", "els => els.length") == 2  # phases 2 and 4
    titles = " | ".join(page.eval_on_selector_all(".rr-board title", "els => els.map(e => e.textContent)"))
    for text in ("Belt moving south, speed 5, turning bots that come in from the west at (7,0)",
                 "Turntable, turns left (counter-clockwise) at (2,2)", "Repair site, repairs 2 at (2,0)",
                 "Pusher on the west side, pushes east in phases 1·3·5 at (2,4)", 'Unknown element "hologram" at (3,6)'):
        assert text in titles
    # The viewer (alice, next check point 1) sees her next one green; bob leads with 4 (none): no black.
    assert checkpoint_colours(page) == {"1": "cp-mine", "2": "cp-other", "3": "cp-other"}
    # The legend explains each element type the course uses, drawn by the same functions.
    page.click(".rr-legend summary")
    legend = page.locator(".rr-legend li")
    assert legend.count() == 11  # ten element types (floor needs none) and the robot
    assert "Belt: arrows show the way" in page.inner_text(".rr-legend")
    assert page.locator(".rr-legend li .el-belt").count() == 1
    assert shown_bots(page) == expected_bots(DEMO["game"]["bots"])
    unlabelled = page.eval_on_selector_all(
        "#game-root button, #game-root select",
        "els => els.filter(e => !(e.getAttribute('aria-label') || e.textContent.trim() || e.labels?.length)).length",
    )
    assert unlabelled == 0
    label = page.get_attribute("svg.rr-board", "aria-label")
    assert label.startswith("Demo Works, 8 by 8 course. alice at (1,6) facing N, damage 0, 2 lives (virtual);")
    assert "bob at (5,1) facing W, damage 2, 3 lives;" in label
    page.focus("#replay-turn")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "replay-button"
    assert console.errors == []


def test_replaying_the_demo_turn_shows_every_event_and_ends_where_the_turn_says(live_stack, new_page):
    page, console = open_demo(new_page, live_stack.base_url, "?speed=4")
    page.evaluate(RECORD_FX)
    page.select_option("#replay-turn", "1")
    page.click("#replay-button")
    page.wait_for_selector("#phase-status:has-text('Replay of turn 1 · Phase 1')")
    assert page.inner_text("#game-status") == "Replaying turn 1"
    page.wait_for_selector("#game-root[data-replayed='1']", timeout=30_000)
    seen = set(page.evaluate("[...window.fxSeen]"))
    for kind in ("fx-shot", "shot-bot", "shot-laser", "fx-flash", "flash-damage", "flash-repair", "flash-info",
                 "fx-burst", "fx-bubble", "bubble-chip", "bubble-damage", "bubble-good", "bubble-info"):
        assert kind in seen, kind
    assert page.get_attribute(".mark-radiation", "transform") == "translate(200 400)"
    assert shown_bots(page) == expected_bots(TURN1["after"]["bots"])
    # After turn 1 bob (the leading opponent) needs check point 3: black; alice's next (1) is green.
    assert checkpoint_colours(page) == {"1": "cp-mine", "2": "cp-other", "3": "cp-leader"}
    # The turn log: a row per phase and bot, movement runs joined, damage and check points.
    phases = page.eval_on_selector_all("#turn-log tbody tr", "els => [...new Set(els.map(e => e.dataset.phase))]")
    assert phases == ["1", "2", "3", "4", "5"]
    bob_phase3 = page.inner_text("#turn-log tr[data-phase='3'][data-bot='2']")
    assert "Move 3" in bob_phase3 and "moved 3 squares north" in bob_phase3
    log = page.inner_text("#turn-log")
    assert "hits nothing" not in log and "(6,6)→(2,6)" not in log  # misses show on the board only
    for text in ("shoots bob", "wall laser hits bob (2 beams)", "+10 crusher (now 10)", "fell into a pit", "✓ 2", "reboot refused (radiation)",
                 "rebooting (plays 0)", "carried 2 squares north by a belt", "pushed 1 square east by a pusher", "turned real",
                 "back on the board facing north, virtual", "−1 repaired (now 2)"):
        assert text in log, text
    assert not re.search(r"\(-?\d+, ?-?\d+\)|→", log), log  # no coordinates: the board has no labels for them
    assert page.inner_text(".rr-log-footer") == "Next turn's priority: bob, alice, carol, dave"
    seats = page.eval_on_selector_all(".rr-seat .seat-name", "els => els.map(e => e.textContent)")
    assert seats == ["bob", "alice (you)", "carol", "dave"]
    assert "damage 2" in page.inner_text(".rr-seat[data-seat='2']")
    assert page.inner_text("#phase-status") == ""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "demo-after-turn-1.png"), full_page=True)
    assert console.errors == []


def test_pause_step_resume_and_skip(live_stack, new_page):
    page, console = open_demo(new_page, live_stack.base_url, "?speed=1")
    page.click("#pause-animation")
    assert page.get_attribute("#pause-animation", "aria-pressed") == "true"
    page.select_option("#replay-turn", "1")
    page.click("#replay-button")
    page.wait_for_selector("#game-root[data-animating='1']")
    # Unpaused, the first step would show by the page's next task: the animator waits one task (a timer set
    # as the turn began to play, before this one) and then names the step. Then a frame for good measure.
    page.evaluate(NEXT_TASK_AND_FRAME)
    assert page.inner_text("#phase-status") == ""  # paused before the first step
    assert shown_bots(page) == expected_bots(TURN1["before"]["bots"])
    page.click("#step-animation")
    page.wait_for_selector("#phase-status:has-text('Phase 1 · start')")
    page.click("#step-animation")
    page.wait_for_selector("#phase-status:has-text('Phase 1 · chips')")
    page.wait_for_selector("g.bot[data-bot='1'][data-y='5']")  # alice's move 2, stopped by the wall
    page.wait_for_selector("g.bot[data-bot='3'][data-dir='N']")  # the step's last move: bot 3 turned left
    # What is left of the step (bot 4's chip "0", held 0.6 x 300 ms at speed 1: frontend/src/animate.ts) has
    # played by the end of this window; unpaused, the belts would start right after it. The page shows no sign
    # of waiting at its pause, so this is a window, as short as that chip's hold allows with a margin.
    page.wait_for_timeout(600)
    # Still paused after the chips step: bob has not ridden the belt yet.
    assert page.get_attribute("g.bot[data-bot='2']", "data-y") == "6"
    assert page.inner_text("#phase-status") == "Replay of turn 1 · Phase 1 · chips"
    page.click("#pause-animation")  # resume
    page.wait_for_selector("#phase-status:has-text('Phase 1 · belts')")
    page.click("#skip-animation")
    page.wait_for_selector("#game-root[data-replayed='1']", timeout=5_000)
    assert shown_bots(page) == expected_bots(TURN1["after"]["bots"])
    assert console.errors == []


def test_frozen_registers_are_shown_locked_and_kept_in_the_program(live_stack, new_page):
    """Offline programming demo: 6 damage, a hand of three, registers 4 and 5 frozen (R and 2)."""
    page, console = open_demo(new_page, live_stack.base_url, "?demo=programming")
    page.wait_for_selector("button.chip >> nth=2")
    locked = page.locator(".register.locked")
    assert locked.count() == 2
    assert [locked.nth(i).get_attribute("data-chip") for i in range(2)] == ["R", "2"]
    assert page.locator(".register.locked button").evaluate_all("bs => bs.every(b => b.disabled)")
    assert "(locked)" in page.get_attribute(".register[data-register='3'] button", "aria-label")
    hand = page.eval_on_selector_all("button.chip", "els => els.map(e => e.dataset.chip)")
    assert hand == ["3", "L", "B"]
    # Dragging onto a locked register does nothing; a drop on a free one places the chip there.
    page.locator("button.chip[data-index='0']").drag_to(page.locator(".register[data-register='4']"))
    assert page.eval_on_selector_all(".register", "els => els.map(e => e.dataset.chip || '-')") == ["-", "-", "-", "R", "2"]
    page.locator("button.chip[data-index='0']").drag_to(page.locator(".register[data-register='2']"))
    page.locator("#rr-program-title").click()
    page.keyboard.press("2")
    page.keyboard.press("3")
    assert page.eval_on_selector_all(".register", "els => els.map(e => e.dataset.chip || '-')") == ["L", "B", "3", "R", "2"]
    page.keyboard.press("Backspace")  # clears the last register that is not frozen
    assert page.eval_on_selector_all(".register", "els => els.map(e => e.dataset.chip || '-')") == ["L", "B", "-", "R", "2"]
    assert page.is_disabled("#submit-program")
    page.keyboard.press("1")
    page.click("#reboot-toggle")
    page.locator("#rr-program-title").click()
    page.keyboard.press("Enter")
    page.wait_for_selector("#game-root[data-demo-program]")
    sent = json.loads(page.get_attribute("#game-root", "data-demo-program"))
    assert sent == {"turn": 3, "chips": ["L", "B", "3", "R", "2"], "reboot": True}
    assert page.inner_text(".rr-program-message") == "Program submitted — waiting for others"
    # Dave reboots this turn; the radiation square of the snapshot is marked.
    assert "rebooting this turn" in page.inner_text(".rr-seat[data-seat='4']")
    assert page.get_attribute(".mark-radiation", "transform") == "translate(200 400)"
    assert console.errors == []


def test_the_replay_box_shows_the_turn_being_replayed(live_stack, new_page):
    """A replay not started from the box (here ?play=1; in a game "Replay the game") still shows its turn there,
    not the last turn; the demo game is over after turn 2, so turn 2's log has no "next turn's priority"."""
    page, console = open_demo(new_page, live_stack.base_url, "?speed=4&play=1")
    page.wait_for_selector("#game-status:has-text('Replaying turn 1')")
    assert page.input_value("#replay-turn") == "1"
    page.wait_for_selector("#game-root[data-replayed='1']", timeout=30_000)
    assert page.inner_text(".rr-log-footer").startswith("Next turn's priority: ")
    page.select_option("#replay-turn", "2")
    page.click("#replay-button")
    page.wait_for_selector("#game-root[data-replayed='2']", timeout=30_000)
    assert page.inner_text(".rr-log-footer") == ""
    assert console.errors == []
