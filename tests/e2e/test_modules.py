"""Bot modules in the browser (issue 15).

- The offline demo turn (static/demo/modules.json, an engine run made by frontend/scripts/modules_demo.py):
  the Module menu's choices and prices, the stored chip, the status panel's "Turbo +2 250", and each module
  effect drawn from its events (turbo step, blaster shot and recoil, shield, drone, bomb blast), the turn
  log's module column.
- The real stack: two players install, charge and activate Turbo and Shield over three turns; the battery,
  charges and prices shown match GET /api/games/<id>/; a Scanner's owner sees the other's chips, which the
  other's page and API never show.
"""

import json
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DEMO = json.loads((Path(__file__).resolve().parents[2] / "static" / "demo" / "modules.json").read_text())

RECORD_FX = """() => {
  window.fxSeen = new Set();
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.classList) n.classList.forEach((c) => window.fxSeen.add(c));
  }).observe(document.querySelector('.layer-fx'), { childList: true });
  window.bombsSeen = new Set();
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n.classList && n.classList.contains('bomb')) window.bombsSeen.add(n.dataset.bot);
  }).observe(document.querySelector('.layer-bots') || document.querySelector('g.bot').parentNode, { childList: true });
}"""


def charge_totals(prices, module, battery):
    """003 "The Economy", computed here independently of the TypeScript: +1..+5 charges priced one after another."""
    out, current, total = [], dict(prices), 0
    for count in range(1, 6):
        total += current[module]
        others = len(current) - 1
        current = {name: price + 2 * others if name == module else max(10, price - 2) for name, price in current.items()}
        out.append((count, total, total <= battery))
    return out


def module_stat(page, seat):
    return page.eval_on_selector(
        f".rr-seat[data-seat='{seat}'] .stat-module",
        "e => ({text: e.textContent, module: e.dataset.module, charges: +e.dataset.charges, battery: +e.dataset.battery})",
    )


def test_demo_menu_panel_and_module_effects(live_stack, new_page):
    page, console = new_page("demo")
    page.goto(f"{live_stack.base_url}/games/demo/?demo=modules&speed=0")
    page.wait_for_selector("g.bot")
    game = DEMO["game"]
    me = next(b for b in game["bots"] if b["id"] == game["me"]["bot"])

    # The status panel: everyone's module, charges and battery as 003 writes it, and the game's prices.
    stat = module_stat(page, 1)
    assert stat["module"] == me["module"]["type"] and stat["charges"] == me["module"]["charges"]
    assert stat["battery"] == me["battery"]
    assert stat["text"] == f"module Turbo +{me['module']['charges']} {me['battery']}"
    prices = page.inner_text("#module-prices")
    for name, price in game["prices"].items():
        label = name.replace("_", " ").title()
        assert f"{label} {price}" in prices, (label, prices)

    # The menu under the program: install shows each price of one charge; charge the totals, the battery decides.
    options = page.eval_on_selector_all(
        "#module-action option", "os => os.map(o => ({value: o.value, label: o.textContent, disabled: o.disabled}))")
    installs = [o for o in options if o["value"].startswith('{"install"')]
    assert len(installs) == len(game["modules"])
    for o in installs:
        name = json.loads(o["value"])["install"]
        assert f"({game['prices'][name]})" in o["label"]
    charges = [o for o in options if o["value"].startswith('{"charge"')]
    expected = charge_totals(game["prices"], "turbo", me["battery"])
    assert [(json.loads(o["value"])["charge"], int(o["label"].split("(")[1].split(")")[0]), not o["disabled"])
            for o in charges] == expected
    phases = [o["label"] for o in options if o["value"].startswith('{"activate"')]
    assert phases == ["Phase 1", "Phase 2", "Phase 3", "Phase 4", "Phase 5"]
    # Activating Turbo says what it needs; the stored chip is a chip of my hand, played as "S".
    page.select_option("#module-action", '{"activate":{"phases":[3]}}')
    assert "Activate Turbo: phase 3" in page.inner_text("#module-help")
    stored = page.locator("button.chip.stored")
    assert stored.get_attribute("data-stored") == game["me"]["stored_chip"]
    stored.click()
    for index in range(4):
        page.click(f"button.chip[data-index='{index}']")
    page.click("#submit-program")
    sent = json.loads(page.get_attribute("#game-root", "data-demo-program"))
    assert sent["chips"][0] == "S" and sent["action"] == {"activate": {"phases": [3]}}
    page.screenshot(path=str(ARTIFACTS / "modules-demo-menu-desktop.png"), full_page=True)

    # The turn: every module effect is drawn from its events.
    page.evaluate(RECORD_FX)
    page.click("#replay-button")
    page.wait_for_selector("#game-root[data-replayed='1']")
    seen = set(page.evaluate("[...window.fxSeen]"))
    for fx in ("fx-shield", "fx-blast", "shot-module-blaster", "fx-bubble"):
        assert fx in seen, (fx, seen)
    assert page.evaluate("[...window.bombsSeen]") == ["5.bomb"]
    # The drone: dee's second robot in dee's colour, marked, where the engine left it; no bomb left.
    after = {b["id"]: b for b in DEMO["turns"][0]["after"]["bots"]}
    drone = page.locator("g.bot.drone[data-bot='4.drone']")
    assert drone.count() == 1
    assert [int(drone.get_attribute("data-x")), int(drone.get_attribute("data-y"))] == after["4.drone"]["at"]
    assert drone.locator(".drone-badge").count() == 1
    colour = page.eval_on_selector("g.bot.drone .bot-shell", "e => e.getAttribute('fill')")
    assert colour == game["seats"][3]["color"]
    assert page.locator("g.bomb").count() == 0
    # The log's module column.
    log = page.inner_text("#turn-log")
    heads = page.eval_on_selector_all("#turn-log thead th", "els => els.filter(e => e.offsetParent).map(e => e.textContent)")
    assert heads == ["Phase", "Robot", "Chip", "Module", "Movement", "Damage", "Check points"]
    assert "activated Turbo, phase 1" in log and "Drone deployed" in log and "Storage: bought 2 charges" in log
    assert "Shield stopped" in log and "Blaster recoil" in log
    page.screenshot(path=str(ARTIFACTS / "modules-demo-turn-desktop.png"), full_page=True)
    assert console.errors == []


def test_demo_on_a_phone(live_stack, new_page):
    page, console = new_page("phone", {"width": 390, "height": 844})
    page.goto(f"{live_stack.base_url}/games/demo/?demo=modules&speed=0")
    page.wait_for_selector("#module-action")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    box = page.locator("#module-action").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.screenshot(path=str(ARTIFACTS / "modules-demo-phone.png"), full_page=True)
    assert console.errors == []
