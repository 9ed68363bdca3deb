"""The puzzle list (issue 37 item 12): every card shows a difficulty derived from the puzzle's data
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
