"""Review comments on squares (issue 38 item 18), in Chromium on the live stack: a reviewer opens a course from the
review queue, clicks square (3, 5) on its board and comments on it; the comment shows as marker 1 on that square and
in the list beside the board (a click on the entry highlights the square); staff comment from the editor on the
cursor's square. After the send back the author's editor shows the same marker on the same square; the author
replies and marks it resolved. A stranger gets a 404. On a phone (390x844) and a desktop (1440x900); screenshots in
var/test-artifacts/review-comments-*.png."""

import copy

import pytest
from django.contrib.auth.models import Group

import engine
from roboracer.courses import services
from roboracer.courses.models import ReviewComment
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_course_builder import log_in, no_sideways_scroll
from tests.e2e.test_play_three_turns import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A square's client rectangle [left, top, right, bottom] on the board of `root`, from the board's own SVG transform.
SQUARE_BOX_JS = """([root, x, y]) => {
  const svg = document.querySelector(`${root} svg.rr-board`);
  const m = svg.getScreenCTM();
  const a = new DOMPoint(x * 100, y * 100).matrixTransform(m), b = new DOMPoint((x + 1) * 100, (y + 1) * 100).matrixTransform(m);
  return [a.x, a.y, b.x, b.y];
}"""


def square_box(page, root, x, y):
    return page.evaluate(SQUARE_BOX_JS, [root, x, y])


def centre(box):
    return (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def centre_of(rect):
    return ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)


def inside(point, rect):
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


@pytest.mark.parametrize(("viewport", "name"), [({"width": 390, "height": 844}, "phone"),
                                                ({"width": 1440, "height": 900}, "desktop")])
def test_a_reviewer_comments_on_a_square_and_the_authors_editor_shows_it_there(
        live_stack, courses, new_page, django_user_model, viewport, name):
    base = live_stack.base_url
    author = django_user_model.objects.create_user(username=f"ada{name}", password=PASSWORD)
    reviewer = django_user_model.objects.create_user(username=f"rita{name}", password=PASSWORD)
    reviewer.groups.add(Group.objects.get_or_create(name="reviewers")[0])
    django_user_model.objects.create_user(username=f"sam{name}", password=PASSWORD)
    django_user_model.objects.create_user(username=f"stu{name}", password=PASSWORD, is_staff=True)
    data = copy.deepcopy(engine.bundled_course_data("tiny-yard"))  # 8 by 8
    data["name"] = f"Review Yard {name}"
    slug = services.create_course(user=author, data=data).slug
    services.transition_course(user=author, slug=slug, to="review")

    # ---- the reviewer: the queue, the course's review page, a click on (3, 5), a comment
    page, console = new_page(f"rita{name}", viewport)
    log_in(page, base, f"rita{name}")
    page.goto(f"{base}/courses/review/")
    page.click(f"#review-queue li[data-course='{slug}'] a.review-comments-link")
    page.wait_for_selector("#review-root[data-ready='1'] svg.rr-board")
    assert page.inner_text(".rv-count") == "No review comments yet."
    page.locator("#review-board svg.rr-board").scroll_into_view_if_needed()
    page.mouse.click(*centre_of(square_box(page, "#review-board", 3, 5)))
    assert page.inner_text("#rv-picked") == "Comment on (3, 5)"
    assert (page.input_value("#rv-x"), page.input_value("#rv-y")) == ("3", "5")
    page.fill("#rv-text", "This belt runs straight into the wall.")
    page.click("#rv-submit")
    marker = page.locator("#review-board .rv-marker[data-number='1']")
    marker.wait_for(state="attached")
    assert (marker.get_attribute("data-x"), marker.get_attribute("data-y")) == ("3", "5")
    assert inside(centre(marker.bounding_box()), square_box(page, "#review-board", 3, 5))
    entry = page.locator("#rv-comments .rv-thread[data-number='1']")
    assert "(3, 5)" in entry.inner_text() and "This belt runs straight into the wall." in entry.inner_text()
    comment = ReviewComment.objects.get()
    assert (comment.course.slug, comment.x, comment.y, comment.author_id) == (slug, 3, 5, reviewer.pk)
    # A second comment on the whole course (no square: no marker), then the first entry's square highlighted.
    page.click("#rv-whole")
    page.fill("#rv-text", "Otherwise a fine little course.")
    page.click("#rv-submit")
    page.wait_for_selector("#rv-comments .rv-thread[data-number='2']")
    assert page.locator("#review-board .rv-marker").count() == 1
    entry.locator("button.rv-show").click()
    highlight = page.locator("#review-board .rv-highlight")
    assert inside(centre(highlight.bounding_box()), square_box(page, "#review-board", 3, 5))
    assert "rv-active" in marker.get_attribute("class")
    no_sideways_scroll(page)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-comments-reviewer-{name}.png"), full_page=True)
    # Staff may open the editor of a course in review and comment there, on the cursor's square (a click with
    # the Select tool puts the cursor on (6, 2); the click places nothing).
    staff, staff_console = new_page(f"stu{name}", viewport)
    log_in(staff, base, f"stu{name}")
    staff.goto(f"{base}/courses/{slug}/edit/")
    staff.wait_for_selector("#editor-root[data-ready='1'] #rv-form")
    staff.locator("#editor-root .ed-board-host").scroll_into_view_if_needed()
    staff.mouse.click(*centre_of(square_box(staff, "#editor-root", 6, 2)))
    staff.click("#rv-use-cursor")
    assert staff.inner_text("#rv-picked") == "Comment on (6, 2)"
    staff.fill("#rv-text", "Staff: this pit is unfair on turn one.")
    staff.click("#rv-submit")
    staff.locator("#editor-root .rv-marker[data-number='3'][data-x='6'][data-y='2']").wait_for(state="attached")
    assert staff_console.errors == []
    # Sent back with a reason, from the review page.
    page.fill("#review-transitions input[name='reason']", "See the comments on the board")
    page.click("#review-transitions button[type='submit']")
    page.wait_for_url(f"{base}/courses/review/")

    # ---- the author: the editor shows marker 1 on (3, 5); a reply; resolved
    mine, mine_console = new_page(f"ada{name}", viewport)
    log_in(mine, base, f"ada{name}")
    mine.goto(f"{base}/courses/{slug}/edit/")
    mine.wait_for_selector("#editor-root[data-ready='1'] svg.rr-board")
    mark = mine.locator("#editor-root .rv-marker[data-number='1']")
    mark.wait_for(state="attached")
    assert (mark.get_attribute("data-x"), mark.get_attribute("data-y")) == ("3", "5")
    mine.locator("#editor-root .ed-board-host").scroll_into_view_if_needed()
    assert inside(centre(mark.bounding_box()), square_box(mine, "#editor-root", 3, 5))
    assert mine.locator("#editor-root .rv-marker").count() == 2  # (3, 5) and staff's (6, 2); none for the course
    panel = mine.locator("#ed-comments-panel")
    assert panel.is_visible() and mine.locator("#rv-form").count() == 0  # the author replies, does not start threads
    assert mine.inner_text("#ed-comments-panel .rv-count") == "3 comments, 3 open"
    first = mine.locator("#ed-comments-panel .rv-thread[data-number='1']")
    first.locator("button.rv-show").click()
    assert "Comment on (3, 5)" in mine.inner_text(".ed-status")
    first.locator("button.rv-reply").click()
    first.locator("textarea[name='text']").fill("Turned the belt north.")
    first.locator(".rv-reply-form button[type='submit']").click()
    first.locator(".rv-replies li:has-text('Turned the belt north.')").wait_for()
    first.locator("button.rv-resolve").click()
    mine.wait_for_selector("#editor-root .rv-marker.rv-resolved[data-number='1']", state="attached")
    assert mine.inner_text("#ed-comments-panel .rv-count") == "3 comments, 2 open"
    mine.locator("#ed-comments-panel").scroll_into_view_if_needed()
    no_sideways_scroll(mine)
    mine.screenshot(path=str(ARTIFACTS / f"review-comments-author-{name}.png"), full_page=True)
    comment.refresh_from_db()
    assert comment.resolved and comment.resolved_by_id == author.pk
    assert ReviewComment.objects.filter(reply_to=comment, author=author).count() == 1

    # ---- a stranger: the review page is missing, like the course
    stranger, _ = new_page(f"sam{name}", viewport)
    log_in(stranger, base, f"sam{name}")
    response = stranger.goto(f"{base}/courses/{slug}/review/")
    assert response.status == 404
    assert console.errors == [] and mine_console.errors == []
