"""The course builder's site side (issue 17): states and review, permissions (a stranger's reads and writes of a
private draft are a 404 like a missing slug), versions, the body limit, bad input, test drives, the gallery and
the create-game form."""

import copy
import json
import re

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from rest_framework.test import APIClient

import engine
from games.models import Game
from roboracer.courses import services
from roboracer.courses.api import MAX_BODY
from roboracer.courses.models import Course, CourseTransition


def course_json(name="Little Loop", players=(2, 4)):
    """A small valid course (Tiny Yard's elements, under another name and player counts)."""
    data = copy.deepcopy(engine.bundled_course_data("tiny-yard"))
    data["name"] = name
    data["players"] = list(players)
    return data


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def people(make_user, db):
    reviewer = make_user("rita")
    # get_or_create: a transactional test (test_migration.py) flushes what the data migration made.
    reviewer.groups.add(Group.objects.get_or_create(name="reviewers")[0])
    return {
        "author": make_user("ada"),
        "stranger": make_user("sam"),
        "reviewer": reviewer,
        "staff": make_user("stu", is_staff=True),
    }


@pytest.fixture
def draft(people):
    response = api(people["author"]).post("/api/courses/", {"data": course_json()}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def move(user, slug, to, reason=""):
    return api(user).post(f"/api/courses/{slug}/transition/", {"to": to, "reason": reason}, format="json")


def test_bundled_courses_are_stable_version_one_without_author(courses):
    course = Course.objects.get(slug="tiny-yard")
    assert (course.state, course.version, course.lineage, course.author) == ("stable", 1, "tiny-yard", None)
    listed = {row["slug"]: row for row in api().get("/api/courses/").json()}
    assert listed["tiny-yard"]["state"] == "stable" and listed["tiny-yard"]["author"] is None


def test_create_makes_a_private_course_of_the_author(people, draft):
    assert re.fullmatch(r"little-loop-[a-z2-9]{6}", draft["slug"]) and draft["lineage"] == draft["slug"]
    assert (draft["state"], draft["version"], draft["author"]) == ("private", 1, "ada")
    assert draft["editable"] is True and draft["history"] == []
    assert set(draft["can"]) == {"development", "review"}
    again = api(people["author"]).post("/api/courses/", {"data": course_json()}, format="json").json()
    # The slug comes from the name, made unique by random characters (never "-2": issue 33 item 12).
    assert re.fullmatch(r"little-loop-[a-z2-9]{6}", again["slug"]) and again["slug"] != draft["slug"]


def test_a_strangers_read_and_write_of_a_private_draft_is_a_404_like_a_missing_slug(people, draft):
    slug = draft["slug"]
    for user in (people["stranger"], people["reviewer"], None):
        client = api(user)
        seen, missing = client.get(f"/api/courses/{slug}/"), client.get("/api/courses/no-such-course/")
        assert seen.status_code == missing.status_code == 404
        assert seen.json()["detail"] == missing.json()["detail"].replace("no-such-course", slug)
        assert slug not in [row["slug"] for row in client.get("/api/courses/").json()]
        assert client.get(f"/api/courses/{slug}/versions/").status_code == 404
    stranger = api(people["stranger"])
    for path, body in ((f"/api/courses/{slug}/transition/", {"to": "development"}),
                       (f"/api/courses/{slug}/test-drive/", {"seats": 1})):
        answer, missing = stranger.post(path, body, format="json"), stranger.post(
            path.replace(slug, "no-such-course"), body, format="json")
        assert answer.status_code == missing.status_code == 404
        assert answer.json()["detail"] == missing.json()["detail"].replace("no-such-course", slug)
    put = stranger.put(f"/api/courses/{slug}/", {"data": course_json("Hijacked")}, format="json")
    assert put.status_code == 404
    assert Course.objects.get(slug=slug).name == "Little Loop" and not Game.objects.exists()
    # The pages too: the course page and its editor are the same 404 as a missing course.
    page = Client()
    page.force_login(people["stranger"])
    assert page.get(f"/courses/{slug}/").status_code == 404
    assert page.get(f"/courses/{slug}/edit/").status_code == 404


def test_development_is_readable_by_everyone_but_writable_only_by_author_and_staff(people, draft):
    slug = draft["slug"]
    assert move(people["author"], slug, "development").status_code == 200
    assert api().get(f"/api/courses/{slug}/").json()["editable"] is False
    stranger = api(people["stranger"])
    assert stranger.get(f"/api/courses/{slug}/").status_code == 200
    assert stranger.put(f"/api/courses/{slug}/", {"data": course_json("Mine now")}, format="json").status_code == 403
    assert move(people["stranger"], slug, "private").status_code == 409
    assert api().put(f"/api/courses/{slug}/", {"data": course_json()}, format="json").status_code == 403
    changed = api(people["staff"]).put(f"/api/courses/{slug}/", {"data": course_json("Staff fixed")}, format="json")
    assert changed.status_code == 200 and changed.json()["name"] == "Staff fixed" and changed.json()["slug"] == slug
    assert Course.objects.get(slug=slug).name == "Staff fixed"


def test_review_approved_by_a_reviewer_and_every_change_recorded(people, draft):
    slug = draft["slug"]
    submitted = move(people["author"], slug, "review", "ready")
    assert submitted.status_code == 200 and submitted.json()["state"] == "review"
    # In review: strangers do not see it, reviewers do; the author cannot approve nor change it.
    assert api(people["stranger"]).get(f"/api/courses/{slug}/").status_code == 404
    assert "stable" in api(people["reviewer"]).get(f"/api/courses/{slug}/").json()["can"]
    assert move(people["author"], slug, "stable").status_code == 409
    put = api(people["author"]).put(f"/api/courses/{slug}/", {"data": course_json()}, format="json")
    assert put.status_code == 409 and "withdraw" in put.json()["detail"]
    approved = move(people["reviewer"], slug, "stable", "nice loop")
    assert approved.status_code == 200 and approved.json()["state"] == "stable"
    history = approved.json()["history"]
    assert [(h["from"], h["to"], h["by"], h["reason"]) for h in history] == [
        ("private", "review", "ada", "ready"), ("review", "stable", "rita", "nice loop")]
    assert CourseTransition.objects.filter(course__slug=slug).count() == 2
    # Only staff retire a stable course.
    assert move(people["reviewer"], slug, "development").status_code == 409
    assert move(people["author"], slug, "development").status_code == 409
    assert move(people["staff"], slug, "development", "broken").json()["state"] == "development"


def test_send_back_needs_a_reason_and_withdraw_does_not(people, draft):
    slug = draft["slug"]
    move(people["author"], slug, "review")
    refused = move(people["reviewer"], slug, "private", "  ")
    assert refused.status_code == 409 and "reason" in refused.json()["detail"]
    assert Course.objects.get(slug=slug).state == "review" and CourseTransition.objects.count() == 1
    sent_back = move(people["reviewer"], slug, "private", "the belt runs into a wall")
    assert sent_back.status_code == 200 and sent_back.json()["history"][-1]["reason"] == "the belt runs into a wall"
    move(people["author"], slug, "review")
    withdrawn = move(people["author"], slug, "private")
    assert withdrawn.status_code == 200 and withdrawn.json()["state"] == "private"


def test_a_course_in_review_goes_back_to_the_state_it_was_submitted_from(people, draft):
    """A private draft sent back stays private (not playable by everyone); one submitted from development
    goes back to development."""
    slug = draft["slug"]
    move(people["author"], slug, "review")
    assert api(people["reviewer"]).get(f"/api/courses/{slug}/").json()["can"] == ["private", "stable"]
    wrong = move(people["reviewer"], slug, "development", "not yet")
    assert wrong.status_code == 409 and "submitted from" in wrong.json()["detail"]
    assert move(people["reviewer"], slug, "private", "not yet").json()["state"] == "private"
    assert api(people["stranger"]).get(f"/api/courses/{slug}/").status_code == 404
    move(people["author"], slug, "development")
    move(people["author"], slug, "review")
    assert move(people["author"], slug, "private").status_code == 409
    assert move(people["reviewer"], slug, "development", "again").json()["state"] == "development"


@pytest.mark.parametrize(("start", "to"), [("private", "stable"), ("development", "stable"), ("private", "private"),
                                          ("stable", "review"), ("stable", "private")])
def test_transitions_the_rules_do_not_have_are_conflicts_naming_why(people, start, to):
    course = services.create_course(user=people["author"], data=course_json())
    Course.objects.filter(pk=course.pk).update(state=start)
    for user in (people["author"], people["staff"]):
        answer = move(user, course.slug, to)
        assert answer.status_code == 409 and answer.json()["detail"]
    assert Course.objects.get(pk=course.pk).state == start and not CourseTransition.objects.exists()


def test_a_reviewer_cannot_approve_their_own_course(people):
    own = services.create_course(user=people["reviewer"], data=course_json("Rita's Run"))
    move(people["reviewer"], own.slug, "review")
    assert move(people["reviewer"], own.slug, "stable").status_code == 409
    assert move(people["staff"], own.slug, "stable").status_code == 200


def test_editing_a_stable_course_makes_a_new_version_and_games_keep_their_copy(people, draft):
    slug = draft["slug"]
    move(people["author"], slug, "review")
    move(people["staff"], slug, "stable")
    game = api(people["stranger"]).post("/api/games/", {"course": slug, "max_seats": 2}, format="json")
    assert game.status_code == 201
    before = Game.objects.get(pk=game.json()["id"]).course_data
    changed = course_json()
    changed["elements"] = [e for e in changed["elements"] if e["type"] != "pit"]
    answer = api(people["author"]).put(f"/api/courses/{slug}/", {"data": changed}, format="json")
    assert answer.status_code == 201
    v2 = answer.json()
    assert (v2["slug"], v2["version"], v2["lineage"], v2["state"]) == (f"{slug}-v2", 2, slug, "private")
    old = Course.objects.get(slug=slug)
    assert old.state == "stable" and old.data == before and Game.objects.get(pk=game.json()["id"]).course_data == before
    assert not any(e["type"] == "pit" for e in Course.objects.get(slug=v2["slug"]).data["elements"])
    versions = api(people["author"]).get(f"/api/courses/{slug}/versions/").json()
    assert [(v["slug"], v["version"], v["state"]) for v in versions] == [(slug, 1, "stable"),
                                                                         (f"{slug}-v2", 2, "private")]
    # A stranger sees only the stable version; the gallery shows v1 until v2 is approved, then v2 only.
    assert [v["version"] for v in api(people["stranger"]).get(f"/api/courses/{slug}/versions/").json()] == [1]
    gallery = Client().get("/courses/").content.decode()
    assert f'data-course="{slug}"' in gallery and f'data-course="{slug}-v2"' not in gallery
    move(people["author"], v2["slug"], "review")
    move(people["reviewer"], v2["slug"], "stable")
    gallery = Client().get("/courses/").content.decode()
    assert f'data-course="{slug}-v2"' in gallery and f'data-course="{slug}"' not in gallery


def test_a_body_over_the_limit_is_a_413_and_saves_nothing(people, draft):
    big = course_json("Huge")
    big["padding"] = "x" * (MAX_BODY + 1)
    body = json.dumps({"data": big})
    client = api(people["author"])
    for method, path in (("post", "/api/courses/"), ("put", f"/api/courses/{draft['slug']}/"),
                         ("post", "/api/courses/validate/")):
        answer = getattr(client, method)(path, body, content_type="application/json")
        assert answer.status_code == 413 and "KiB" in answer.json()["detail"]
    assert Course.objects.filter(author=people["author"]).count() == 1
    assert Course.objects.get(slug=draft["slug"]).name == "Little Loop"


def test_invalid_json_or_course_is_a_400_with_the_validators_messages_and_nothing_saved(people, draft):
    client = api(people["author"])
    bad = course_json("Broken")
    bad["elements"].append({"type": "belt", "at": [99, 99], "dir": "N"})
    for path, method in (("/api/courses/", "post"), (f"/api/courses/{draft['slug']}/", "put")):
        answer = getattr(client, method)(path, {"data": bad}, format="json")
        assert answer.status_code == 400
        body = answer.json()
        assert body["errors"] and body["detail"] == body["errors"][0]["message"] and "warnings" in body
        garbled = getattr(client, method)(path, '{"data": {', content_type="application/json")
        assert garbled.status_code == 400 and garbled.json()["detail"]
        missing = getattr(client, method)(path, {}, format="json")
        assert missing.status_code == 400 and "data" in missing.json()["detail"]
    form = client.post("/api/courses/", {"data": "{}"}, format="multipart")
    assert form.status_code == 415 and form.json()["detail"]
    assert Course.objects.filter(author=people["author"]).count() == 1
    assert Course.objects.get(slug=draft["slug"]).data["name"] == "Little Loop"
    report = client.post("/api/courses/validate/", bad, format="json")
    assert report.status_code == 200 and report.json()["errors"][0]["message"] == body["errors"][0]["message"]
    assert client.post("/api/courses/validate/", course_json(), format="json").json()["errors"] == []
    assert api().post("/api/courses/validate/", course_json(), format="json").status_code == 403


def test_element_catalog_lists_the_engines_registry(db):
    catalog = api().get("/api/course-elements/").json()
    from engine.elements import ELEMENT_TYPES

    assert {e["type"] for e in catalog["elements"]} == set(ELEMENT_TYPES)
    assert catalog["max_side"] == 64


def test_test_drive_solo_creates_and_starts_a_private_game_below_the_minimum(people, draft):
    slug = draft["slug"]  # takes 2 to 4 players
    answer = api(people["author"]).post(f"/api/courses/{slug}/test-drive/", {"seats": 1}, format="json")
    assert answer.status_code == 201
    game = Game.objects.get(pk=answer.json()["game"])
    assert answer.json()["url"] == f"/games/{game.pk}/"
    assert game.visibility == "private" and game.test_drive and game.creator == people["author"]
    assert game.status == "programming" and game.seats.count() == 1 and game.course.slug == slug
    assert game.course_data["elements"] == Course.objects.get(slug=slug).data["elements"]
    # With more seats: a private lobby the author shares, startable with whoever came.
    lobby = api(people["author"]).post(f"/api/courses/{slug}/test-drive/", {"seats": 3}, format="json").json()
    game = Game.objects.get(pk=lobby["game"])
    assert (game.status, game.max_seats, game.visibility) == ("lobby", 3, "private")
    too_many = api(people["author"]).post(f"/api/courses/{slug}/test-drive/", {"seats": 5}, format="json")
    assert too_many.status_code == 400
    move(people["author"], slug, "development")
    assert api(people["stranger"]).post(f"/api/courses/{slug}/test-drive/", {"seats": 1},
                                        format="json").status_code == 403


def test_a_test_drive_lobby_offers_its_author_the_start_with_whoever_is_seated(people, draft):
    """The snapshot's `can_start` (the page's Start button) agrees with `start_game`: a test drive lobby starts
    with one seated, below the course's minimum of 2; the same course's ordinary game does not."""
    from games.selectors import snapshots
    from games.services import lobby as lobby_services

    slug = draft["slug"]  # takes 2 to 4 players
    lobby = api(people["author"]).post(f"/api/courses/{slug}/test-drive/", {"seats": 3}, format="json").json()
    game = Game.objects.get(pk=lobby["game"])
    assert game.seats.count() == 1
    assert snapshots.game_snapshot(game=game, user=people["author"])["can_start"] is True
    assert snapshots.game_snapshot(game=game, user=people["stranger"])["can_start"] is False  # not the creator
    page = Client()
    page.force_login(people["author"])
    html = page.get(f"/games/{game.pk}/").content.decode()
    start_form = html[html.index(f'action="/games/{game.pk}/start/"'):].split(">", 1)[0]
    assert "hidden" not in start_form  # the Start button is shown
    started = lobby_services.start_game(user=people["author"], game_id=game.pk)
    assert started.status == "programming"

    move(people["author"], slug, "development")
    plain = lobby_services.create_game(user=people["author"], course=Course.objects.get(slug=slug), max_seats=3)
    assert snapshots.game_snapshot(game=plain, user=people["author"])["can_start"] is False


def test_games_are_created_only_on_stable_and_development_courses(people, draft):
    client = api(people["author"])
    refused = client.post("/api/games/", {"course": draft["slug"], "max_seats": 2}, format="json")
    assert refused.status_code == 400 and "no course named" in refused.json()["detail"]
    move(people["author"], draft["slug"], "development")
    assert client.post("/api/games/", {"course": draft["slug"], "max_seats": 2}, format="json").status_code == 201


def test_create_game_form_offers_stable_and_development_courses_marked_unrated(people, courses, draft):
    dev = services.create_course(user=people["author"], data=course_json("Dev Track"))
    services.transition_course(user=people["author"], slug=dev.slug, to="development")
    page = Client()
    page.force_login(people["stranger"])
    html = page.get("/").content.decode()
    assert "Dev Track (development, unrated)" in html and ">Tiny Yard<" in html
    assert "Little Loop" not in html  # a private draft is nobody's choice
    assert f"course-data-{Course.objects.get(slug=draft['slug']).pk}" not in html


def test_pages_gallery_my_courses_editor_and_review_queue(people, courses, draft):
    author = Client()
    author.force_login(people["author"])
    gallery = author.get("/courses/").content.decode()
    assert 'href="/courses/new/"' in gallery and 'id="my-courses-list"' in gallery
    assert f'href="/courses/{draft["slug"]}/"' in gallery and 'data-course="tiny-yard"' in gallery
    assert f'data-course="{draft["slug"]}"' not in gallery.split('id="course-gallery"')[1]
    editor = author.get(f"/courses/{draft['slug']}/edit/")
    html = editor.content.decode()  # the editor's template: its root and its script
    assert editor.status_code == 200 and 'id="editor-root"' in html and "/static/dist/editor.js" in html
    init = editor.context["editor_init"]
    assert init["course"]["slug"] == draft["slug"] and init["urls"]["test_drive"].endswith("/test-drive/")
    assert init["user"] == {"name": "ada", "staff": False, "reviewer": False} and init["catalog"]["elements"]
    new = author.get("/courses/new/")
    assert new.context["editor_init"]["course"] is None and new.context["editor_init"]["urls"]["detail"] is None
    assert 'id="editor-init"' in new.content.decode()
    assert Client().get("/courses/new/").status_code == 302  # sign in first
    detail = author.get(f"/courses/{draft['slug']}/").content.decode()
    assert 'id="course-edit"' in detail and "Submit for review" in detail
    stranger = Client()
    stranger.force_login(people["stranger"])
    assert stranger.get("/courses/tiny-yard/edit/").status_code == 403
    assert 'id="course-edit"' not in stranger.get("/courses/tiny-yard/").content.decode()
    assert stranger.get("/courses/review/").status_code == 404
    # The review queue: submit by the page's form, approve by the queue's form.
    author.post(f"/courses/{draft['slug']}/transition/", {"to": "review", "reason": ""})
    reviewer = Client()
    reviewer.force_login(people["reviewer"])
    queue = reviewer.get("/courses/review/").content.decode()
    assert f'data-course="{draft["slug"]}"' in queue and "by ada" in queue
    assert f'id="course-data-{Course.objects.get(slug=draft["slug"]).pk}"' in queue  # its preview's data
    assert 'name="to" value="private"' in queue  # sent back to the state it was submitted from
    reviewer.post(f"/courses/{draft['slug']}/transition/", {"to": "private", "next": "review"})
    assert Course.objects.get(slug=draft["slug"]).state == "review"  # sent back without a reason: refused
    reviewer.post(f"/courses/{draft['slug']}/transition/", {"to": "stable", "next": "review"})
    assert Course.objects.get(slug=draft["slug"]).state == "stable"
    history = author.get(f"/courses/{draft['slug']}/").content.decode()
    assert "review → stable" in history


def test_author_sees_the_games_on_their_course(people, draft):
    move(people["author"], draft["slug"], "development")
    game = api(people["stranger"]).post("/api/games/", {"course": draft["slug"], "max_seats": 2}, format="json")
    author = Client()
    author.force_login(people["author"])
    html = author.get(f"/courses/{draft['slug']}/").content.decode()
    assert f'href="/games/{game.json()["id"]}/"' in html
    stranger = Client()
    stranger.force_login(people["stranger"])
    assert 'id="course-games"' not in stranger.get(f"/courses/{draft['slug']}/").content.decode()


def test_the_lobby_links_the_builder_and_a_test_drive_links_back_to_the_editor(people, courses, draft):
    author = Client()
    author.force_login(people["author"])
    assert 'id="lobby-new-course"' in author.get("/").content.decode()
    slug = draft["slug"]
    test_drive = api(people["author"]).post(f"/api/courses/{slug}/test-drive/", {"seats": 1}, format="json").json()
    back = f'href="/courses/{slug}/edit/"'
    assert back in author.get(test_drive["url"]).content.decode()
    # an ordinary game on the same course (open for development) has no such link, even for its author
    assert move(people["author"], slug, "development").status_code == 200
    game = api(people["author"]).post("/api/games/", {"course": slug, "max_seats": 2}, format="json")
    assert game.status_code == 201
    page = author.get(f"/games/{game.json()['id']}/")
    assert page.status_code == 200 and 'id="back-to-editor"' not in page.content.decode()


@pytest.mark.parametrize("body", [
    {"data": {**course_json(), "name": "日本語のコース 🚀"}},  # no ASCII: the slug falls back to "course"
    {"data": {**course_json(), "name": "nul\x00byte"}},
    {"data": {**course_json(), "elements": [{"type": "belt", "at": [1, 1], "dir": "N", "speed": 1,
                                             "curves_from": [[[[[["N"]]]]]]}]}},
    {"data": {**course_json(), "width": 10**100}},
    {"data": {**course_json(), "elements": "not a list"}},
    {"data": [1, 2, 3]},
    {"data": None},
    {"data": {**course_json(), "players": ["2", "4"]}},
])
def test_hostile_course_bodies_are_a_4xx_or_a_clean_create_never_a_5xx(people, body):
    author = api(people["author"])
    created = author.post("/api/courses/", body, format="json")
    assert created.status_code in (201, 400), created.content
    if created.status_code == 201:
        slug = created.json()["slug"]
        assert slug.isascii() and slug == created.json()["lineage"]
        assert api(people["stranger"]).get(f"/api/courses/{slug}/").status_code == 404
    else:
        assert created.json()["detail"]
    validated = author.post("/api/courses/validate/", body.get("data"), format="json")
    assert validated.status_code in (200, 400), validated.content


def test_a_reason_with_a_nul_or_too_long_is_refused_by_the_page_form_too(people, draft):
    """The course page's form posts the reason as typed (no serializer in between): the service refuses a NUL
    (PostgreSQL would fail on it) or a reason over 2000 characters, and nothing changes."""
    author = Client()
    author.force_login(people["author"])
    for reason in ("bad\x00reason", "x" * 2001):
        response = author.post(f"/courses/{draft['slug']}/transition/", {"to": "review", "reason": reason})
        assert response.status_code == 302
        assert Course.objects.get(slug=draft["slug"]).state == "private"
    assert not CourseTransition.objects.exists()
    author.post(f"/courses/{draft['slug']}/transition/", {"to": "review", "reason": "line one\r\nline two"})
    assert Course.objects.get(slug=draft["slug"]).state == "review"


def test_review_queue_shows_the_submitters_last_reason_and_links(people, draft):
    """The queue shows the reason given with the last transition into review (not an older one), a link to
    the course page for everyone who sees the queue, and a link to the editor for staff only."""
    slug = draft["slug"]
    assert move(people["author"], slug, "review", "first try").status_code == 200
    assert move(people["author"], slug, "private").status_code == 200  # withdrawn
    assert move(people["author"], slug, "review", "fixed the <belt> loop").status_code == 200
    other = api(people["author"]).post("/api/courses/", {"data": course_json("Quiet Loop")}, format="json").json()
    assert move(people["author"], other["slug"], "review").status_code == 200

    reviewer = Client()
    reviewer.force_login(people["reviewer"])
    html = reviewer.get("/courses/review/").content.decode()
    entry = html.split(f'data-course="{slug}"')[1].split("</li>")[0]
    assert "<q>fixed the &lt;belt&gt; loop</q>" in entry and "first try" not in entry  # the last one, escaped
    assert "Submitted by ada on " in entry
    assert f'href="/courses/{slug}/" class="review-course-link"' in entry
    assert "/edit/" not in entry  # a reviewer who is not staff can't open the editor
    quiet = html.split(f'data-course="{other["slug"]}"')[1].split("</li>")[0]
    assert "no reason given" in quiet and "<q>" not in quiet

    staff = Client()
    staff.force_login(people["staff"])
    html = staff.get("/courses/review/").content.decode()
    entry = html.split(f'data-course="{slug}"')[1].split("</li>")[0]
    assert f'href="/courses/{slug}/edit/" class="review-editor-link"' in entry
    assert staff.get(f"/courses/{slug}/edit/").status_code == 200  # and the link works for them
