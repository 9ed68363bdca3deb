"""The lobby's Start button and the move clock, on the real stack (uvicorn, a Celery worker, Chromium).

- The creator's Start button appears live, without a reload, once the course's minimum of players has joined
  (the game page listens to seat_joined on its socket); with a seat still empty it asks first ("Start now with 2
  of 3 players?"), and only "Yes, start now" starts the game.
- After a turn resolves and its animation has played, the move clock shown is the server's: within 2 s of the
  time left in a fresh snapshot, not the full move time the browser used to show (it read the deal's clocks
  against the moment it applied them, after the animation, instead of the moment they arrived).
"""

import re
import time

import pytest

from games.models import Game
from tests.e2e.test_play_three_turns import DESKTOP, create_game, sign_up, wait_for_turn
from tests.e2e.test_site_features import submit_first_chips

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
MOVE_MINUTES = 5


def shown_move_seconds(page, seat):
    text = page.inner_text(f".seat-clock[data-seat='{seat}']")
    match = re.search(r"move (\d+):(\d\d)", text)
    assert match, text
    return int(match.group(1)) * 60 + int(match.group(2))


def server_move_left(page, game, seat):
    """Seat `seat`'s move time left now, from a fresh snapshot through the API (as of its server_time)."""
    snapshot = page.evaluate("url => fetch(url).then(r => r.json())", f"/api/games/{game.pk}/")
    return next(s for s in snapshot["seats"] if s["number"] == seat)["move_left"]


def test_start_appears_live_and_the_clock_after_an_animation_is_the_servers(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, alice_console = new_page("alice", DESKTOP)
    bob, bob_console = new_page("bob")
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)

    # Bolt Bay takes 2 to 4 players: with three seats, the game waits for its creator's Start.
    alice.select_option("#id_course", label="Bolt Bay")
    alice.fill("#id_max_seats", "3")
    alice.fill("#id_lives", "9")
    alice.select_option("#id_timer_preset", "custom")
    alice.fill("#id_move_minutes", str(MOVE_MINUTES))
    alice.fill("#id_game_minutes", "10")
    game_url, game = create_game(alice, base)
    alice.wait_for_selector("#game-status:has-text('Lobby')")
    assert alice.locator("#start-game").is_hidden(), "one player is fewer than Bolt Bay's minimum"
    assert not {"{#", "#}", "{%"} & set(alice.inner_text("main").split()), "template syntax shown as text"
    alice.evaluate("window.notReloaded = true")

    bob.goto(game_url)
    bob.click("#join-game")
    bob.wait_for_url(game_url)
    alice.wait_for_selector("#start-game", state="visible", timeout=10_000)  # live, through seat_joined
    assert alice.evaluate("window.notReloaded === true"), "the page was reloaded"
    assert bob.locator("#start-game").count() == 0, "only the creator has a Start button"
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY
    # The page's requests to start the game (its Start form posts to /games/<id>/start/).
    starts = []
    alice.on("request", lambda request: request.method == "POST" and request.url.rstrip("/").endswith("/start")
             and starts.append(request.url))
    alice.click("#start-game")
    question = alice.locator("#start-confirm-text")
    question.wait_for()
    assert question.inner_text() == "Start now with 2 of 3 players? The empty seats will be closed."
    alice.click("#start-confirm-no")  # backing out starts nothing
    assert alice.locator("#start-confirm-text").is_hidden()
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY
    alice.click("#start-game")
    alice.click("#start-confirm-yes")
    for page in (alice, bob):
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    # One start, the one "Yes" sent: had "Wait for players" sent the form, its request would be here first.
    assert len(starts) == 1, starts
    game.refresh_from_db()
    assert game.status == Game.Status.PROGRAMMING and game.seats.count() == 2
    assert alice.locator("#start-game").is_hidden()

    # Turn 1 runs with alice watching at half speed: the animation lasts many seconds while the server's clock
    # of turn 2 is already running.
    alice.click(".rr-speed[data-speed='0.5']")
    submit_first_chips(alice, game, "alice", 1)
    submit_first_chips(bob, game, "bob", 1, last=True)
    wait_for_turn(game, 1)
    alice.wait_for_selector("#game-root[data-animating='1']", timeout=10_000)
    started = time.monotonic()
    alice.wait_for_selector("#game-root[data-animating='0']", timeout=60_000)
    alice.wait_for_selector("#game-status:has-text('Turn 2 — programming')")
    animated = time.monotonic() - started
    alice.wait_for_selector(".seat-clock[data-seat='1'].running")

    shown = shown_move_seconds(alice, 1)
    server = server_move_left(alice, game, 1)
    assert server < MOVE_MINUTES * 60 - 3, f"the server's clock ran during the {animated:.1f} s animation"
    assert abs(shown - server) <= 2, f"shown {shown} s, the server says {server} s (animation {animated:.1f} s)"
    # And it keeps counting from there: two seconds down on the screen, still the server's time.
    alice.wait_for_function(
        """shown => {
            const match = /move (\\d+):(\\d\\d)/.exec(document.querySelector(".seat-clock[data-seat='1']").textContent);
            return match !== null && Number(match[1]) * 60 + Number(match[2]) <= shown - 2;
        }""", arg=shown, timeout=10_000)
    assert abs(shown_move_seconds(alice, 1) - server_move_left(alice, game, 1)) <= 2
    assert alice_console.errors + bob_console.errors == []
