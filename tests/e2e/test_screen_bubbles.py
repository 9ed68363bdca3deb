"""The animation's text bubbles (chip names, damage, check points, "Rebooting"...) are legible: light text
on an opaque dark pill with at least WCAG's 4.5:1 contrast, and big enough to read on a phone. Checked on
the computed styles of every bubble a real animation draws (the offline demo turns), at 1920x1080 and
390x844, with screenshots of the animation in var/test-artifacts/."""

import re

import pytest

from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}

# Every bubble the animation adds: its text, the computed paint of its pill and text, and its size on screen.
RECORD_BUBBLES = """() => {
  window.bubbles = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!n.classList || !n.classList.contains('fx-bubble')) continue;
      const rect = getComputedStyle(n.querySelector('rect')), text = n.querySelector('text');
      const t = getComputedStyle(text);
      window.bubbles.push({text: text.textContent, tone: [...n.classList].find(c => c.startsWith('bubble-')),
        pill: rect.fill, pillOpacity: +rect.opacity * +rect.fillOpacity, ink: t.fill, inkOpacity: +t.opacity * +t.fillOpacity,
        inkPx: text.getBoundingClientRect().height});
    }
  }).observe(document.querySelector('.layer-fx'), { childList: true });
}"""


def luminance(css_colour):
    """WCAG 2 relative luminance of an rgb()/rgba() colour."""
    r, g, b = (int(v) for v in re.findall(r"[\d.]+", css_colour)[:3])

    def channel(v):
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_formula():
    assert contrast("rgb(0, 0, 0)", "rgb(255, 255, 255)") == pytest.approx(21)
    assert contrast("rgb(0, 0, 0)", "rgb(0, 0, 0)") == pytest.approx(1)
    assert contrast("rgb(255, 255, 255)", "rgb(118, 118, 118)") == pytest.approx(4.54, abs=0.01)


ALL_TONES = {"bubble-chip", "bubble-damage", "bubble-good", "bubble-info"}


@pytest.mark.parametrize(("viewport", "demo", "min_px", "tones"), [
    (DESKTOP, "all-events", 13, ALL_TONES),  # 8x8: every kind of bubble
    (PHONE, "eight-bots", 12, {"bubble-chip", "bubble-damage"}),  # 16x16 on a phone: 23 px squares
], ids=["desktop", "phone"])
def test_bubbles_are_legible_during_a_real_animation(live_stack, new_page, viewport, demo, min_px, tones):
    page, console = new_page(f"demo-{demo}", viewport)
    page.goto(f"{live_stack.base_url}/games/demo/?demo={demo}&speed=0.5")
    page.wait_for_selector("g.bot")
    page.evaluate(RECORD_BUBBLES)
    page.select_option("#replay-turn", "1")
    page.click("#replay-button")
    page.wait_for_selector(".fx-bubble")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    name = "desktop" if viewport == DESKTOP else "phone"
    page.locator(".rr-board-wrap").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"screen-bubbles-{name}.png"))
    page.click("#skip-animation")
    page.wait_for_selector("#game-root[data-replayed='1']", timeout=30_000)

    bubbles = page.evaluate("window.bubbles")
    assert {bubble["tone"] for bubble in bubbles} == tones
    for bubble in bubbles:
        assert bubble["pillOpacity"] == 1 and bubble["inkOpacity"] == 1, bubble  # nothing shows through
        assert contrast(bubble["ink"], bubble["pill"]) >= 4.5, bubble
        assert bubble["inkPx"] >= min_px, bubble  # the text's box on screen, in CSS px
    assert console.errors == []
