"""The reboot toggle is a plain checkbox "Reboot this turn" (off by default, not a button that reads like
"go to the next turn"), and says what it does in text everyone sees, in both states, on the offline
programming demo, at phone and desktop sizes."""

import pytest

from tests.e2e.test_screen_layout import DESKTOP, PHONE, RECT, inside_viewport

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shown_text(page, selector):
    """The element's text if a sighted person can read it: laid out at a readable size and not clipped away."""
    box = page.locator(selector).evaluate(RECT)
    style = page.locator(selector).evaluate("e => { const s = getComputedStyle(e); return [s.clip, s.visibility, +s.opacity, parseFloat(s.fontSize)]; }")
    clip, visibility, opacity, font_px = style
    readable = (box["right"] - box["left"] > 60 and box["bottom"] - box["top"] >= 10 and clip == "auto"
                and visibility == "visible" and opacity == 1 and font_px >= 12)
    return page.inner_text(selector) if readable else None


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_reboot_toggle_explains_itself_visibly(live_stack, new_page, viewport):
    page, console = new_page("reboot", viewport)
    page.goto(f"{live_stack.base_url}/games/demo/?demo=programming")
    toggle = page.locator("#reboot-toggle")
    toggle.wait_for()
    toggle.scroll_into_view_if_needed()
    assert shown_text(page, ".rr-reboot-label") == "Reboot this turn"
    off = shown_text(page, "#rr-reboot-help")
    assert off and "plays the next turn as usual" in off and "reboot" in off.lower()
    assert toggle.get_attribute("type") == "checkbox" and not toggle.is_checked()
    assert page.get_by_role("checkbox", name="Reboot this turn").count() == 1
    assert toggle.get_attribute("aria-describedby") == "rr-reboot-help"
    # Not dressed as the primary action: Submit program is the only coloured button there.
    assert toggle.evaluate("e => getComputedStyle(e).backgroundColor") != page.locator("#submit-program").evaluate(
        "e => getComputedStyle(e).backgroundColor")
    # The label and the explanation are next to the toggle, on screen with it.
    for selector in (".rr-reboot-label", "#reboot-toggle", "#rr-reboot-help"):
        assert inside_viewport(page.locator(selector).evaluate(RECT), page), selector

    page.click(".rr-reboot-label")  # the label ticks the box too
    on = shown_text(page, "#rr-reboot-help")
    assert on and on.startswith("Reboot chosen") and "sits the next turn out" in on and on != off
    assert toggle.is_checked()
    toggle.click()
    assert not toggle.is_checked()
    assert shown_text(page, "#rr-reboot-help") == off
    assert console.errors == []
