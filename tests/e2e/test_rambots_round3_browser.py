"""Issue 37, item 15 (RAMbots) in the browser on the real stack, on a phone (390x844) and a desktop (1440x900):
one click in the lobby starts a RAMbots game against two computer players; the board names every bot legibly
(whole, or an abbreviation with the whole name as the bot's accessible label); ▲ ▼ ("Move up" / "Move down")
reorder the program's vertical list; at 1440x900 the board and Compile are both in view without scrolling; the
turn log names pieces in words ("medium yellow"), never codes ("M-yellow").

Screenshots: var/test-artifacts/ram37-rambots-*-{phone,desktop}.png."""

import re

import pytest

from games.models import Game
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import sign_up
from tests.e2e.test_rambots_browser import build_goal_stack
from tests.helpers import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}


def shoot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"ram37-rambots-{name}.png"))


def in_view(page, selector):
    box = page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; }")
    vp = page.viewport_size
    return box[0] >= 0 and box[1] <= vp["height"] and box[2] >= 0 and box[3] <= vp["width"]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_rambots_practice_names_reorder_layout_and_log_words(live_stack, new_page, size):
    base = live_stack.base_url
    page, console = new_page(f"ram37{size[0]}", VIEWPORTS[size])
    sign_up(page, base, f"ram37{size[0]}")
    page.goto(f"{base}/")
    page.wait_for_selector("#practice-rambots-submit")
    shoot(page, f"lobby-{size}")
    page.click("#practice-rambots-submit")
    page.wait_for_url(f"{base}/games/*/")
    game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert game.kind == "rambots" and sorted(s.computer for s in game.seats.all()) == ["", "normal", "normal"]
    page.goto(f"{page.url.split('?')[0]}?speed=0")
    build_goal_stack(page)
    wait_until(lambda: Game.objects.get(pk=game.pk).turn > 0 and Game.objects.get(pk=game.pk).status == Game.Status.PROGRAMMING,
               "the first round")
    page.wait_for_selector("#ram-compile:not([disabled])", timeout=40_000)

    # Names: no label is cut with an ellipsis when an abbreviation will do; every bot's full name is its label.
    page.wait_for_selector(".ram-bot .ram-name")
    labels = page.eval_on_selector_all(".ram-bot", "gs => gs.map(g => [g.querySelector('.ram-name').textContent, g.getAttribute('aria-label')])")
    assert len(labels) == 3
    # The goal stacks beside the board name everyone in full (no ellipsis).
    assert page.eval_on_selector_all(".ram-goal-who", "els => els.every(e => e.scrollWidth <= e.clientWidth + 1)")
    for short, full in labels:
        assert "…" not in short, labels
        assert full and short.split()[0] in full, labels
    assert any(re.fullmatch(r"Normal \d", short) for short, _ in labels), labels

    # Reorder with ▲ ▼.
    pieces = page.locator(".ram-pool .ram-piece:not([disabled])")
    pieces.first.click()
    page.locator(".ram-pool .ram-piece:not([disabled])").first.click()
    order = page.eval_on_selector_all(".ram-slot.filled", "els => els.map(e => e.dataset.piece)")
    assert len(order) == 2
    assert page.locator(".ram-slot.filled", has_text="◀").count() == 0
    down = page.locator(".ram-slot[data-slot='0'] button[aria-label^='Move down']")
    assert down.inner_text() == "▼"
    assert page.locator(".ram-slot[data-slot='0'] button[aria-label^='Move up']").is_disabled()
    down.click()
    assert page.eval_on_selector_all(".ram-slot.filled", "els => els.map(e => e.dataset.piece)") == order[::-1]
    page.locator(".ram-slot[data-slot='1'] button[aria-label^='Move up']").click()
    assert page.eval_on_selector_all(".ram-slot.filled", "els => els.map(e => e.dataset.piece)") == order

    # Layout: on the desktop the board and Compile are both in view, without scrolling, with a full program.
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, f"program-{size}")
    if size == "desktop":
        while page.locator(".ram-slot.filled").count() < 5 and page.locator(".ram-pool .ram-piece:not([disabled])").count():
            page.locator(".ram-pool .ram-piece:not([disabled])").first.click()
        assert page.locator(".ram-slot.filled").count() == 5
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, "program-full-desktop")
        assert in_view(page, "#ram-compile"), "Compile below the fold at 1440x900"
        board = page.eval_on_selector(".ram-board svg, svg.ram-board", "e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.height]; }")
        assert board[0] >= 0 and board[1] <= 900 and board[2] > 300, board

    turn = Game.objects.get(pk=game.pk).turn
    page.click("#ram-compile")
    wait_until(lambda: Game.objects.get(pk=game.pk).turn > turn or Game.objects.get(pk=game.pk).status == Game.Status.FINISHED,
               "the round to run")
    page.wait_for_function("() => /(small|medium|large) (red|yellow|green|blue)/.test(document.body.innerText)", timeout=40_000)
    text = page.inner_text("body")
    assert not re.search(r"\b[SML]-(red|yellow|green|blue)\b", text), re.findall(r".{20}\b[SML]-\w+.{20}", text)
    shoot(page, f"log-{size}")
    assert [e for e in console.errors if "favicon" not in e] == []
