"""Time that is fair (issue 37, items 1 and 2), in Chromium on the live stack: a turn plays at 1x, and the time
the browser took to show it is what the server waited before starting the next turn's clocks (the timing table
games/kinds/roboracer/timing.json), within 20%. My own clock sits beside Submit on a phone and a desktop, and
warns in the last 30 s (red, and a sound I can turn off). Screenshots: var/test-artifacts/my-clock-*.png."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.kinds.roboracer import timing
from games.models import Game, GameEvent, Hand, Seat
from tests.e2e.conftest import ARTIFACTS
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


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1440, "height": 900}],
                         ids=["phone", "desktop"])
def test_my_clock_is_beside_submit_and_warns_in_the_last_30_seconds(live_stack, courses, new_page, viewport):
    base = live_stack.base_url
    name = f"uma{viewport['width']}"
    page, console = new_page(name, viewport)
    sign_up(page, base, name)
    page.click("#practice-submit")
    page.wait_for_url(f"{base}/games/*/")
    game = game_of(page)
    page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    # My clock runs: it is shown right beside Submit, and says my time.
    page.wait_for_selector("#my-clock:not([hidden])")
    clock = page.locator("#my-clock").bounding_box()
    submit = page.locator("#submit-program").bounding_box()
    assert clock and submit
    gap = max(submit["x"] - (clock["x"] + clock["width"]), clock["y"] - (submit["y"] + submit["height"]),
              submit["y"] - (clock["y"] + clock["height"]))
    assert gap <= 16, (clock, submit)  # next to it: on its row, or right above or below it
    shown = page.inner_text("#my-clock .my-clock-time")
    assert shown in ("2:00", "1:59", "1:58"), shown  # the move time that counts now
    assert page.get_attribute("#my-clock", "class") == "my-clock"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"my-clock-{name}.png"))
    # Sound off is remembered.
    assert page.get_attribute("#clock-sound", "aria-pressed") == "true"
    page.click("#clock-sound")
    assert page.get_attribute("#clock-sound", "aria-pressed") == "false"
    # 25 s left: the clock turns red and warns once (the page reloads the seat's clock from the server).
    Seat.objects.filter(game=game, number=1).update(move_left=25, clock_started_at=timezone.now(),
                                                    deadline=timezone.now() + timedelta(seconds=625))
    page.reload()
    page.wait_for_selector("#my-clock.low:not([hidden])")
    assert page.get_attribute("#my-clock", "data-warned") == "1"
    assert page.get_attribute("#clock-sound", "aria-pressed") == "false"
    page.screenshot(path=str(ARTIFACTS / f"my-clock-low-{name}.png"))
    # Once my program is in, my clock stops and is no longer shown.
    hand = Hand.objects.get(seat__game=game, seat__number=1, turn=1).chips
    click_program(page, hand, chosen_program(game, game.seats.get(number=1), hand))
    page.click("#submit-program")
    page.wait_for_selector("#my-clock", state="hidden")
    settle(live_stack, game)
    assert not console.errors, console.errors
