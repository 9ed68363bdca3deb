"""Reads of courses: who may see and write what, the gallery, the create-game form, the API's shapes."""

from __future__ import annotations

from collections import Counter

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.urls import reverse

import engine
from roboracer.accounts.selectors import player_name
from roboracer.common import how_to_play
from roboracer.courses.budget import CourseTooComplex, CpuBudget
from roboracer.courses.models import Course, CourseTransition, ReviewComment

S = Course.State
REVIEWERS = "reviewers"  # the group whose members review courses (created by a data migration)

# The gallery lists element types in the how-to-play page's order, with the same names
# (roboracer/common/how_to_play.py); floor is left out: every square a course does not fill is floor anyway.
ORDER = [kind for kind, *_ in how_to_play.ELEMENTS]


def missing(slug: str) -> str:
    """The one message for a course that does not exist and for one the viewer may not see."""
    return f"there is no course named {slug!r}"


def all_courses() -> QuerySet[Course]:
    return Course.objects.all()


def is_reviewer(*, user) -> bool:
    if not (user and user.is_authenticated):
        return False
    return bool(user.is_staff) or user.groups.filter(name=REVIEWERS).exists()


def is_author(*, user, course: Course) -> bool:
    return bool(user and user.is_authenticated and course.author_id is not None and course.author_id == user.pk)


def may_write(*, user, course: Course) -> bool:
    """The author and staff may change a course (a stable one by making a new version)."""
    return bool(user and user.is_authenticated and (user.is_staff or is_author(user=user, course=course)))


def visible_courses(*, user, courses: QuerySet[Course] | None = None) -> QuerySet[Course]:
    """`courses` (default: all) narrowed to those `user` may see: stable and development ones for everyone, their
    own private and review ones, review ones for reviewers; staff see all. One WHERE clause, so a stranger's
    private course is looked up exactly like a missing slug."""
    courses = Course.objects.all() if courses is None else courses
    if user and user.is_authenticated and user.is_staff:
        return courses
    public = Q(state__in=[S.STABLE, S.DEVELOPMENT])
    if not (user and user.is_authenticated):
        return courses.filter(public)
    seen = public | Q(author=user)
    if is_reviewer(user=user):
        seen |= Q(state=S.REVIEW)
    return courses.filter(seen)


def visible_course(*, user, slug: str) -> Course | None:
    return visible_courses(user=user).filter(slug=slug).first()


def get_course(*, slug: str) -> Course | None:
    """The course whoever asks (callers that answer a person use `visible_course`)."""
    return Course.objects.filter(slug=slug).first()


def latest_stable() -> QuerySet[Course]:
    """The gallery: the latest stable version of each lineage."""
    newer = Course.objects.filter(lineage=OuterRef("lineage"), state=S.STABLE, version__gt=OuterRef("version"))
    return Course.objects.filter(state=S.STABLE).exclude(Exists(newer))


def playable_courses() -> QuerySet[Course]:
    """What a game may be created on: stable and development courses (development ones only unrated)."""
    return Course.objects.filter(state__in=[S.STABLE, S.DEVELOPMENT])


def game_form_courses() -> QuerySet[Course]:
    """The create-game form's choices: the latest stable version of each lineage, and development courses
    (marked unrated by `game_form_label`)."""
    return Course.objects.filter(Q(pk__in=latest_stable().values("pk")) | Q(state=S.DEVELOPMENT))


def course_rulesets(course: Course) -> list[str]:
    """The rulesets the course suits (its `rulesets`, roboracer when it says none: docs/formats.md)."""
    return list(course.data.get("rulesets") or ["roboracer"])


# The course modes the create form's list names beside a course ("Scrap Pit (arena)"); a race says nothing.
MODE_WORDS = {"arena": "arena", "puzzle": "puzzle"}


def game_form_label(course: Course) -> str:
    mode = MODE_WORDS.get(str(course.data.get("mode", "race")))
    marks = [mode] if mode else []
    if course.state == S.DEVELOPMENT:
        marks.append("development, unrated")
    label = f"{course} ({', '.join(marks)})" if marks else str(course)
    suits = course_rulesets(course)
    if suits != ["roboracer"]:
        label += " · " + ", ".join(engine.rulesets.get(name).title for name in suits if name in engine.rulesets.available())
    return label


def lobby_courses(*, game_course_ids=()) -> QuerySet[Course]:
    """The courses the lobby page draws: the create form's, and those of the viewer's own games (a test drive
    on a draft among them)."""
    return Course.objects.filter(Q(pk__in=game_form_courses().values("pk")) | Q(pk__in=list(game_course_ids)))


def my_courses(*, user) -> QuerySet[Course]:
    """The author's own courses that are not stable (their drafts), newest change first."""
    if not (user and user.is_authenticated):
        return Course.objects.none()
    return Course.objects.filter(author=user).exclude(state=S.STABLE).order_by("-updated_at")


def review_queue() -> QuerySet[Course]:
    return Course.objects.filter(state=S.REVIEW).select_related("author").order_by("updated_at")


def versions(*, user, course: Course) -> QuerySet[Course]:
    """The versions of the course's lineage that `user` may see, oldest first."""
    return visible_courses(user=user, courses=Course.objects.filter(lineage=course.lineage)).order_by("version")


def display_name(user) -> str | None:
    if user is None:
        return None
    return player_name(user=user)


def submission(*, course: Course) -> CourseTransition | None:
    """The last transition into review (who submitted the course, from which state, with what reason), or
    None when the history has none."""
    return (CourseTransition.objects.filter(course=course, to_state=S.REVIEW).select_related("by")
            .order_by("-at", "-pk").first())


def submitted_from(*, course: Course, submitted: CourseTransition | None = None) -> str:
    """The state a course in review was submitted from, where a withdrawal or a send back returns it: a
    private draft sent back stays private (not playable by everyone). Private when the history is silent.
    `submitted`: the course's `submission`, when the caller has it already."""
    last = submitted if submitted is not None else submission(course=course)
    return last.from_state if last and last.from_state in (S.PRIVATE, S.DEVELOPMENT) else S.PRIVATE


def allowed_transitions(*, user, course: Course) -> list[str]:
    """The states `user` may move the course to now (a send back still needs its reason)."""
    if not (user and user.is_authenticated):
        return []
    return [to for to in S.values if refusal(user=user, course=course, to=to, reason="a reason") is None]


def history(*, course: Course) -> list[dict]:
    rows = CourseTransition.objects.filter(course=course).select_related("by", "by__profile")
    return [{"from": row.from_state, "to": row.to_state, "by": display_name(row.by), "reason": row.reason,
             "at": row.at.isoformat()} for row in rows]


def course_summary(*, course: Course) -> dict:
    return {
        "slug": course.slug,
        "name": course.name,
        "min_players": course.min_players,
        "max_players": course.max_players,
        "bundled": course.bundled,
        "size": [course.data.get("width"), course.data.get("height")],
        "state": course.state,
        "version": course.version,
        "author": display_name(course.author),
    }


def course_detail(*, course: Course, user) -> dict:
    return {
        **course_summary(course=course),
        "data": course.data,
        "lineage": course.lineage,
        "editable": may_write(user=user, course=course),
        "can": allowed_transitions(user=user, course=course),
        "history": history(course=course),
    }


def editor_urls(*, course: Course | None) -> dict:
    slug = course.slug if course is not None else None
    return {
        "validate": reverse("api-course-validate"),
        "create": reverse("api-courses"),
        "detail": reverse("api-course", args=[slug]) if slug else None,
        "transition": reverse("api-course-transition", args=[slug]) if slug else None,
        "test_drive": reverse("api-course-test-drive", args=[slug]) if slug else None,
        "versions": reverse("api-course-versions", args=[slug]) if slug else None,
        "comments": reverse("api-course-comments", args=[slug]) if slug else None,
    }


def editor_init(*, course: Course | None, user) -> dict:
    """What the editor page hands the editor script (`json_script` id "editor-init")."""
    return {
        "course": course_detail(course=course, user=user) if course is not None else None,
        "catalog": element_catalog(),
        "urls": editor_urls(course=course),
        "user": {"name": display_name(user), "staff": bool(user.is_staff), "reviewer": is_reviewer(user=user)},
    }


# --- Review comments (docs/course-builder.md, "Review comments"). ------------------------------------------
def may_read_comments(*, user, course: Course) -> bool:
    """The course's author, staff and reviewers read its review comments, while they may see the course (the
    caller looked it up through `visible_courses`); anyone else is told the comments do not exist."""
    return is_author(user=user, course=course) or is_reviewer(user=user)


def may_comment(*, user, course: Course) -> bool:
    """A new comment (a thread, on a square or the whole course): reviewers and staff, on a course in review."""
    return course.state == S.REVIEW and is_reviewer(user=user)


def has_review_page(*, user, course: Course) -> bool:
    """The course page links the review page for those who read the comments, while there is a review (in review,
    or comments left from one)."""
    return may_read_comments(user=user, course=course) and (
        course.state == S.REVIEW or ReviewComment.objects.filter(course=course).exists())


def review_init(*, course: Course) -> dict:
    """What the review page hands review.js (`json_script` id "review-init")."""
    return {"course": course.data, "comments": reverse("api-course-comments", args=[course.slug])}


def comments(*, course: Course) -> list[ReviewComment]:
    """The course version's comments, oldest first; each thread's first comment carries `number` (1, 2, ...: the
    marker on the board), replies None."""
    rows = list(ReviewComment.objects.filter(course=course)
                .select_related("author", "author__profile", "resolved_by", "resolved_by__profile"))
    number = 0
    for row in rows:
        if row.reply_to_id is None:
            number += 1
            row.number = number
        else:
            row.number = None
    return rows


def comment_shape(*, comment: ReviewComment, course: Course) -> dict:
    on_board = comment.x is not None and comment.x < int(course.data.get("width") or 0) \
        and comment.y < int(course.data.get("height") or 0)
    return {
        "id": comment.pk,
        "number": getattr(comment, "number", None),
        "reply_to": comment.reply_to_id,
        "author": display_name(comment.author),
        "by_course_author": comment.author_id is not None and comment.author_id == course.author_id,
        "text": comment.text,
        "x": comment.x,
        "y": comment.y,
        "on_board": on_board,
        "resolved": comment.resolved,
        "resolved_by": display_name(comment.resolved_by) if comment.resolved else None,
        "resolved_at": comment.resolved_at.isoformat() if comment.resolved and comment.resolved_at else None,
        "created_at": comment.created_at.isoformat(),
    }


def comment_list(*, course: Course, user) -> dict:
    """The API's answer for a course's comments: the comments (`comment_shape`) and what the viewer may do."""
    return {
        "comments": [comment_shape(comment=row, course=course) for row in comments(course=course)],
        "may_comment": may_comment(user=user, course=course),
        "may_reply": may_read_comments(user=user, course=course),
    }


# --- The engine's validator and element catalogue (issue 17, the engine part). -----------------------------
def validate(*, data, budget=None) -> dict:
    """{"errors": [{"message", "squares"}], "warnings": [...]} (engine.validate_course), within the request's
    CPU budget (`budget`, a new roboracer.courses.budget.CpuBudget by default): past it, CourseTooComplex."""
    try:
        return engine.validate_course(data, budget=CpuBudget() if budget is None else budget)
    except engine.TooComplex as error:
        raise CourseTooComplex(str(error)) from None


def element_catalog() -> dict:
    """Every element type the engine knows, with its layer and fields (engine.element_catalog)."""
    return engine.element_catalog()


def element_summary(*, data: dict) -> list[str]:
    """ "2 belts", "1 laser", ... per element type in the course (no floor), in the how-to-play page's order."""
    counts = Counter(element.get("type", "?") for element in data.get("elements", []))
    counts.pop("floor", None)
    keys = sorted(counts, key=lambda key: (ORDER.index(key) if key in ORDER else len(ORDER), key))
    return [how_to_play.element_label(key, counts[key]) for key in keys]


def preview_scripts(*, courses) -> list[dict]:
    """Course data for json_script tags the browser draws previews from (id "course-data-<pk>")."""
    return [{"script_id": f"course-data-{course.pk}", "data": course.data} for course in courses]


# (from, to) -> who may make it: "author" (the author or staff), "reviewer" (staff or the reviewers group),
# "staff" (staff only).
TRANSITIONS = {
    (S.PRIVATE, S.DEVELOPMENT): "author",
    (S.DEVELOPMENT, S.PRIVATE): "author",
    (S.PRIVATE, S.REVIEW): "author",
    (S.DEVELOPMENT, S.REVIEW): "author",
    # Withdraw (the author) or send back (a reviewer, with a reason): to the state it was submitted from.
    (S.REVIEW, S.DEVELOPMENT): "author",
    (S.REVIEW, S.PRIVATE): "author",
    (S.REVIEW, S.STABLE): "reviewer",
    (S.STABLE, S.DEVELOPMENT): "staff",  # retire
}


def refusal(*, user, course: Course, to: str, reason: str = "") -> str | None:
    """Why `user` may not move `course` to `to` now, or None if they may (the rules in TRANSITIONS)."""
    if to == course.state:
        return f"the course is already {to}"
    who = TRANSITIONS.get((course.state, to))
    if who is None:
        return f"a {course.state} course cannot go to {to}"
    author = is_author(user=user, course=course)
    staff = bool(user.is_staff)
    reviewer = is_reviewer(user=user)
    if course.state == S.REVIEW and to in (S.PRIVATE, S.DEVELOPMENT):
        back = submitted_from(course=course)
        if to != back:
            return f"a course in review goes back to {back}, the state it was submitted from"
        if author or staff:
            return None  # withdraw
        if reviewer:
            return None if reason.strip() else "sending a course back needs a reason"
        return "only the author can withdraw a course, and only reviewers and staff can send it back"
    if who == "author":
        return None if author or staff else "only the course's author and staff can do that"
    if who == "reviewer":
        if staff:
            return None
        if reviewer and author:
            return "reviewers cannot approve their own courses; another reviewer or staff can"
        return None if reviewer else "only reviewers and staff can approve a course"
    return None if staff else "only staff can retire a stable course"
