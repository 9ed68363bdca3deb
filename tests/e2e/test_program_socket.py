"""The game screen sends a program over its open game socket (a "program" frame answered by
"program_accepted" with the frame's id), not as POST /api/games/<id>/program/, and the turn still runs.

`expect_program(page)` is for browser tests that submit a program: like `page.expect_response` on the old POST,
its `.value` has the answer's `status` (200 when accepted, else the status the POST would have had), `text()`
and `request.post_data_json` (the program the page sent)."""

import json
from contextlib import contextmanager
from types import SimpleNamespace

import pytest

from tests.e2e.test_play_three_turns import DESKTOP, create_game, sign_up, wait_for_turn

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Records every program frame the page sends on any socket from now on, with the reply of its id.
RECORD_PROGRAMS = """() => {
  if (window.rrProgramFrames) return window.rrProgramFrames.length;
  const seen = window.rrProgramFrames = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    let frame = null;
    try { frame = JSON.parse(data); } catch { /* not JSON */ }
    if (frame && frame.type === "program") {
      const entry = { frame, reply: null };
      seen.push(entry);
      this.addEventListener("message", (ev) => {
        let msg = null;
        try { msg = JSON.parse(ev.data); } catch { /* not JSON */ }
        if (msg && msg.id === frame.id && !entry.reply) entry.reply = msg;
      });
    }
    return send.call(this, data);
  };
  return 0;
}"""


class ProgramAnswer:
    def __init__(self, frame, reply):
        self.frame = frame
        self.reply = reply
        self.status = 200 if reply.get("type") == "program_accepted" else reply.get("status", 400)
        self.request = SimpleNamespace(post_data_json={k: v for k, v in frame.items() if k not in ("type", "id")})

    def text(self):
        return json.dumps(self.reply)


@contextmanager
def expect_program(page, timeout=20_000):
    """The program frame the page sends on its game socket inside the block, and the server's reply to it."""
    start = page.evaluate(RECORD_PROGRAMS)
    answer = SimpleNamespace(value=None)
    yield answer
    entry = page.wait_for_function(
        "n => { const e = window.rrProgramFrames[n]; return e && e.reply ? e : null; }", arg=start, timeout=timeout,
    ).json_value()
    answer.value = ProgramAnswer(entry["frame"], entry["reply"])


def watch_game_socket(page):
    """The JSON frames the page sent on its game socket, and its POSTs to .../program/."""
    seen = {"sent": [], "posts": []}

    def on_socket(ws):
        if "/ws/games/" in ws.url:
            ws.on("framesent", lambda payload: seen["sent"].append(json.loads(payload)))

    page.on("websocket", on_socket)
    page.on("request", lambda request: request.method == "POST" and request.url.endswith("/program/")
            and seen["posts"].append(request.url))
    return seen


def test_a_program_goes_over_the_game_socket(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, alice_console = new_page("alice", DESKTOP)
    bob, bob_console = new_page("bob", DESKTOP)
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)
    alice.select_option("#id_course", label="Tiny Yard")
    alice.fill("#id_max_seats", "2")
    game_url, game = create_game(alice, base)
    bob.goto(game_url)
    bob.click("#join-game")
    bob.wait_for_url(game_url)

    watched = {}
    for page, user in ((alice, "alice"), (bob, "bob")):
        watched[user] = watch_game_socket(page)
        page.goto(f"{game_url}?speed=0")
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
        page.wait_for_function("() => document.querySelectorAll('button.chip').length >= 5")
    for page, user in ((alice, "alice"), (bob, "bob")):
        for index in range(5):
            page.click(f"button.chip[data-index='{index}']")
        chips = page.eval_on_selector_all(".register", "els => els.map(e => e.dataset.chip)")
        with expect_program(page) as answer:
            page.click("#submit-program")  # bob's, the last program in, starts the turn at once
        assert answer.value.status == 200, answer.value.text()
        assert answer.value.request.post_data_json == {"turn": 1, "chips": chips, "reboot": False}
        assert answer.value.reply == {"type": "program_accepted", "id": answer.value.frame["id"], "turn": 1,
                                      "chips": chips, "reboot": False, "action": None}
        sent = [f for f in watched[user]["sent"] if f.get("type") == "program"]
        assert sent == [answer.value.frame], sent
        if user == "alice":
            page.wait_for_selector(".rr-program-message:has-text('Program submitted')")

    # Both programs in: the turn runs, and both screens move on to turn 2. No program went by POST.
    wait_for_turn(game, 1)
    for page in (alice, bob):
        page.wait_for_selector("#game-status:has-text('Turn 2 — programming')", timeout=40_000)
    assert watched["alice"]["posts"] == [] and watched["bob"]["posts"] == []
    assert alice_console.errors == [] and bob_console.errors == []
