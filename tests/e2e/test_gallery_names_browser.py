"""The course gallery's cards are named by their course (issue 38 item 19): a screen reader read the whole element
list of the preview as the link's name. Each card's link's accessible name is the course name, on a phone."""

import pytest

from roboracer.courses.models import Course
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_each_gallery_card_link_is_named_by_its_course(live_stack, courses, new_page):
    page, _ = new_page("visitor", {"width": 390, "height": 844})
    page.goto(f"{live_stack.base_url}/courses/")
    page.wait_for_selector("#course-gallery .course-card svg.rr-board")
    cards = page.eval_on_selector_all("#course-gallery .course-card", "els => els.map(e => e.dataset.course)")
    assert len(cards) >= 5
    for slug in cards:
        name = Course.objects.filter(slug=slug).order_by("-pk").first().name
        link = page.locator(f".course-card[data-course='{slug}'] a.course-card-link")
        assert page.get_by_role("link", name=name, exact=True).count() >= 1, name
        assert link.get_attribute("aria-label") == name
        assert link.locator(".course-preview").get_attribute("aria-hidden") == "true"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "gallery-names-phone.png"))
