"""Issue 37, items 7 and 16 in the browser (the offline demo turns on the real stack), on a phone (390x844) and a
desktop (1440x900): the lives and damage badges' text is at least 11 px on screen with contrast at least 4.5
against its badge (the bubble rule); the site header is one line (at most 64 px) and never scrolls the page
sideways; the replay selector has an accessible label and says "Turn N"; every bubble an animation adds covers
no other bubble and no badge. Screenshots: var/test-artifacts/ram37-*-{phone,desktop}.png."""

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_screen_bubbles import contrast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}
DEMOS = {"phone": "eight-bots", "desktop": "all-events"}

BADGES = """() => [...document.querySelectorAll('g.bot .bot-lives, g.bot .bot-damage')]
  .filter(g => g.getAttribute('visibility') !== 'hidden' && g.getBoundingClientRect().width > 0)
  .map(g => { const t = g.querySelector('text'), r = g.querySelector('rect');
    return {cls: g.getAttribute('class'), text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
            box: t.getBoundingClientRect().height, ink: getComputedStyle(t).fill, bg: getComputedStyle(r).fill}; })"""

# At each bubble's insertion (after the board placed it): does it overlap another bubble or a badge?
RECORD_OVERLAPS = """() => {
  window.overlaps = []; window.bubbleCount = 0;
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!n.classList || !n.classList.contains('fx-bubble')) continue;
      window.bubbleCount++;
      const me = n.getBoundingClientRect();
      const others = [...document.querySelectorAll('.layer-fx g.fx-bubble'), ...document.querySelectorAll('g.bot .bot-lives, g.bot .bot-damage')]
        .filter(e => e !== n && e.getAttribute('visibility') !== 'hidden' && e.getBoundingClientRect().width > 0);
      for (const o of others) if (hit(me, o.getBoundingClientRect())) window.overlaps.push([n.textContent, o.getAttribute('class'), o.textContent]);
    }
  }).observe(document.querySelector('.layer-fx'), { childList: true });
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_badges_header_replay_label_and_bubbles(live_stack, new_page, size):
    page, console = new_page(f"r3-{size}", VIEWPORTS[size])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # The header: one line on every page.
    for path in ("/", "/how-to-play/", f"/games/demo/?demo={DEMOS[size]}&speed=0.5"):
        page.goto(f"{live_stack.base_url}{path}")
        height = page.eval_on_selector(".site-header", "e => e.getBoundingClientRect().height")
        assert height <= 64, (path, height)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"], path
    page.screenshot(path=str(ARTIFACTS / f"ram37-header-game-{size}.png"))
    page.wait_for_selector("g.bot")

    # Badges: legible and contrasted.
    badges = page.evaluate(BADGES)
    assert any(b["cls"] == "bot-lives" for b in badges), badges
    for b in badges:
        assert b["px"] >= 11 - 0.05 and b["box"] >= 11, b
        assert contrast(b["ink"], b["bg"]) >= 4.5, b

    # The replay selector is labelled and says which turn.
    select = page.get_by_label("Replay turn", exact=False)
    assert select.count() >= 1 and page.locator("#replay-turn").get_attribute("aria-label")
    assert page.eval_on_selector("#replay-turn", "s => s.options[s.options.length - 1].textContent") == "Turn 1"

    # Bubbles keep clear of one another and of the badges.
    page.evaluate(RECORD_OVERLAPS)
    page.select_option("#replay-turn", "1")
    page.click("#replay-button")
    page.wait_for_selector(".fx-bubble")
    page.locator(".rr-board-wrap").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"ram37-bubbles-badges-{size}.png"))
    page.click("#skip-animation")
    page.wait_for_selector("#game-root[data-replayed='1']", timeout=30_000)
    assert page.evaluate("window.bubbleCount") > 0
    assert page.evaluate("window.overlaps") == []
    # After the replay the badges are still legible.
    for b in page.evaluate(BADGES):
        assert b["px"] >= 11 - 0.05, b
    assert console.errors == []
