"""Review comments tied to squares (issue 38 item 18): reviewers and staff comment on a course in review, on a square
of its board or the whole course; its author reads them, replies and marks them resolved, also after a send back;
anyone else gets the 404 of a missing course. Bad input is a 4xx, never a 500."""

import pytest
from django.contrib.auth.models import Group

from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound
from roboracer.courses import selectors, services
from roboracer.courses.models import Course, ReviewComment
from tests.courses.test_builder import api, course_json, move


@pytest.fixture
def people(make_user, db):
    reviewer = make_user("rita")
    reviewer.groups.add(Group.objects.get_or_create(name="reviewers")[0])
    return {"author": make_user("ada"), "stranger": make_user("sam"), "reviewer": reviewer,
            "staff": make_user("stu", is_staff=True)}


@pytest.fixture
def in_review(people):
    """A private draft of ada's (Tiny Yard's elements: 8 by 8), submitted for review."""
    response = api(people["author"]).post("/api/courses/", {"data": course_json()}, format="json")
    assert response.status_code == 201, response.content
    slug = response.json()["slug"]
    assert move(people["author"], slug, "review").status_code == 200
    return slug


def comments_url(slug):
    return f"/api/courses/{slug}/comments/"


def post(user, slug, body):
    return api(user).post(comments_url(slug), body, format="json")


def test_a_reviewer_comments_on_a_square_and_the_author_reads_it_with_its_number(people, in_review):
    made = post(people["reviewer"], in_review, {"text": "  This belt runs into the wall.  ", "x": 3, "y": 5})
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["number"], body["x"], body["y"], body["text"]) == (1, 3, 5, "This belt runs into the wall.")
    assert (body["author"], body["by_course_author"], body["resolved"], body["on_board"]) == ("rita", False, False, True)
    whole = post(people["staff"], in_review, {"text": "Nice course overall."})
    assert whole.status_code == 201 and (whole.json()["number"], whole.json()["x"]) == (2, None)
    listed = api(people["author"]).get(comments_url(in_review))
    assert listed.status_code == 200
    got = listed.json()
    assert [(c["number"], c["x"], c["y"], c["author"]) for c in got["comments"]] == [(1, 3, 5, "rita"), (2, None, None, "stu")]
    assert (got["may_comment"], got["may_reply"]) == (False, True)  # the author replies, does not start threads
    reviewer_view = api(people["reviewer"]).get(comments_url(in_review)).json()
    assert (reviewer_view["may_comment"], reviewer_view["may_reply"]) == (True, True)
    assert selectors.editor_urls(course=Course.objects.get(slug=in_review))["comments"] == comments_url(in_review)


@pytest.mark.parametrize(("x", "y"), [(8, 0), (0, 8), (-1, 2), (2, -1), (10**6, 1), (64, 64)])
def test_a_square_off_the_board_is_a_400_naming_the_board(people, in_review, x, y):
    response = post(people["reviewer"], in_review, {"text": "here", "x": x, "y": y})
    assert response.status_code == 400
    assert f"({x}, {y}) is not on the course's board, which is 8 by 8" in response.json()["detail"]
    assert not ReviewComment.objects.exists()


def test_the_last_square_of_the_board_is_on_it(people, in_review):
    assert post(people["reviewer"], in_review, {"text": "corner", "x": 7, "y": 7}).status_code == 201


@pytest.mark.parametrize("body", [
    {"text": "half a square", "x": 3},
    {"text": "half a square", "y": 3},
    {"text": "not a number", "x": "three", "y": 1},
    {"text": "a fraction", "x": 1.5, "y": 1},
    {"text": "a list", "x": [1], "y": 1},
    {"text": "an object", "x": {"a": 1}, "y": 1},
    {"text": "true is not a column", "x": True, "y": 1},
    {"text": "a huge string", "x": "9" * 5000, "y": 1},
    {"text": ""},
    {"text": "   \n\t "},
    {"text": "x" * 2001},
    {"text": {"nested": {"json": [1, 2]}}},
    {"text": ["a", "list"]},
    {"text": None},
    {"text": "a NUL \x00 inside"},
    {"text": "a right-to-left override \u202e inside"},
    {"x": 1, "y": 1},
    {"text": "reply to what?", "reply_to": "abc"},
    {"text": "reply to nothing", "reply_to": 0},
])
def test_hostile_bodies_are_a_400_and_write_nothing(people, in_review, body):
    response = post(people["reviewer"], in_review, body)
    assert response.status_code == 400, response.content
    assert response.json()["detail"]
    assert not ReviewComment.objects.exists()


@pytest.mark.parametrize("body", ['[1, 2, 3]', '"just a string"', '{"text": ', 'null'])
def test_a_body_that_is_not_an_object_is_a_400(people, in_review, body):
    response = api(people["reviewer"]).generic("POST", comments_url(in_review), body, content_type="application/json")
    assert response.status_code == 400


def test_unicode_text_is_kept_and_a_huge_body_is_a_413(people, in_review):
    text = "Ce tapis 🚧 tourne à gauche — 曲がり角\nsecond line"
    made = post(people["reviewer"], in_review, {"text": text, "x": 0, "y": 0})
    assert made.status_code == 201 and made.json()["text"] == text
    huge = post(people["reviewer"], in_review, {"text": "y" * (300 * 1024)})
    assert huge.status_code == 413
    assert ReviewComment.objects.count() == 1


def test_strangers_and_guests_get_the_404_of_a_missing_course(people, in_review):
    post(people["reviewer"], in_review, {"text": "a secret remark", "x": 1, "y": 1})
    comment = ReviewComment.objects.get()
    missing = api(people["stranger"]).get(comments_url("no-such-course-xyz"))
    assert missing.status_code == 404
    for user in (people["stranger"], None):
        client = api(user)
        read = client.get(comments_url(in_review))
        assert read.status_code == 404 and read.json()["detail"] == f"there is no course named '{in_review}'"
        assert "secret" not in read.content.decode()
    write = post(people["stranger"], in_review, {"text": "let me in", "x": 1, "y": 1})
    assert write.status_code == 404 and write.json()["detail"] == f"there is no course named '{in_review}'"
    reply = post(people["stranger"], in_review, {"text": "me too", "reply_to": comment.pk})
    assert reply.status_code == 404
    resolve = api(people["stranger"]).patch(f"{comments_url(in_review)}{comment.pk}/", {"resolved": True}, format="json")
    assert resolve.status_code == 404 and resolve.json()["detail"] == f"there is no course named '{in_review}'"
    comment.refresh_from_db()
    assert not comment.resolved and ReviewComment.objects.count() == 1


def test_a_public_course_does_not_show_its_comments_to_players(people, in_review):
    """Sent back to development (it was submitted from there), the course is public; its comments are not."""
    slug = in_review
    assert move(people["author"], slug, "private").status_code == 200  # withdraw
    assert move(people["author"], slug, "development").status_code == 200
    assert move(people["author"], slug, "review").status_code == 200
    post(people["reviewer"], slug, {"text": "too easy", "x": 2, "y": 2})
    assert move(people["reviewer"], slug, "development", reason="see the comments").status_code == 200
    assert api(people["stranger"]).get(f"/api/courses/{slug}/").status_code == 200  # the course is public
    assert api(people["stranger"]).get(comments_url(slug)).status_code == 404
    assert api(None).get(comments_url(slug)).status_code == 404
    assert api(people["author"]).get(comments_url(slug)).json()["comments"][0]["text"] == "too easy"


def test_only_reviewers_and_staff_start_a_comment_and_only_in_review(people, in_review):
    author = post(people["author"], in_review, {"text": "my own remark", "x": 1, "y": 1})
    assert author.status_code == 403 and "author replies" in author.json()["detail"]
    post(people["reviewer"], in_review, {"text": "fix the pit", "x": 1, "y": 1})
    assert move(people["reviewer"], in_review, "private", reason="see the comments").status_code == 200
    # Sent back to private: the reviewer no longer sees the course at all; staff do, and are told why not.
    assert post(people["reviewer"], in_review, {"text": "one more"}).status_code == 404
    late = post(people["staff"], in_review, {"text": "one more"})
    assert late.status_code == 409 and "comments are made while it is in review" in late.json()["detail"]


def test_after_a_send_back_the_author_reads_replies_and_resolves(people, in_review):
    first = post(people["reviewer"], in_review, {"text": "The start is boxed in", "x": 0, "y": 7}).json()
    assert move(people["reviewer"], in_review, "private", reason="see the comments").status_code == 200
    author = api(people["author"])
    listed = author.get(comments_url(in_review)).json()
    assert [c["text"] for c in listed["comments"]] == ["The start is boxed in"]
    reply = post(people["author"], in_review, {"text": "Moved it one square up", "reply_to": first["id"]})
    assert reply.status_code == 201, reply.content
    assert (reply.json()["reply_to"], reply.json()["number"], reply.json()["by_course_author"]) == (first["id"], None, True)
    # A reply to a reply joins the thread; a reply takes no square of its own.
    nested = post(people["author"], in_review, {"text": "and turned it", "reply_to": reply.json()["id"]})
    assert nested.status_code == 201 and nested.json()["reply_to"] == first["id"]
    squared = post(people["author"], in_review, {"text": "here", "reply_to": first["id"], "x": 1, "y": 1})
    assert squared.status_code == 400
    done = author.patch(f"{comments_url(in_review)}{first['id']}/", {"resolved": True}, format="json")
    assert done.status_code == 200
    assert (done.json()["resolved"], done.json()["resolved_by"], done.json()["number"]) == (True, "ada", 1)
    assert done.json()["resolved_at"]
    reply_resolve = author.patch(f"{comments_url(in_review)}{reply.json()['id']}/", {"resolved": True}, format="json")
    assert reply_resolve.status_code == 400
    again = author.patch(f"{comments_url(in_review)}{first['id']}/", {"resolved": False}, format="json")
    assert (again.json()["resolved"], again.json()["resolved_by"], again.json()["resolved_at"]) == (False, None, None)
    bad = author.patch(f"{comments_url(in_review)}{first['id']}/", {"resolved": {"x": 1}}, format="json")
    assert bad.status_code == 400


def test_a_comment_of_another_course_is_a_404(people, in_review):
    other = api(people["author"]).post("/api/courses/", {"data": course_json("Other Loop")}, format="json").json()["slug"]
    assert move(people["author"], other, "review").status_code == 200
    theirs = post(people["reviewer"], other, {"text": "on the other course", "x": 1, "y": 1}).json()
    reply = post(people["author"], in_review, {"text": "wrong course", "reply_to": theirs["id"]})
    assert reply.status_code == 404 and reply.json()["detail"] == f"there is no comment {theirs['id']} on this course"
    resolve = api(people["author"]).patch(f"{comments_url(in_review)}{theirs['id']}/", {"resolved": True}, format="json")
    assert resolve.status_code == 404
    huge_id = api(people["author"]).patch(f"{comments_url(in_review)}{10**30}/", {"resolved": True}, format="json")
    assert huge_id.status_code == 404


def test_a_stranger_cannot_resolve_or_reply_on_a_public_course_either(people, courses):
    """Tiny Yard is stable and public: a stranger still gets a 404 for its comments, and a reviewer may not start
    one (it is not in review)."""
    assert api(people["stranger"]).get(comments_url("tiny-yard")).status_code == 404
    assert post(people["reviewer"], "tiny-yard", {"text": "hm", "x": 1, "y": 1}).status_code == 409


def test_the_services_are_keyword_only_and_cap_a_course(people, in_review, monkeypatch):
    with pytest.raises(TypeError):
        services.add_comment(people["reviewer"], in_review, "positional")
    monkeypatch.setattr(services, "COMMENTS_PER_COURSE", 2)
    services.add_comment(user=people["reviewer"], slug=in_review, text="one")
    services.add_comment(user=people["reviewer"], slug=in_review, text="two", x=1, y=1)
    with pytest.raises(Conflict):
        services.add_comment(user=people["reviewer"], slug=in_review, text="three")
    with pytest.raises(InvalidInput):
        services.add_comment(user=people["reviewer"], slug=in_review, text="half", x=1)
    with pytest.raises(NotAllowed):
        services.add_comment(user=people["author"], slug=in_review, text="mine")
    with pytest.raises(NotFound):
        services.resolve_comment(user=people["stranger"], slug=in_review, comment_id=1, resolved=True)


def test_a_resize_keeps_the_comment_but_says_it_is_off_the_board(people, in_review):
    post(people["reviewer"], in_review, {"text": "far corner", "x": 7, "y": 7})
    Course.objects.filter(slug=in_review).update(data={**Course.objects.get(slug=in_review).data, "width": 5})
    got = api(people["author"]).get(comments_url(in_review)).json()["comments"][0]
    assert (got["x"], got["y"], got["on_board"]) == (7, 7, False)


def test_the_review_page_is_for_the_author_reviewers_and_staff_only(people, in_review, client, courses):
    page = f"/courses/{in_review}/review/"
    for user in ("reviewer", "staff", "author"):
        client.force_login(people[user])
        response = client.get(page)
        assert response.status_code == 200, user
        html = response.content.decode()
        assert 'id="review-init"' in html and f"/api/courses/{in_review}/comments/" in html
        assert ('id="review-transitions"' in html) == (user != "author")  # the author decides nothing here
        assert f'href="{page}"' in client.get(f"/courses/{in_review}/").content.decode()  # the course page links it
    client.force_login(people["reviewer"])
    assert f'href="{page}"' in client.get("/courses/review/").content.decode()  # and so does the queue
    client.force_login(people["stranger"])
    missing = client.get(page)
    assert missing.status_code == 404 and client.get("/courses/no-such-course/review/").status_code == 404
    public = client.get("/courses/tiny-yard/")
    assert public.status_code == 200 and 'id="course-review-link"' not in public.content.decode()
    assert client.get("/courses/tiny-yard/review/").status_code == 404  # public, but no comments for a stranger
    client.logout()
    assert client.get(page).status_code == 302  # to the login page
