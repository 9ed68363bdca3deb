"""Issue 17 end to end on the real stack: a signed-up author opens the course editor from the gallery, builds a
4x4 course (a start and a belt line by mouse, a check point by keyboard), sees the validator's error and then
none, saves, test-drives it (a private game on the draft), submits it; a staff user approves it in the review
queue; the course is then in the lobby's create-game list and in the gallery. A bundled course imported
through the editor exports back unchanged."""

import json
import re
from pathlib import Path

import pytest

from games.models import Game
from roboracer.courses.models import Course
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import PASSWORD, PHONE, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1280, "height": 900}
COURSES = Path(__file__).resolve().parents[2] / "engine" / "courses"

# The client position of a square's centre (or a point on it), from the board's own SVG transform.
SQUARE_JS = """([x, y, fx, fy]) => {
  const svg = document.querySelector('#editor-root svg.rr-board');
  const p = new DOMPoint((x + fx) * 100, (y + fy) * 100).matrixTransform(svg.getScreenCTM());
  return [p.x, p.y];
}"""
PROBLEMS_JS = "() => [...document.querySelectorAll('#editor-root .ed-errors .ed-problem')].map(b => b.textContent)"


def square(page, x, y, fx=0.5, fy=0.5):
    return page.evaluate(SQUARE_JS, [x, y, fx, fy])


def shortcut(page, tool):
    """The key the page lists for a tool (its button's aria-keyshortcuts)."""
    return page.get_attribute(f"#editor-root button.ed-tool[data-tool='{tool}']", "aria-keyshortcuts")


def set_field(page, selector, value):
    page.fill(selector, str(value))
    page.press(selector, "Tab")  # a change event


def log_in(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_url(f"{base}/")


def no_sideways_scroll(page):
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map(e => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 8)""")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"], wide


def test_build_validate_test_drive_submit_approve_and_find_it(live_stack, courses, new_page, django_user_model):
    base = live_stack.base_url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page, console = new_page("ada", DESKTOP)
    sign_up(page, base, "ada")

    # ---- the gallery's "New course" opens the editor on a new course
    page.goto(f"{base}/courses/")
    page.click("a.button:has-text('New course')")
    page.wait_for_url(f"{base}/courses/new/")
    page.wait_for_selector("#editor-root[data-ready='1'] svg.rr-board")

    # ---- the course's properties: a name, 4x4, one player
    set_field(page, "#ed-name", "Little Loop")
    set_field(page, "#ed-width", 4)
    set_field(page, "#ed-height", 4)
    page.click("#ed-resize")
    set_field(page, "#ed-max-players", 1)
    page.wait_for_function("() => document.querySelector('#editor-root svg.rr-board').getAttribute('viewBox')"
                           ".split(' ').map(Number)[2] < 500")

    # ---- by mouse: the start tool, a click on (0,3); the belt tool, a drag from (1,3) up to (1,1)
    page.click("#editor-root button.ed-tool[data-tool='start']")
    page.mouse.click(*square(page, 0, 3))
    assert "Placed Start at (0, 3)" in page.inner_text(".ed-status")
    page.click("#editor-root button.ed-tool[data-tool='belt']")
    page.mouse.move(*square(page, 1, 3))
    page.mouse.down()
    page.mouse.move(*square(page, 1, 2), steps=4)
    page.mouse.move(*square(page, 1, 1), steps=4)
    page.mouse.up()
    assert "Placed Belts at a line of 3 from (1, 3) to (1, 1)" in page.inner_text(".ed-status")

    # ---- the validator (through the API) lists the missing check point as an error
    page.wait_for_function(f"() => ({PROBLEMS_JS})().some(t => t.includes('a race course needs at least one check point'))")

    # ---- by keyboard: the check point's listed shortcut, arrows to (3,0), Enter
    key = shortcut(page, "checkpoint")
    assert key and page.locator("#ed-keys-panel dt", has_text=key.replace("Shift+", "").upper()).count() >= 1
    page.locator("#editor-root .rr-board-wrap").focus()
    page.keyboard.press(key)
    assert page.get_attribute("#editor-root button.ed-tool[data-tool='checkpoint']", "aria-pressed") == "true"
    for arrow in ["ArrowUp", "ArrowUp", "ArrowUp", "ArrowRight", "ArrowRight", "ArrowRight"]:
        page.keyboard.press(arrow)
    page.keyboard.press("Enter")
    assert "Placed Checkpoint at (3, 0)" in page.inner_text(".ed-status")

    # ---- the error is gone: nothing listed
    page.wait_for_selector("#ed-check-panel .ed-ok:has-text('No errors or warnings')")
    assert page.evaluate(PROBLEMS_JS) == []

    # ---- save: a private draft of ada's, the page now on its slug
    page.click("#ed-save")
    # the slug is the name and random characters (issue 33 item 12: it reveals no hidden course)
    page.wait_for_url(re.compile(r".*/courses/little-loop-[a-z2-9]{6}/edit/$"))
    slug = page.url.rstrip("/").split("/")[-2]
    page.wait_for_selector("#ed-publish-panel .ed-state-words[data-state='private']")
    course = Course.objects.get(slug=slug)
    assert course.state == "private" and course.author.username == "ada"
    assert course.data["width"] == 4 and course.data["height"] == 4
    types = sorted((e["type"], tuple(e["at"])) for e in course.data["elements"])
    assert types == [("belt", (1, 1)), ("belt", (1, 2)), ("belt", (1, 3)), ("checkpoint", (3, 0)), ("start", (0, 3))]
    assert {e["dir"] for e in course.data["elements"] if e["type"] == "belt"} == {"N"}
    assert not page.locator("#editor-root .ed-strip").is_visible()  # the phone's tool strip: not on a desktop
    page.evaluate("() => window.scrollTo(0, 0)")  # the board is sticky: from the top, as a visitor first sees it
    page.screenshot(path=str(ARTIFACTS / "course-editor-desktop.png"), full_page=True)

    # ---- test drive: a private solo game on the draft, its board the course
    page.click("#ed-test-drive")
    page.wait_for_url(f"{base}/games/*/")
    game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert game.test_drive and game.visibility == Game.Visibility.PRIVATE and game.course_id == course.pk
    assert game.course_data["elements"] == course.data["elements"]
    board = page.locator("svg.rr-board").first
    board.locator("g.el-checkpoint").wait_for()
    assert board.locator("g.el-belt").count() == 3 and board.locator("g.el-start").count() == 1
    page.screenshot(path=str(ARTIFACTS / "course-test-drive-desktop.png"), full_page=True)

    # ---- submit it for review from the editor
    page.goto(f"{base}/courses/{slug}/edit/")
    page.wait_for_selector("#editor-root[data-ready='1']")
    page.fill("#ed-reason", "ready for the lobby")
    page.click("#ed-publish-panel button.ed-transition[data-to='review']")
    page.wait_for_selector("#ed-publish-panel .ed-state-words[data-state='review']")
    course.refresh_from_db()
    assert course.state == "review"
    assert page.is_disabled("#ed-save")  # frozen while in review (a PUT would be a 409)

    # ---- the editor on a phone
    phone, phone_console = new_page("ada-phone", PHONE)
    log_in(phone, base, "ada")
    phone.goto(f"{base}/courses/{slug}/edit/")
    phone.wait_for_selector("#editor-root[data-ready='1'] svg.rr-board")
    no_sideways_scroll(phone)
    # the tools right above the board, 44 px targets, the same choice as the palette's
    strip = phone.locator("#editor-root .ed-strip")
    assert strip.is_visible()
    sizes = phone.eval_on_selector_all("#editor-root .ed-strip-tool", "bs => bs.map(b => [b.offsetWidth, b.offsetHeight])")
    assert len(sizes) == phone.locator("#editor-root button.ed-tool").count() and all(w >= 44 and h >= 44 for w, h in sizes)
    strip_box, board_box = strip.bounding_box(), phone.locator("#editor-root .rr-board-wrap").bounding_box()
    assert strip_box["y"] + strip_box["height"] <= board_box["y"] + 1
    phone.click("#editor-root .ed-strip-tool[data-tool='pit']")
    assert phone.get_attribute("#editor-root button.ed-tool[data-tool='pit']", "aria-pressed") == "true"
    assert phone.get_attribute("#editor-root .ed-strip-tool[data-tool='select']", "aria-pressed") == "false"
    phone.screenshot(path=str(ARTIFACTS / "course-editor-phone.png"), full_page=True)
    phone.eval_on_selector_all("#editor-root details", "ds => ds.forEach(d => { d.open = true; })")
    no_sideways_scroll(phone)  # every panel open: palette, properties, course, files, shortcuts
    clipped = phone.eval_on_selector_all("#editor-root button.ed-tool", """bs => bs.filter(b => {
        const k = b.querySelector('kbd');
        return k && k.getBoundingClientRect().right > b.getBoundingClientRect().right + 0.5;
    }).map(b => b.dataset.tool)""")
    assert clipped == []  # every tool's key is readable inside its button
    phone.screenshot(path=str(ARTIFACTS / "course-editor-phone-panels.png"), full_page=True)

    # ---- a staff user approves it in the review queue
    django_user_model.objects.create_user(username="rita", password=PASSWORD, is_staff=True)
    staff, staff_console = new_page("rita", DESKTOP)
    log_in(staff, base, "rita")
    staff.goto(f"{base}/courses/review/")
    entry = staff.locator(f"#review-queue li[data-course='{slug}']")
    entry.locator(".course-preview svg.rr-board").wait_for()  # the reviewer sees the course itself
    assert "ready for the lobby" in entry.locator(".review-reason").inner_text()  # the author's reason
    assert entry.locator("a.review-editor-link").get_attribute("href") == f"/courses/{slug}/edit/"
    staff.screenshot(path=str(ARTIFACTS / "course-review-queue-desktop.png"), full_page=True)
    entry.locator("button:has-text('Approve')").click()
    staff.wait_for_load_state()
    course.refresh_from_db()
    assert course.state == "stable"
    assert [(t.from_state, t.to_state, t.by.username) for t in course.transitions.order_by("at")] == [
        ("private", "review", "ada"), ("review", "stable", "rita")]

    # ---- the author finds it in the lobby's create-game course list and in the gallery
    page.goto(f"{base}/")
    options = page.eval_on_selector_all("#id_course option", "os => os.map(o => o.textContent.trim())")
    assert any(text.startswith("Little Loop") for text in options), options
    page.goto(f"{base}/courses/")
    card = page.locator(f"#course-gallery li[data-course='{slug}']")
    card.wait_for()
    card.locator("svg.rr-board").wait_for()
    page.screenshot(path=str(ARTIFACTS / "course-gallery-desktop.png"), full_page=True)
    phone.goto(f"{base}/courses/")
    phone.locator(f"#course-gallery li[data-course='{slug}'] svg.rr-board").wait_for()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(ARTIFACTS / "course-gallery-phone.png"), full_page=True)

    # ---- a stable course is frozen: the author's next save is a new private version, the gallery keeps v1
    page.goto(f"{base}/courses/{slug}/edit/")
    page.wait_for_selector("#ed-publish-panel .ed-state-words[data-state='stable']")
    page.mouse.click(*square(page, 0, 3))  # the Select tool (the default) puts the cursor on the start
    page.locator("#editor-root .rr-board-wrap").focus()
    page.keyboard.press("r")
    page.keyboard.press("Control+s")
    page.wait_for_url(f"{base}/courses/{slug}-v2/edit/")
    assert f"Saved as a new version (v2, {slug}-v2)" in page.inner_text(".ed-status")
    v2 = Course.objects.get(slug=f"{slug}-v2")
    assert (v2.state, v2.version, v2.lineage) == ("private", 2, slug)
    assert [e["dir"] for e in v2.data["elements"] if e["type"] == "start"] == ["E"]
    course.refresh_from_db()
    assert course.state == "stable" and [e["dir"] for e in course.data["elements"] if e["type"] == "start"] == ["N"]

    # ---- unsaved work is kept in the browser and offered back, never restored silently
    page.keyboard.press("r")  # the start turns S, not saved
    page.wait_for_function(f"() => !!localStorage.getItem('roboracer.editor.draft.{slug}-v2')")
    again = page.context.new_page()  # the same browser: the tab closed and opened again
    again.goto(f"{base}/courses/{slug}-v2/edit/")
    again.wait_for_selector("#editor-root[data-ready='1'] #ed-restore")
    assert again.inner_text(".ed-restore p").startswith("Restore your unsaved changes from ")
    assert "(unsaved)" not in again.inner_text(".ed-title")  # nothing restored yet
    again.click("#ed-restore")
    again.wait_for_selector(".ed-title:has-text('(unsaved)')")
    assert again.locator("#ed-restore").count() == 0
    again.keyboard.press("Control+s")
    again.wait_for_function("() => document.querySelector('.ed-status').textContent.startsWith('Saved (')")
    assert [e["dir"] for e in Course.objects.get(slug=f"{slug}-v2").data["elements"] if e["type"] == "start"] == ["S"]
    assert again.evaluate(f"() => localStorage.getItem('roboracer.editor.draft.{slug}-v2')") is None
    again.close()

    assert console.errors == [] and phone_console.errors == [] and staff_console.errors == []


def test_a_bundled_course_imports_and_exports_unchanged(live_stack, courses, new_page):
    base = live_stack.base_url
    page, console = new_page("ben", DESKTOP)
    sign_up(page, base, "ben")
    page.goto(f"{base}/courses/new/")
    page.wait_for_selector("#editor-root[data-ready='1']")
    text = (COURSES / "tiny-yard.json").read_text()
    page.locator("#ed-file-panel > summary").click()
    page.fill("#ed-import-text", text)
    page.click("#ed-import-paste")
    page.wait_for_selector("#ed-file-panel .ed-ok:has-text('Imported Tiny Yard')")
    with page.expect_download() as download:
        page.click("#ed-export")
    exported = Path(download.value.path()).read_text()
    assert json.loads(exported) == json.loads(text)

    # an invalid file is refused with the validator's messages, and changes nothing
    broken = json.loads(text)
    broken["elements"] = [e for e in broken["elements"] if e["type"] != "checkpoint"]
    page.fill("#ed-import-text", json.dumps(broken))
    page.click("#ed-import-paste")
    page.wait_for_selector("#ed-file-panel .ed-bad:has-text('Not imported')")
    assert "a race course needs at least one check point" in page.inner_text("#ed-file-panel")
    with page.expect_download() as download:
        page.click("#ed-export")
    assert json.loads(Path(download.value.path()).read_text()) == json.loads(text)
    assert console.errors == []
