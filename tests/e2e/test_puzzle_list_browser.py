"""The puzzle list (issue 37 item 12): every card shows a preview of its board and a difficulty derived from the puzzle's data
(games.selectors.puzzles.puzzle_difficulty, docs/modes.md "Puzzle difficulty") and the cards come easiest first,
on a phone (390x844) and a desktop (1440x900). Screenshots of both."""

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_puzzle_cards_show_a_difficulty_easiest_first(live_stack, courses, new_page):
    from games.selectors.puzzles import puzzle_difficulty
    from roboracer.courses.models import Course

    base = live_stack.base_url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    seen = []
    for user, viewport, name in (("alice", {"width": 1440, "height": 900}, "desktop"),
                                 ("bob", {"width": 390, "height": 844}, "phone")):
        page, _ = new_page(user, viewport)
        sign_up(page, base, user)
        page.goto(f"{base}/puzzles/")
        page.wait_for_selector("#puzzle-list li.puzzle")
        # Every card has a preview of its own board, drawn (its squares visible), inside the card and the window.
        page.wait_for_function("() => [...document.querySelectorAll('#puzzle-list li.puzzle')].every("
                               "li => li.querySelector('.puzzle-preview svg.rr-board .layer-floor, "
                               ".puzzle-preview svg.rr-board rect'))")
        boxes = page.eval_on_selector_all("#puzzle-list li.puzzle", """els => els.map(li => {
            const p = li.querySelector('.puzzle-preview svg.rr-board').getBoundingClientRect();
            const c = li.getBoundingClientRect();
            return {slug: li.dataset.slug, w: p.width, h: p.height, inside: p.left >= c.left && p.right <= c.right,
                    label: li.querySelector('.puzzle-preview svg.rr-board').getAttribute('aria-label') || ''};
        })""")
        for box in boxes:
            assert box["w"] >= 100 and box["h"] >= 60 and box["inside"], box
            assert "Preview of" in box["label"], box
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        # Push Off's crate, the target bot to destroy, stands on its preview.
        crate = page.locator("li.puzzle[data-slug='puzzle-push-off'] .puzzle-preview g.bot[data-bot='target-crate']")
        assert crate.count() == 1 and crate.locator("title").text_content() == "Target crate"
        page.screenshot(path=str(ARTIFACTS / f"puzzles-{name}.png"), full_page=True)
        seen.append(page.eval_on_selector_all(
            "#puzzle-list li.puzzle",
            "els => els.map(e => [e.dataset.slug, (e.querySelector('.puzzle-difficulty') || {}).innerText || ''])"))
    for cards in seen:
        assert len(cards) >= 3
        expected = {slug: puzzle_difficulty(Course.objects.get(slug=slug).data) for slug, _ in cards}
        scores = [expected[slug][0] for slug, _ in cards]
        assert scores == sorted(scores), cards
        for slug, text in cards:
            assert expected[slug][1] in text, (slug, text)
        assert cards[0][0] != cards[-1][0] and expected[cards[0][0]][1] != expected[cards[-1][0]][1]
