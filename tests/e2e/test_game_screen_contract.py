"""The game screen against the site API contract (docs/api.md), in Chromium, with the server mocked:
Playwright answers the page's HTTP requests and both WebSockets (/ws/games/<id>/, /ws/notifications/)
itself, so every case the contract allows can be produced on demand (a clock far off the browser's,
an expired seat, a 429, an ejection with resubmission) and checked without waiting for real time.
The real stack is exercised by test_site_features.py."""

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.helpers import wait_until

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]
BASE = "http://rr.test"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
EVIL = "<img src=x onerror=alert(1)>"

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Game 1 · RoboRacer</title>
<link rel="icon" href="data:,"></head><body>
<header class="site-header"><span class="who">Signed in as <strong>alice</strong></span></header>
<main class="wide"><h1>Game 1</h1>
<div id="game-root" data-game-id="1" data-api-url="/api/games/1/" data-ws-url="/ws/games/1/"
  data-notifications-url="/ws/notifications/"></div>
<script type="module" src="/static/dist/game.js"></script></main></body></html>"""


def iso(t):
    return t.isoformat()


def snapshot(*, me=True, server_time=None, version=5, **changes):
    """A started 8-seat game on Cogwheel Crossing (16x16) as the contract describes it."""
    demo = json.loads((ROOT / "static" / "demo" / "eight-bots.json").read_text())["game"]
    now = server_time or datetime.now(UTC)
    seats = []
    for seat in demo["seats"]:
        number = seat["number"]
        seats.append({
            **seat, "display_name": seat["user"].title(), "vacation": None, "ejected": False,
            "move_left": 100.0 if number == 1 else 60.0, "game_left": 3 * 3600.0, "clock_running": number in (1, 2),
            "expired": False, "ready": number > 2,
        })
    seats[1]["vacation"] = {"from": (now - timedelta(days=1)).date().isoformat(),
                            "until": (now + timedelta(days=6)).date().isoformat()}
    game = {
        **demo, "id": 1, "version": version, "status": "programming", "turn": 2, "visibility": "public", "invite_url": None,
        "timers": {"preset": "custom", "move": 120, "game": 3 * 3600, "policy": "wait"},
        "server_time": iso(now), "seats": seats, "can_leave": True, "can_cancel": False, "can_chat": me,
        "chat": [
            {"id": 1, "seat": None, "user": None, "display_name": None, "text": "Game started.", "at": iso(now), "system": True},
            {"id": 2, "seat": 2, "user": "bo", "display_name": "Bo", "text": EVIL, "at": iso(now), "system": False},
            {"id": 3, "seat": 1, "user": "ada", "display_name": "Ada", "text": "good luck", "at": iso(now), "system": False},
        ],
        "me": {"seat": 1, "bot": "1", "hand": ["1", "2", "3", "L", "R", "U", "B", "1", "2"], "program": None,
               "reboot": False, "frozen": [], "archived": False} if me else None,
    }
    game.update(changes)
    return game


class MockServer:
    """Answers the game's HTTP API and both sockets; records what the page sent."""

    def __init__(self, page, game):
        self.page = page
        self.game = game
        self.posts = []
        self.sent = []
        self.game_ws = None
        self.notify_ws = None
        self.chat_id = 1000
        self.older_chat = []
        page.route(f"{BASE}/**", self.http)
        page.route_web_socket(re.compile(r".*/ws/games/1/$"), self.game_socket)
        page.route_web_socket(re.compile(r".*/ws/notifications/$"), self.notify_socket)

    def http(self, route):
        url = route.request.url
        path = url[len(BASE):].split("?")[0]
        if path == "/static/dist/game.js":
            return route.fulfill(path=str(ROOT / "static" / "dist" / "game.js"), content_type="text/javascript")
        if path == "/":
            return route.fulfill(body="<!doctype html><title>Lobby</title><h1>Lobby</h1>", content_type="text/html")
        if path.startswith("/games/"):
            return route.fulfill(body=PAGE, content_type="text/html")
        if path == "/api/games/1/":
            return route.fulfill(json=self.game)
        if path == "/api/games/1/chat/" and route.request.method == "GET":
            before = int(url.split("before=")[1])
            older = [m for m in self.older_chat if m["id"] < before][-100:]
            return route.fulfill(json={"messages": older})
        if route.request.method == "POST":
            body = json.loads(route.request.post_data or "{}")
            self.posts.append((path, body))
            if path == "/api/games/1/chat/":
                text = body.get("text", "")
                if text == "spam":
                    return route.fulfill(status=429, json={"detail": "Slow down: at most 5 messages in 10 seconds."})
                if text == "!archive":
                    return route.fulfill(status=200, json={"command": "archive", "archived": True})
                if text == "!eject":
                    return route.fulfill(status=200, json={"command": "eject", "ejected": []})
                self.chat_id += 1
                message = {"id": self.chat_id, "seat": 1, "user": "ada", "display_name": "Ada",
                           "text": text.removeprefix("@all "), "at": iso(datetime.now(UTC)), "system": False}
                self.game["chat"].append(message)
                return route.fulfill(status=201, json={"message": message})
            return route.fulfill(status=200, json={})
        return route.fulfill(status=404, json={"detail": "not found"})

    def game_socket(self, ws):
        self.game_ws = ws

        def on_message(message):
            frame = json.loads(message)
            self.sent.append(frame)
            if frame.get("type") == "sync":
                ws.send(json.dumps({"type": "snapshot", "version": self.game["version"], "game": self.game}))
            elif frame.get("type") == "program":  # as the server answers one (docs/api.md)
                ws.send(json.dumps(self.answer_program(frame)))

        ws.on_message(on_message)
        ws.send(json.dumps({"type": "snapshot", "version": self.game["version"], "game": self.game}))

    def answer_program(self, frame):
        """The answer to a program frame: accepted (a test's own server may refuse some)."""
        return {"type": "program_accepted", "id": frame.get("id"), "turn": frame["turn"], "chips": frame["chips"],
                "reboot": frame.get("reboot", False), "action": frame.get("action")}

    def notify_socket(self, ws):
        self.notify_ws = ws

    def event(self, kind, data):
        message = data.get("message", data)
        if kind == "chat" and all(m["id"] != message["id"] for m in self.game["chat"]):
            self.game["chat"].append(message)
        self.game["version"] += 1
        self.game_ws.send(json.dumps({"type": "event", "version": self.game["version"], "kind": kind, "data": data}))


def open_game(new_page, game, viewport=DESKTOP, name="player"):
    page, console = new_page(name, viewport)
    server = MockServer(page, game)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{BASE}/games/1/?speed=0")
    page.wait_for_selector("#game-status:has-text('Turn 2')")
    page.wait_for_function("() => !!window.roboracerNotices")
    return page, console, server


def wait_for_sync(page, server, since):
    """The page asked for a snapshot after message number `since` (the mock server hears the page's messages
    while a Playwright call runs: the poll waits with the page)."""
    wait_until(lambda: {"type": "sync"} in server.sent[since:], f"a sync after {server.sent[:since]}", timeout=3,
               interval=0.05, pause=lambda seconds: page.wait_for_timeout(seconds * 1000))


def clock_seconds(page, seat):
    text = page.inner_text(f".seat-clock[data-seat='{seat}']")
    m = re.search(r"move (\d+):(\d\d)", text)
    return int(m.group(1)) * 60 + int(m.group(2))


def test_chat_clocks_controls_and_notices(new_page):
    # The server's clock is an hour ahead of the browser's: the countdown must not care.
    game = snapshot(server_time=datetime.now(UTC) + timedelta(hours=1))
    page, console, server = open_game(new_page, game)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    # ---- chat: history from the snapshot, markup shown as text, own and system lines marked
    log = page.locator("#chat-log")
    assert log.get_attribute("role") == "log" and log.get_attribute("aria-live") == "polite"
    assert log.locator("li").count() == 3
    assert log.locator("li.system").inner_text().endswith("Game started.")
    assert log.locator("li[data-id='2'] .chat-text").inner_text() == EVIL
    assert log.locator("img").count() == 0
    assert "own" in log.locator("li[data-id='3']").get_attribute("class")
    assert dialogs == []  # nothing ran the markup (its onerror would open an alert)

    # Enter sends; the answer shows at once; the same message as an event is not shown twice.
    page.fill("#chat-input", "@all hello there")
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-log li[data-id='1001']")
    assert server.posts[-1] == ("/api/games/1/chat/", {"text": "@all hello there"})
    assert page.input_value("#chat-input") == ""
    assert page.evaluate("document.activeElement.id") == "chat-input"
    server.event("chat", {"id": 1001, "seat": 1, "user": "ada", "display_name": "Ada", "text": "hello there",
                          "at": iso(datetime.now(UTC)), "system": False})
    # (the payload is the message; a {"message": ...} wrapper is read too)
    server.event("chat", {"message": {"id": 1002, "seat": 2, "user": "bo", "display_name": "Bo", "text": "hi Ada",
                                      "at": iso(datetime.now(UTC)), "system": False}})
    page.wait_for_selector("#chat-log li[data-id='1002']")
    assert log.locator("li[data-id='1001']").count() == 1
    assert "own" not in log.locator("li[data-id='1002']").get_attribute("class")
    # Errors inline: rate limited, too long (not even sent).
    page.fill("#chat-input", "spam")
    page.click("#chat-send")
    page.wait_for_selector("#chat-error:has-text('Slow down')")
    posts = len(server.posts)
    page.fill("#chat-input", "x" * 501)
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-error:has-text('Too long: 501 characters')")
    assert len(server.posts) == posts
    page.fill("#chat-input", "!archive")
    page.press("#chat-input", "Enter")
    page.wait_for_selector("#chat-info:has-text('Archived')")
    # Typing digits in the chat does not pick chips.
    page.fill("#chat-input", "")
    page.type("#chat-input", "123")
    assert page.locator(".register.filled").count() == 0

    # ---- clocks: counting down from the snapshot, whatever the browser's clock says
    first = clock_seconds(page, 1)
    assert 97 <= first <= 100, first
    page.wait_for_timeout(2100)  # a sampling window: how far the clock counts down in it (1 to 3 s)
    assert first - 3 <= clock_seconds(page, 1) <= first - 1
    assert "game 3h 0m" in page.inner_text(".seat-clock[data-seat='1']")
    assert page.get_attribute(".seat-clock[data-seat='1']", "role") == "timer"
    assert "running" in page.get_attribute(".seat-clock[data-seat='1']", "class")
    assert "running" not in page.get_attribute(".seat-clock[data-seat='3']", "class")
    assert page.inner_text("#game-timers") == "Custom timers: 2 min a move, 3 h game time · out of game time: the others may !eject"
    # Display names and the vacation note.
    assert page.inner_text("li.rr-seat[data-seat='1'] .seat-name") == "Ada (you)"
    assert page.inner_text("li.rr-seat[data-seat='2'] .seat-vacation").startswith("on vacation until ")
    # A clocks event: seat 2's game time ran out, seat 1 is on game time.
    server.event("clocks", {"server_time": iso(datetime.now(UTC) + timedelta(hours=1)), "seats": [
        {"number": 1, "move_left": 0, "game_left": 65.0, "clock_running": True, "expired": False},
        {"number": 2, "move_left": 0, "game_left": 0, "clock_running": False, "expired": True},
    ]})
    page.wait_for_selector(".seat-clock[data-seat='2'].expired:has-text('expired')")
    assert re.fullmatch(r"game 1:0[0-5]", page.inner_text(".seat-clock[data-seat='1']"))
    server.game["server_time"] = iso(datetime.now(UTC) + timedelta(hours=1))  # what a fresh snapshot says
    server.game["seats"][0].update(move_left=0, game_left=65.0)
    server.game["seats"][1].update(move_left=0, game_left=0, clock_running=False, expired=True)
    sent = len(server.sent)
    server.event("timer_expired", {"seats": [2]})
    page.wait_for_selector("#game-notice:has-text('Bo has run out of game time. Any player may now send !eject.')")
    wait_for_sync(page, server, sent)

    # ---- notices: another game's "your move" shows, this game's does not
    title = page.title()
    server.notify_ws.send(json.dumps({"type": "your_turn", "game": 1, "turn": 3, "course": "Cogwheel Crossing", "deadline": None}))
    server.notify_ws.send(json.dumps({"type": "your_turn", "game": 5, "turn": 4, "course": "Tiny Yard",
                                      "deadline": iso(datetime.now(UTC) + timedelta(hours=5, minutes=13))}))
    notice = page.locator(".rr-notice[data-game='5']")
    notice.wait_for()
    assert page.locator(".rr-notice").count() == 1
    assert notice.locator("a").get_attribute("href") == "/games/5/"
    assert re.match(r"Your move in game 5 \(Tiny Yard\), turn 4 · 5h 1[23]m left", notice.text_content())
    assert page.title() == f"(1) {title}"
    page.screenshot(path=str(ARTIFACTS / "contract-game-desktop-chat.png"), full_page=True)
    notice.locator("button").click()
    assert page.title() == title and page.locator(".rr-notice").count() == 0

    # ---- an ejection with resubmission: a sync, the ejected seat greyed, programs cleared
    page.click("button.chip[data-index='0']")
    for i in range(1, 5):
        page.click(f"button.chip[data-index='{i}']")
    page.click("#submit-program")
    page.wait_for_selector(".rr-program-message:has-text('Program submitted')")
    server.game["me"]["program"] = None  # what the server does on resubmit
    server.game["seats"][1].update(ejected=True, clock_running=False)
    server.game["chat"].append({"id": 103, "seat": None, "user": None, "display_name": None,
                                "text": "Bo was ejected: game time ran out.", "at": iso(datetime.now(UTC)), "system": True})
    sent = len(server.sent)
    server.event("seats_ejected", {"seats": [2], "by": "ada", "reason": "game time ran out", "resubmit": True})
    page.wait_for_selector("li.rr-seat.ejected[data-seat='2']")
    wait_for_sync(page, server, sent)
    assert page.inner_text("#game-notice") == ("Bo forfeits: out of game time, ejected by Ada. "
                                               "Every program was cleared: submit yours again.")
    page.wait_for_selector(".rr-program-message:has-text('submit yours again')")
    assert page.inner_text("#submit-program") == "Submit program"
    assert page.locator(".seat-clock[data-seat='2']").count() == 0
    assert page.locator("#chat-log li[data-id='103'].system").count() == 1

    # ---- forfeit: asks first (the safe answer focused), Escape backs out, yes posts
    page.click("#leave-game")
    assert page.evaluate("document.activeElement.id") == "confirm-no"
    page.keyboard.press("Escape")
    assert page.locator(".rr-confirm:not(.rr-start-confirm)").is_hidden()
    assert page.evaluate("document.activeElement.id") == "leave-game"
    page.click("#leave-game")
    sent = len(server.sent)
    page.click("#confirm-yes")
    page.wait_for_function("() => !document.querySelector('#confirm-yes') || document.querySelector('.rr-confirm:not(.rr-start-confirm)').hidden")
    assert ("/api/games/1/leave/", {}) in server.posts
    wait_for_sync(page, server, sent)  # forfeiting a race: stay and watch
    # Chromium reports every 4xx answer on the console; the 429 was asked for above.
    assert [e for e in console.errors if "status of 429" not in e] == []


def test_private_game_invite_and_cancel(new_page):
    game = snapshot(status="lobby", turn=0, visibility="private", invite_url="/games/1/invite/abc123/",
                    can_cancel=True, can_leave=True, last_turn=None)
    page, console = new_page("creator", DESKTOP)
    server = MockServer(page, game)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{BASE}/games/1/")
    page.wait_for_selector("#game-status:has-text('Lobby')")
    assert page.input_value("#invite-url") == f"{BASE}/games/1/invite/abc123/"
    page.click("#copy-invite")
    # http://rr.test is not a secure context, so no navigator.clipboard: the fallback selects the link
    # and copies with execCommand (or asks the player to press Ctrl+C).
    page.wait_for_selector(".rr-copy-status:not(:empty)")
    assert page.evaluate("getSelection().toString() || document.activeElement.value.slice(document.activeElement.selectionStart, document.activeElement.selectionEnd)") in ("", f"{BASE}/games/1/invite/abc123/")
    assert page.inner_text("#leave-game") == "Leave game"
    assert page.locator(".seat-clock").count() == 0  # no clocks before the start
    page.click("#cancel-game")
    assert "Cancel this game for everyone" in page.inner_text(".rr-confirm:not(.rr-start-confirm)")
    page.click("#confirm-yes")
    page.wait_for_url(f"{BASE}/")  # back to the lobby
    assert ("/api/games/1/cancel/", {}) in server.posts
    assert console.errors == []


def test_spectator_reads_chat_without_input_and_phone_zoom(new_page):
    game = snapshot(me=False, can_leave=False)
    page, console, server = open_game(new_page, game, PHONE, "spectator")
    page.wait_for_selector("#chat-log li[data-id='3']")
    assert page.locator("#chat-input").is_hidden() and page.locator("#chat-send").is_hidden()
    assert page.locator(".chat-readonly").is_visible()
    assert page.locator("button.chip").count() == 0
    assert "own" not in page.get_attribute("#chat-log li[data-id='3']", "class")
    assert page.locator("#leave-game").is_hidden()

    # A 16x16 course on a phone: squares of about 23 px; the zoom toggle makes them 44 px and the
    # board scrolls in its own box (the page never scrolls sideways).
    def square():
        return page.evaluate("document.querySelector('svg.rr-board').getBoundingClientRect().width / 16")

    assert square() < 26
    page.screenshot(path=str(ARTIFACTS / "contract-game-phone-fit.png"))
    zoom = page.locator("#board-zoom")
    assert zoom.is_visible() and zoom.get_attribute("aria-pressed") == "false"
    zoom.focus()
    page.keyboard.press("Enter")
    assert zoom.get_attribute("aria-pressed") == "true" and zoom.inner_text() == "Fit board"
    assert 43 <= square() <= 45
    label = page.evaluate("""() => { const t = document.querySelector('svg.rr-board .fixture-label, svg.rr-board .laser-count');
        return t ? t.getBoundingClientRect().height : null; }""")
    assert label is None or label >= 10, label
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "contract-game-phone-zoomed.png"))
    # Remembered over a reload.
    page.reload()
    page.wait_for_selector("#board-zoom[aria-pressed='true']")
    page.click("#board-zoom")
    assert square() < 26
    page.locator(".rr-chat").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "contract-game-phone-chat.png"), full_page=True)
    assert console.errors == []


def test_keyboard_reaches_every_control(new_page):
    page, console, server = open_game(new_page, snapshot(), DESKTOP, "keyboard")
    seen = set()
    for _ in range(120):
        page.keyboard.press("Tab")
        info = page.evaluate("""() => { const e = document.activeElement;
            const label = e.getAttribute('aria-label') || (e.labels && e.labels[0] && e.labels[0].textContent) || e.textContent;
            return [e.id || String(e.className).split(' ')[0] || e.tagName, (label || '').trim()]; }""")
        assert info[1], f"{info[0]} has no accessible name"
        seen.add(info[0])
    for wanted in ("chat-input", "chat-send", "chat-log", "leave-game", "reboot-toggle", "pause-animation", "chip"):
        assert wanted in seen, (wanted, seen)
    assert console.errors == []


def test_older_chat_pages_in_above(new_page):
    now = datetime.now(UTC)
    line = lambda n: {"id": n, "seat": 2, "user": "bo", "display_name": "Bo", "text": f"line {n}", "at": iso(now), "system": False}  # noqa: E731
    game = snapshot(chat=[line(n) for n in range(131, 231)])
    page, console = new_page("reader", DESKTOP)
    server = MockServer(page, game)
    server.older_chat = [line(n) for n in range(101, 131)]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{BASE}/games/1/")
    page.wait_for_selector("#chat-log li[data-id='230']")
    assert page.evaluate("(() => { const l = document.getElementById('chat-log'); return l.scrollHeight - l.scrollTop - l.clientHeight; })()") < 5
    page.click("#chat-older")
    page.wait_for_selector("#chat-log li[data-id='101']")
    ids = page.eval_on_selector_all("#chat-log li", "els => els.map(e => +e.dataset.id)")
    assert ids == list(range(101, 231))
    assert page.locator("#chat-older").is_hidden()  # fewer than a page came: that was all
    assert console.errors == []
