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
from tests.e2e.test_program_socket import expect_program

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



def shown_prices(page) -> dict:
    """The panel's module prices as shown: its folded table's rows (issue 37, item 9), {name: price}."""
    rows = page.eval_on_selector_all("#module-prices tr", "rs => rs.map(r => [r.cells[0].textContent, r.cells[1].textContent])")
    assert page.eval_on_selector("#module-prices summary", "s => s.textContent").startswith("Module prices (")
    return {name: int(price) for name, price in rows}

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
    prices = shown_prices(page)
    for name, price in game["prices"].items():
        label = name.replace("_", " ").title()
        assert prices[label] == price, (label, prices)

    # The menu under the program: install shows each price of one charge; charge the totals, the battery decides.
    options = page.eval_on_selector_all(
        "#module-action option", "os => os.map(o => ({value: o.value, label: o.textContent, disabled: o.disabled}))")
    installs = [o for o in options if o["value"].startswith('{"install"')]
    assert len(installs) == len(game["modules"])
    for o in installs:
        name = json.loads(o["value"])["install"]
        assert f"(free · a charge {game['prices'][name]})" in o["label"]
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
    page.wait_for_selector("g.bot")
    page.wait_for_selector("#module-action")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    box = page.locator("#module-action").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.screenshot(path=str(ARTIFACTS / "modules-demo-phone.png"), full_page=True)
    assert console.errors == []



def test_how_to_play_modules_section(live_stack, new_page):
    for name, viewport in (("desktop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844})):
        page, console = new_page(name, viewport)
        page.goto(f"{live_stack.base_url}/how-to-play/#modules")
        section = page.locator("#modules")
        text = section.inner_text()
        assert "+3 Charge (558)" in text and "Turbo +2 250" in text
        assert section.locator("dt[id^='module-']").count() == 17
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        section.screenshot(path=str(ARTIFACTS / f"modules-howto-{name}.png"))
        assert console.errors == []

# ---- The live game screen against the API contract (docs/api.md), the server mocked by Playwright ----

MODULES = ["scanner", "shield", "turbo"]
PRICES = {"scanner": 100, "shield": 200, "turbo": 250}


def module_game():
    from tests.e2e.test_game_screen_contract import snapshot

    game = snapshot(modules=MODULES, prices=PRICES)
    for bot in game["bots"]:
        bot.update({"battery": 500, "module": None, "drone_of": None})
    game["bots"][0].update({"battery": 340, "module": {"type": "scanner", "charges": 1}})
    game["bots"][1].update({"battery": 250, "module": {"type": "turbo", "charges": 2}})
    game["me"].update({"action": None, "stored_chip": "3", "scan_due": False, "scan": None})
    return game


class ModuleServer:
    """The contract's scan and program answers on top of the mocked game server."""

    def __init__(self, page, game):
        from tests.e2e.test_game_screen_contract import MockServer

        self.mock = MockServer(page, game)
        self.scans = 0
        page.route("http://rr.test/api/games/1/scan/", self.scan)
        page.route("http://rr.test/api/games/1/program/", self.program)
        self.mock.answer_program = self.program_frame  # the browser sends programs on the game socket

    def program_frame(self, frame):
        """The socket's answer to a program frame: the same refusal as the POST's, with the HTTP status."""
        body = {key: frame.get(key) for key in ("turn", "chips", "reboot", "action")}
        self.mock.posts.append(("program", body))
        if body.get("action") == {"charge": 5}:
            return {"type": "error", "code": "invalid", "status": 400, "id": frame.get("id"),
                    "detail": "charge: 5 charges cost 1290, the battery has 340"}
        return {"type": "program_accepted", "id": frame.get("id"), **body, "reboot": bool(body["reboot"])}

    def scan(self, route):
        self.scans += 1
        body = json.loads(route.request.post_data or "{}")
        self.mock.posts.append(("scan", body))
        route.fulfill(json={"turn": body["turn"], "programs": {"2": ["1", "2", "L", "R", "U"], "3": ["1", "1", "B", "U", "3"]}})

    def program(self, route):
        body = json.loads(route.request.post_data or "{}")
        self.mock.posts.append(("program", body))
        if body.get("action") == {"charge": 5}:
            return route.fulfill(status=400, json={"detail": "charge: 5 charges cost 1290, the battery has 340"})
        route.fulfill(json={"turn": body["turn"], "chips": body["chips"], "reboot": body["reboot"], "action": body.get("action")})


def test_contract_menu_program_action_scan_and_live_prices(new_page):
    from tests.e2e.test_game_screen_contract import BASE, DESKTOP

    page, console = new_page("player", DESKTOP)
    game = module_game()
    server = ModuleServer(page, game)
    page.goto(f"{BASE}/games/1/?speed=0")
    page.wait_for_selector("#module-action")

    # Everyone's module and battery ("Turbo +2 250"), the prices for everyone.
    assert module_stat(page, 2)["text"] == "module Turbo +2 250"
    assert module_stat(page, 3)["text"] == "module none, battery 500"
    assert shown_prices(page) == {"Scanner": 100, "Shield": 200, "Turbo": 250}

    # The Scanner's owner scans during programming: the opponents' chips, sorted; rescanning is free.
    page.click("#scan-button")
    page.wait_for_selector("#scan-result .rr-scan-bot[data-bot='2']")
    assert page.get_attribute("#scan-result .rr-scan-bot[data-bot='2'] .rr-scan-chips", "data-chips") == "1 2 L R U"
    assert page.input_value("#module-action") == '{"activate":{}}'  # scanning is the Scanner's activation
    assert page.inner_text("#scan-button") == "Scan again"
    page.click("#scan-button")
    page.wait_for_function("() => document.querySelectorAll('#scan-result .rr-scan-bot').length === 2")
    assert server.scans == 2

    # A refused action shows the server's detail and sends nothing else.
    page.click("button.chip.stored")  # the stored chip, as "S"
    for index in range(4):
        page.click(f"button.chip[data-index='{index}']")
    page.select_option("#module-action", '{"install":"turbo"}')
    assert "replaces Scanner" in page.inner_text("#module-help")
    # +5 charges of the installed Scanner cost more than the battery: offered, but disabled.
    disabled = page.eval_on_selector_all("#module-action option[disabled]", "os => os.map(o => o.value)")
    assert '{"charge":5}' in disabled and '{"charge":1}' not in disabled
    page.evaluate("""() => { const s = document.querySelector('#module-action');
      const o = [...s.options].find(o => o.value === '{"charge":5}'); o.disabled = false; s.value = o.value;
      s.dispatchEvent(new Event('change')); }""")
    page.click("#submit-program")
    page.wait_for_selector("#program-error:has-text('the battery has 340')")
    page.select_option("#module-action", '{"install":"turbo"}')
    page.click("#submit-program")
    page.wait_for_selector(".rr-program-message:has-text('Program submitted')")
    programs = [body for kind, body in server.mock.posts if kind == "program"]
    assert programs[-1] == {"turn": 2, "chips": ["S", "1", "2", "3", "L"], "reboot": False, "action": {"install": "turbo"}}
    # Changing the action with the program before execution: a resubmission.
    page.select_option("#module-action", '{"charge":2}')
    assert page.inner_text("#submit-program") == "Resubmit program"

    # A turn's module events move the panel's charges, battery and prices as they play; the log has its column.
    events = [
        {"phase": 1, "step": "actions", "type": "module_charged", "bot": "2", "module": "turbo", "charges": 1,
         "price_paid": 250, "prices": {"scanner": 98, "shield": 198, "turbo": 254}},
        {"phase": 1, "step": "actions", "type": "module_activated", "bot": "1", "module": "scanner", "phases": [1, 2, 3, 4, 5]},
        {"phase": 1, "step": "chips", "type": "chip", "bot": "2", "chip": "1"},
    ]
    server.mock.event("turn_resolved", {"turn": 2, "events": events})
    page.wait_for_function("() => document.querySelector('#game-root').dataset.animating === '0' && "
                           "document.querySelector('#turn-log tbody tr')")
    assert shown_prices(page) == {"Scanner": 98, "Shield": 198, "Turbo": 254}
    assert module_stat(page, 2)["text"] == "module Turbo +3 0"
    assert "Turbo: bought 1 charge for 250" in page.inner_text("#turn-log")
    page.screenshot(path=str(ARTIFACTS / "modules-contract-desktop.png"), full_page=True)
    # The browser logs the refused program's 400 itself; nothing else.
    assert [e for e in console.errors if "status of 400" not in e] == []


def test_course_page_prices_and_chart(live_stack, courses, new_page):
    """The course page draws GET /api/courses/<slug>/prices/ (answered here as the contract says)."""
    page, console = new_page("visitor", {"width": 390, "height": 844})
    history = [{"at": f"2026-11-{day:02d}T10:00:00Z", "game": day,
                "prices": {"turbo": 250 + 4 * day, "shield": 200 - 2 * day, "repair": 150 - 2 * day}} for day in range(1, 8)]
    data = {"course": "tiny-yard", "finished_games": 2, "source": "site",
            "prices": {name: 100 for name in DEMO["game"]["modules"]} | history[-1]["prices"],
            "history": history}
    page.route("**/api/courses/*/prices/", lambda route: route.fulfill(json=data))
    page.goto(f"{live_stack.base_url}/courses/tiny-yard/")
    page.wait_for_selector("#course-prices[data-course-prices] [data-loaded='1'], #course-prices [data-prices-body][data-loaded='1']")
    assert "too few for its own prices" in page.inner_text("#course-prices")
    assert page.get_attribute("#course-price-table tr[data-module='turbo']", "data-price") == "278"
    assert "▲ 24" in page.inner_text("#course-price-table tr[data-module='turbo']")
    assert page.locator("#course-price-chart polyline").count() == 3
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#course-prices").screenshot(path=str(ARTIFACTS / "modules-course-prices-phone.png"))
    assert console.errors == []


# ---- The real stack: two players, Turbo and Shield over three turns, then alice's Scanner ----

API_JS = """async ([method, path, body]) => {
  const token = (document.cookie.match(/(?:^|; )csrftoken=([^;]*)/) || [])[1] || "";
  const res = await fetch(path, {method, credentials: "same-origin", headers: {"Content-Type": "application/json",
    "X-CSRFToken": decodeURIComponent(token)}, body: body === null ? undefined : JSON.stringify(body)});
  return {status: res.status, body: await res.json().catch(() => null)};
}"""
MOVES = {"1", "2", "3", "B"}


def scans_in(value):
    """Every non-null `scan` anywhere in a message."""
    if isinstance(value, dict):
        found = [v for k, v in value.items() if k == "scan" and v is not None]
        return found + [s for v in value.values() for s in scans_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in scans_in(v)]
    return []


def api(page, method, path, body=None):
    return page.evaluate(API_JS, [method, path, body])


KNOWN_SEED = 20261128  # test_two_players_turbo_and_shield_then_a_scan's game


def planned_programs(game, actions, *, spare_for=None, accept=None):
    """Per player, the hand indexes to click for this turn, chosen with the engine as the worker will play the
    turn, so that the test knows its outcome (issue 33: with the turn chips first every time, the robots on Tiny
    Yard's bottom row spun and shot each other, and one game in 20 left alice too damaged to keep Turbo's spare
    move chip in turn 3). Of the tried pairs (the turn chips first, then random picks) after which the game is
    still on, `spare_for`'s program leaves a move chip (1 2 3 B) of the hand unplayed and `accept(events)`
    holds, the one leaving the least damage (a destroyed robot counting as 10)."""
    import random

    import engine
    from games.models import Hand

    state = engine.state_from_dict(game.state, engine.parse_course(game.course_data))
    hands = {h.seat.bot_id: h.chips for h in Hand.objects.filter(seat__game=game, turn=game.turn).select_related("seat")}
    seed = engine.derive_seed(game.seed, game.turn, "resolve")
    locked = {bot_id: engine.frozen_registers(state.bot(bot_id), state.ruleset) for bot_id in hands}
    rng = random.Random(game.seed * 100 + game.turn)
    best, best_cost = None, None
    for attempt in range(300):
        clicks, programs = {}, {}
        for bot_id, hand in hands.items():
            free = 5 - len(locked[bot_id])
            turns_first = sorted(range(len(hand)), key=lambda i: (hand[i] in MOVES, i))[:free]
            clicks[bot_id] = turns_first if attempt == 0 else rng.sample(range(len(hand)), free)
            chips = iter(hand[i] for i in clicks[bot_id])
            programs[bot_id] = [locked[bot_id].get(r) or next(chips) for r in range(5)]
        if spare_for and not any(c in MOVES for i, c in enumerate(hands[spare_for]) if i not in clicks[spare_for]):
            continue
        try:
            after, events = engine.resolve_turn(state, programs, seed, actions=actions, hands=hands)
        except engine.InputError:
            continue  # the server would refuse this program or action too
        if after.finished or (accept is not None and not accept(events)):
            continue
        cost = sum(10 if after.bot(bot_id).at is None else after.bot(bot_id).damage for bot_id in hands)
        if best_cost is None or cost < best_cost:
            best, best_cost = clicks, cost
    assert best is not None, "no tried program pair gives this turn the outcome the test needs"
    return best


def ui_matches_api(page, game_id):
    """The panel's module, charges and battery of every robot, and the prices, are the API's."""
    snap = api(page, "GET", f"/api/games/{game_id}/")["body"]
    seat_of = {seat["bot"]: seat["number"] for seat in snap["seats"]}
    for bot in snap["bots"]:
        if bot.get("drone_of") or bot["id"] not in seat_of:
            continue
        stat = module_stat(page, seat_of[bot["id"]])
        module = bot["module"]
        assert stat["module"] == (module["type"] if module else ""), (bot, stat)
        assert stat["charges"] == (module["charges"] if module else 0), (bot, stat)
        assert stat["battery"] == bot["battery"], (bot, stat)
    assert json.loads(page.get_attribute("#module-prices", "data-prices")) == snap["prices"]
    shown = shown_prices(page)
    for name, price in snap["prices"].items():
        assert shown[name.replace('_', ' ').title()] == price
    return snap


def play_turn(page, action_value, clicks):
    if action_value:
        page.select_option("#module-action", action_value)
    for index in clicks:
        page.click(f"button.chip[data-index='{index}']")
    chips = page.eval_on_selector_all(".register", "els => els.map(e => e.dataset.chip)")  # frozen ones too
    with expect_program(page) as answer:
        page.click("#submit-program")  # the last program in starts the turn at once
    assert answer.value.status == 200, answer.value.text()
    return chips


def test_two_players_turbo_and_shield_then_a_scan(live_stack, courses, new_page):
    from games.models import Game
    from tests.e2e.test_play_three_turns import sign_up, wait_for_turn

    base = live_stack.base_url
    alice, alice_console = new_page("alice", {"width": 1280, "height": 900})
    bob, bob_console = new_page("bob", {"width": 390, "height": 844})
    bob_frames = []
    bob.on("websocket", lambda ws: ws.on("framereceived", lambda payload: bob_frames.append(str(payload))))
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)
    created = api(alice, "POST", "/api/games/", {"course": "tiny-yard", "max_seats": 2, "lives": 9,
                                                 "modules": ["turbo", "shield", "scanner"]})
    assert created["status"] == 201, created
    game_id = created["body"]["id"]
    assert created["body"]["modules"] == ["scanner", "shield", "turbo"]
    # A known seed, set before bob's join starts the game: the deals and turns are then the same every run, and
    # planned_programs finds its programs in them (with a random secret seed, one game in a few hundred dealt
    # hands in which no tried pair gave turn 3 its outcome, and the test failed by chance).
    Game.objects.filter(pk=game_id).update(seed=KNOWN_SEED)
    assert api(bob, "POST", f"/api/games/{game_id}/join/")["status"] in (200, 201)
    game = Game.objects.get(pk=game_id)
    for page in (alice, bob):
        page.goto(f"{base}/games/{game_id}/?speed=0")

    def start_of(turn):
        for page in (alice, bob):
            page.wait_for_selector(f"#game-status:has-text('Turn {turn} — programming')")
            page.wait_for_selector("#module-action")

    # Turn 1: install. The menu shows each module's current price, the API's.
    start_of(1)
    snap = ui_matches_api(alice, game_id)
    labels = alice.eval_on_selector_all("#module-action option", "os => os.map(o => o.textContent)")
    for name, price in snap["prices"].items():
        assert any(label.startswith(f"Install {name.title()} (free · a charge {price})") for label in labels), labels
    game.refresh_from_db()
    clicks = planned_programs(game, {"1": {"install": "turbo"}, "2": {"install": "shield"}})
    play_turn(alice, '{"install":"turbo"}', clicks["1"])
    play_turn(bob, '{"install":"shield"}', clicks["2"])
    wait_for_turn(game, 1)

    # Turn 2: charge. Each total is the economy's; the battery pays it.
    start_of(2)
    snap = ui_matches_api(alice, game_id)
    ui_matches_api(bob, game_id)
    me = next(b for b in snap["bots"] if b["id"] == snap["me"]["bot"])
    assert me["module"] == {"type": "turbo", "charges": 0}
    options = alice.eval_on_selector_all(
        "#module-action option", "os => os.filter(o => o.value.startsWith('{\"charge\"')).map(o => [o.textContent, o.disabled])")
    for (count, total, allowed), (label, disabled) in zip(charge_totals(snap["prices"], "turbo", me["battery"]), options, strict=True):
        assert label.startswith(f"+{count} Charge ({total})") and disabled is not allowed
    game.refresh_from_db()
    clicks = planned_programs(game, {"1": {"charge": 2}, "2": {"charge": 1}})
    play_turn(alice, '{"charge":2}', clicks["1"])
    play_turn(bob, '{"charge":1}', clicks["2"])
    record = wait_for_turn(game, 2)
    charged = {e["bot"]: e for e in record.events if e["type"] == "module_charged"}
    assert set(charged) == {"1", "2"} or len(charged) == 2

    # Turn 3: activate. Battery, charges and prices on both screens are the API's.
    start_of(3)
    snap = ui_matches_api(alice, game_id)
    ui_matches_api(bob, game_id)
    mods = {b["id"]: b["module"] for b in snap["bots"]}
    assert sorted(m["type"] for m in mods.values() if m) == ["shield", "turbo"]
    assert sorted(m["charges"] for m in mods.values() if m) == [1, 2]
    game.refresh_from_db()
    clicks = planned_programs(
        game, {"1": {"activate": {"phases": [2]}}, "2": {"activate": {}}}, spare_for="1",  # Turbo's spare move
        accept=lambda events: sorted(e["module"] for e in events if e["type"] == "module_activated") == ["shield", "turbo"],
    )
    play_turn(alice, '{"activate":{"phases":[2]}}', clicks["1"])
    play_turn(bob, '{"activate":{}}', clicks["2"])
    record = wait_for_turn(game, 3)
    activated = sorted(e["module"] for e in record.events if e["type"] == "module_activated")
    assert activated == ["shield", "turbo"]
    alice.wait_for_selector("#turn-log .col-module:has-text('activated Turbo')")
    alice.screenshot(path=str(ARTIFACTS / "modules-real-alice-desktop.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "modules-real-bob-phone.png"), full_page=True)

    # Turns 4-6: alice installs and charges a Scanner, then scans bob's submitted program.
    start_of(4)
    ui_matches_api(alice, game_id)
    game.refresh_from_db()
    clicks = planned_programs(game, {"1": {"install": "scanner"}})
    play_turn(alice, '{"install":"scanner"}', clicks["1"])
    play_turn(bob, "", clicks["2"])
    wait_for_turn(game, 4)
    start_of(5)
    game.refresh_from_db()
    clicks = planned_programs(game, {"1": {"charge": 1}})
    play_turn(alice, '{"charge":1}', clicks["1"])
    play_turn(bob, "", clicks["2"])
    wait_for_turn(game, 5)
    start_of(6)
    ui_matches_api(alice, game_id)
    assert bob.locator("#scan-button").is_hidden()
    game.refresh_from_db()
    clicks = planned_programs(game, None)
    bob_chips = play_turn(bob, "", clicks["2"])
    alice.click("#scan-button")
    alice.wait_for_selector("#scan-result .rr-scan-bot")
    shown = alice.get_attribute("#scan-result .rr-scan-chips", "data-chips").split()
    assert shown == sorted(bob_chips)  # the chips, not their order
    alice_snap = api(alice, "GET", f"/api/games/{game_id}/")["body"]
    assert alice_snap["me"]["scan"]["programs"] == {alice_snap["seats"][1]["bot"]: sorted(bob_chips)}
    # Bob's page, API and socket never show alice's scan.
    bob_snap = api(bob, "GET", f"/api/games/{game_id}/")["body"]
    assert bob_snap["me"]["scan"] is None
    from tests.e2e.test_play_three_turns import keys_in

    assert "programs" not in keys_in(bob_snap)  # no scan result anywhere in it
    assert bob.locator("#scan-result .rr-scan-bot").count() == 0
    for frame in bob_frames:  # no scan result in any message bob's socket got
        message = json.loads(frame)
        assert not scans_in(message), message
    alice.screenshot(path=str(ARTIFACTS / "modules-real-scan-desktop.png"), full_page=True)
    play_turn(alice, "", clicks["1"])
    wait_for_turn(game, 6)
    assert alice_console.errors == [] and bob_console.errors == []
