"""Time that is fair (issue 37, item 1), in Chromium on the live stack: a turn plays at 1x, and the time the
browser took to show it is what the server waited before starting the next turn's clocks (the timing table
games/kinds/roboracer/timing.json), within 20%. Meanwhile no clock counts down."""

import pytest

from games.kinds.roboracer import timing
from games.models import Game, GameEvent, Hand
from tests.e2e.test_computer_players_browser import (
    chosen_program,
    click_program,
    game_of,
    settle,
    wait_for_turn,
)
from tests.e2e.test_play_three_turns import sign_up
from tests.e2e.test_program_socket import expect_program

pytestmark = [pytest.mark.e2e, pytest.mark.animated, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1280, "height": 800}


def test_the_server_waits_as_long_as_the_browser_shows_the_turn(live_stack, courses, new_page):
    base = live_stack.base_url
    tess, console = new_page("tess", DESKTOP)
    sign_up(tess, base, "tess")
    tess.click("#practice-submit")  # Tiny Yard against one Normal computer
    tess.wait_for_url(f"{base}/games/*/")
    game = game_of(tess)
    assert game.status == Game.Status.PROGRAMMING
    tess.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    seat = game.seats.get(number=1)
    hand = Hand.objects.get(seat=seat, turn=1).chips
    tess.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(hand))
    click_program(tess, hand, chosen_program(game, seat, hand))
    with expect_program(tess) as answer:
        tess.click("#submit-program")
    assert answer.value.status == 200, answer.value.text()
    turn = wait_for_turn(game, 1)
    served = timing.animation_ms(turn.events)
    clocks = GameEvent.objects.filter(game=game, kind="clocks").order_by("-version").first()
    waits = [s.get("starts_in") for s in clocks.data["seats"] if s["clock_running"]]
    assert waits and all(w is not None and 0 < w <= served / 1000 + 0.1 for w in waits)  # (rounded to 0.1 s)
    # The browser plays the turn at 1x (the default speed) and notes how long it took.
    tess.wait_for_selector("#game-root[data-turn-played-ms]", timeout=max(30_000, 3 * served))
    played = int(tess.get_attribute("#game-root", "data-turn-played-ms"))
    print(f"turn 1 at 1x: the browser took {played} ms, the server waited {served} ms")
    assert served > 2000, served  # a real turn: two robots, five phases
    assert abs(played - served) <= 0.2 * served, f"the browser took {played} ms, the server waited {served} ms"
    settle(live_stack, game)
    assert not console.errors, console.errors
