"""The course editor's fields keep focus and values (issue 38 item 16): typing a Name and pressing Tab reaches
Width (focus no longer drops to the page), a Width typed then applies with its change, and a resize that would
drop placed elements asks first, saying how many; declining keeps the course and its elements. Phone and desktop."""

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_course_builder import square
from tests.e2e.test_play_three_turns import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

VIEWBOX_W = "() => document.querySelector('#editor-root svg.rr-board').getAttribute('viewBox').split(' ').map(Number)[2]"


@pytest.mark.parametrize(("viewport", "name"), [({"width": 1440, "height": 900}, "desktop"),
                                                ({"width": 390, "height": 844}, "phone")])
def test_fields_keep_focus_and_a_lossy_resize_asks_first(live_stack, new_page, viewport, name):
    base = live_stack.base_url
    page, console = new_page(f"ed{name}", viewport)
    sign_up(page, base, f"ed{name}")
    page.goto(f"{base}/courses/new/")
    page.wait_for_selector("#editor-root[data-ready='1'] svg.rr-board")
    if not page.is_visible("#ed-name"):  # on a phone the course's panel is folded: open it as a person would
        page.click("#editor-root details:has(#ed-name) > summary")
    page.fill("#ed-name", "Focus Field")
    page.press("#ed-name", "Tab")
    assert page.evaluate("() => document.activeElement?.id") == "ed-width"  # not <body>
    assert page.input_value("#ed-name") == "Focus Field"
    wide = page.evaluate(VIEWBOX_W)
    page.fill("#ed-width", "6")
    page.press("#ed-width", "Tab")  # the change applies the width
    page.wait_for_function(f"() => ({VIEWBOX_W})() < {wide}")
    assert page.evaluate("() => document.activeElement?.id") == "ed-height"
    assert page.input_value("#ed-width") == "6" and page.input_value("#ed-name") == "Focus Field"
    # A start at (5, 0), then a width of 4 would drop it: the editor asks, naming how many; declining keeps it.
    tool = "#editor-root button.ed-tool[data-tool='start']"
    page.click(tool if page.is_visible(tool) else "#editor-root .ed-strip-tool[data-tool='start']")
    page.mouse.click(*square(page, 5, 0))
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.fill("#ed-width", "4")
    page.press("#ed-width", "Tab")
    page.wait_for_function("() => document.querySelector('#ed-width').value === '6'")
    assert asked == ["Resize to 4 by " + page.input_value("#ed-height") + "? 1 element outside it will be removed."]
    assert "Placed Start at (5, 0)" in page.inner_text(".ed-status")  # nothing was removed
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"editor-fields-{name}.png"))
    assert not console.errors


@pytest.mark.parametrize(("viewport", "name"), [({"width": 390, "height": 844}, "phone"),
                                                ({"width": 1440, "height": 900}, "desktop")])
def test_validation_shows_above_the_board_and_the_board_zooms(live_stack, new_page, viewport, name):
    """Issue 38 item 17: the validation's count sits right above the board (on a phone the panel was far below)
    and its Show opens the panel; Zoom makes the board twice as wide in a box that scrolls, and a tap on the
    zoomed board still places on the square under it."""
    base = live_stack.base_url
    page, console = new_page(f"zoom{name}", viewport)
    sign_up(page, base, f"zoom{name}")
    page.goto(f"{base}/courses/new/")
    page.wait_for_selector("#editor-root[data-ready='1'] svg.rr-board")
    page.wait_for_function("() => document.querySelector('#ed-check-line')?.dataset.errors !== undefined")
    errors = int(page.get_attribute("#ed-check-line", "data-errors"))
    shown = page.eval_on_selector_all("#editor-root .ed-errors .ed-problem", "els => els.length")
    assert errors == shown and errors > 0  # a new course has no starts or check points yet
    line = page.locator("#ed-check-line").bounding_box()
    board = page.locator("#editor-root .ed-board-host").bounding_box()
    assert line["y"] + line["height"] <= board["y"] + 1 and line["y"] < viewport["height"]
    assert f"{errors} error" in page.inner_text("#ed-check-line")
    page.click("#ed-check-line .ed-check-show")
    assert page.locator("#editor-root .ed-problems").is_visible()
    page.locator("#ed-zoom").scroll_into_view_if_needed()
    before = page.evaluate("() => document.querySelector('#editor-root svg.rr-board').getBoundingClientRect().width")
    page.click("#ed-zoom")
    assert page.get_attribute("#ed-zoom", "aria-pressed") == "true"
    after = page.evaluate("() => document.querySelector('#editor-root svg.rr-board').getBoundingClientRect().width")
    assert after > 1.8 * before
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]  # the box scrolls
    page.evaluate("() => { const h = document.querySelector('#editor-root .ed-board-host'); h.scrollLeft = 0; }")
    tool = "#editor-root button.ed-tool[data-tool='pit']"
    page.click(tool if page.is_visible(tool) else "#editor-root .ed-strip-tool[data-tool='pit']")
    page.locator("#editor-root .ed-board-host").scroll_into_view_if_needed()
    page.mouse.click(*square(page, 1, 1))
    assert "Placed Pit at (1, 1)" in page.inner_text(".ed-status")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"editor-zoom-{name}.png"))
    page.click("#ed-zoom")
    assert page.get_attribute("#ed-zoom", "aria-pressed") == "false"
    assert not console.errors
