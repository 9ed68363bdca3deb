"""Writes for courses (HackSoft style: keyword-only, one transaction each, errors the API maps to 4xx).

The state rules are those of docs/course-builder.md, "States and review"; every change of state is recorded
as a CourseTransition in the same transaction as the change, with the course row locked."""

from __future__ import annotations

import copy
import secrets
from functools import cache

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

import engine
from roboracer.accounts.names import looks_alike
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound
from roboracer.courses import selectors
from roboracer.courses.budget import CourseTooComplex, CpuBudget
from roboracer.courses.models import Course, CourseTransition, ReviewComment

S = Course.State
# Slugs the course pages and API use for themselves (/courses/new/, /courses/review/, /api/courses/validate/).
RESERVED_SLUGS = {"new", "review", "validate"}
SLUG_LENGTH = 50


class InvalidCourse(InvalidInput):
    """The validator refused the course: `errors` and `warnings` as engine.validate_course gives them."""

    def __init__(self, report: dict):
        errors = report.get("errors") or [{"message": "the course is not valid", "squares": []}]
        super().__init__(errors[0]["message"])
        self.errors = errors
        self.warnings = report.get("warnings", [])


def save_course(*, slug: str, data: dict, bundled: bool = False) -> Course:
    """Validate with the engine, then create or update a bundled course (stable, version 1, no author); raises
    engine.CourseError and saves nothing."""
    parsed = engine.parse_course(data)
    course, _ = Course.objects.update_or_create(
        slug=slug,
        defaults={
            "name": parsed.name,
            "data": parsed.to_dict(),
            "bundled": bundled,
            "min_players": parsed.players[0],
            "max_players": parsed.players[1],
            "state": S.STABLE,
            "lineage": slug,
        },
    )
    return course


@cache
def _bundled_rows() -> tuple[tuple[str, dict], ...]:
    """The bundled courses' rows (slug, fields), parsed by the engine once per process: what it ships is fixed."""
    rows = []
    for slug in engine.bundled_slugs():
        parsed = engine.parse_course(engine.bundled_course_data(slug))
        rows.append((slug, {"name": parsed.name, "data": parsed.to_dict(), "bundled": True,
                            "min_players": parsed.players[0], "max_players": parsed.players[1], "state": S.STABLE,
                            "lineage": slug}))
    return tuple(rows)


def load_bundled_courses() -> list[Course]:
    """Idempotent: the bundled courses end up in the database exactly as the engine ships them. The missing ones
    are inserted in one statement (a new database, and every test that asks for them); the others are updated."""
    rows = _bundled_rows()
    slugs = [slug for slug, _ in rows]
    with transaction.atomic():
        present = set(Course.objects.filter(slug__in=slugs).values_list("slug", flat=True))
        Course.objects.bulk_create([Course(slug=slug, **copy.deepcopy(fields)) for slug, fields in rows
                                    if slug not in present])
        for slug, fields in rows:
            if slug in present:
                Course.objects.update_or_create(slug=slug, defaults=copy.deepcopy(fields))
        courses = {course.slug: course for course in Course.objects.filter(slug__in=slugs)}
    return [courses[slug] for slug in slugs]


def _checked(data) -> dict:
    """The course as the engine writes it back, or InvalidCourse with the validator's messages."""
    budget = CpuBudget()  # one budget for the report and the parse (docs/course-builder.md "Validator: cost")
    report = selectors.validate(data=data, budget=budget)
    if report["errors"]:
        raise InvalidCourse(report)
    try:
        parsed = engine.parse_course(data, budget=budget)
    except engine.TooComplex as error:
        raise CourseTooComplex(str(error)) from None
    except (engine.InputError, RecursionError) as error:  # the validator said yes; belt and braces
        raise InvalidCourse({"errors": [{"message": str(error), "squares": []}], "warnings": []}) from None
    return {"name": parsed.name, "data": parsed.to_dict(), "min_players": parsed.players[0],
            "max_players": parsed.players[1]}


@cache
def _bundled_names() -> dict[str, str]:
    """slug -> name of each course the engine ships (engine/courses/*.json)."""
    return {slug: engine.bundled_course_data(slug)["name"] for slug in engine.bundled_slugs()}


def _check_name(name: str, *, lineage: str | None = None) -> None:
    """Conflict if `name` is, or looks like (TR39 confusable skeletons, ignoring case: roboracer/accounts/names.py),
    a bundled course's name; a new version of a bundled course (its `lineage`) keeps that course's own name."""
    for slug, bundled in _bundled_names().items():
        if slug != lineage and looks_alike(name, bundled):
            raise Conflict(f"name: {bundled!r} is a course of the site; a course may not take or look like its name")


def _free_slug(base: str) -> str:
    """`base`, or `base-2`, `base-3`... : the first slug no course has (nor the pages reserve)."""
    base = base[:SLUG_LENGTH].strip("-") or "course"
    candidate, n = base, 1
    while candidate in RESERVED_SLUGS or Course.objects.filter(slug=candidate).exists():
        n += 1
        suffix = f"-{n}"
        candidate = base[: SLUG_LENGTH - len(suffix)] + suffix
    return candidate


SLUG_TOKEN = 6  # random characters that end a new course's slug
SLUG_ALPHABET = "abcdefghjkmnpqrstuwxyz23456789"  # no v (never "-v<n>", a version's), no look-alikes


def _slug_from_name(name: str) -> str:
    """`<the name, slugified>-<6 random characters>`: a slug that depends on no other course, so it says
    nothing about courses the author may not see (issue 33 item 12). Deriving it from the free slugs (`-2`,
    `-3`...) told anyone that a hidden course had taken a name. A collision with any course (a chance of one in
    30**6 per course of that name) draws again."""
    base = slugify(name)[: SLUG_LENGTH - SLUG_TOKEN - 1].strip("-") or "course"
    for _ in range(20):
        candidate = f"{base}-{''.join(secrets.choice(SLUG_ALPHABET) for _ in range(SLUG_TOKEN))}"
        if candidate not in RESERVED_SLUGS and not Course.objects.filter(slug=candidate).exists():
            return candidate
    raise Conflict("no free slug for this name: try again")


def create_course(*, user, data) -> Course:
    """A new private course of `user`, version 1 of its own lineage; the slug comes from the name."""
    fields = _checked(data)
    _check_name(fields["name"])
    for _ in range(3):  # two authors naming courses alike at the same moment: the loser takes the next slug
        slug = _slug_from_name(fields["name"])
        try:
            with transaction.atomic():
                return Course.objects.create(slug=slug, lineage=slug, author=user, state=S.PRIVATE, version=1,
                                             **fields)
        except IntegrityError:
            continue
    raise Conflict("another course took this name's slug at the same moment: try again")


def _locked(*, user, slug: str) -> Course:
    """The course's row, locked, if `user` may see it; a course they may not see is missing, with the same
    message as a slug no course has."""
    course = selectors.visible_courses(user=user, courses=Course.objects.select_for_update()).filter(slug=slug).first()
    if course is None:
        raise NotFound(selectors.missing(slug))
    return course


def update_course(*, user, slug: str, data) -> tuple[Course, bool]:
    """Change a course's data. Private and development courses change in place; a review course refuses
    (withdraw it first); a stable one is frozen, so the change makes a new private version in the same lineage.
    Returns (the course written, whether it is a new version)."""
    with transaction.atomic():
        course = _locked(user=user, slug=slug)
        if not selectors.may_write(user=user, course=course):
            raise NotAllowed("only the course's author and staff can change it")
        if course.state == S.REVIEW:
            raise Conflict("this course is in review: withdraw it to development before changing it")
        fields = _checked(data)
        _check_name(fields["name"], lineage=course.lineage)
        if course.state != S.STABLE:
            for key, value in fields.items():
                setattr(course, key, value)
            course.save()
            return course, False
        # Stable is frozen: a new version. Its author is the course's (the editor's for a bundled course).
        latest = Course.objects.filter(lineage=course.lineage).order_by("-version").values_list("version", flat=True)
        version = (latest.first() or course.version) + 1
        new_slug = _free_slug(f"{course.lineage}-v{version}")
        try:
            with transaction.atomic():
                new = Course.objects.create(slug=new_slug, lineage=course.lineage, version=version, state=S.PRIVATE,
                                            author=course.author or user, **fields)
        except IntegrityError:
            raise Conflict("another version of this course was made at the same moment: try again") from None
        return new, True


REASON_LENGTH = 2000  # a transition's reason, as the API's serializer allows


def _plain(text: str) -> bool:
    """No control characters but line breaks and tabs (no NUL, no bidirectional overrides, no zero-width marks)."""
    return all(ch.isprintable() or ch in "\n\r\t" for ch in text)


def transition_course(*, user, slug: str, to: str, reason: str = "") -> Course:
    """Move the course to state `to` (Conflict naming why if the rules refuse), recorded with who and why."""
    if to not in S.values:
        raise InvalidInput(f"to: {to!r} is not one of {', '.join(S.values)}")
    if len(reason) > REASON_LENGTH or not _plain(reason):
        raise InvalidInput(f"reason: at most {REASON_LENGTH} characters, with no control characters but line breaks")
    with transaction.atomic():
        course = _locked(user=user, slug=slug)
        why = selectors.refusal(user=user, course=course, to=to, reason=reason)
        if why is not None:
            raise Conflict(why)
        CourseTransition.objects.create(course=course, by=user, from_state=course.state, to_state=to,
                                        reason=reason.strip())
        course.state = to
        course.save(update_fields=["state", "updated_at"])
        return course


def test_drive_course(*, user, slug: str, seats: int) -> Course:
    """The course `user` may test-drive with `seats` seats, its row locked: call it in the transaction that
    creates the test drive's game (games.kinds.roboracer.services.start_test_drive). Only its author and staff may, with 1
    to the course's most players."""
    course = _locked(user=user, slug=slug)
    if not selectors.may_write(user=user, course=course):
        raise NotAllowed("only the course's author and staff can test-drive it")
    if not 1 <= seats <= course.max_players:
        raise InvalidInput(f"seats: {course.name} takes 1 to {course.max_players} players in a test drive, "
                           f"not {seats}")
    return course


# --- Review comments (docs/course-builder.md, "Review comments"). ------------------------------------------
COMMENT_LENGTH = 2000  # characters of a comment, as the API's serializer allows
COMMENTS_PER_COURSE = 500  # comments and replies on one course version; past it, 409


def _comment_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise InvalidInput("text: a comment needs some text")
    if len(text) > COMMENT_LENGTH:
        raise InvalidInput(f"text: at most {COMMENT_LENGTH} characters, not {len(text)}")
    if not _plain(text):
        raise InvalidInput("text: no control characters but line breaks")
    return text


def _check_square(*, course: Course, x: int, y: int) -> None:
    width, height = int(course.data.get("width") or 0), int(course.data.get("height") or 0)
    if not (0 <= x < width and 0 <= y < height):
        raise InvalidInput(f"x, y: ({x}, {y}) is not on the course's board, which is {width} by {height} "
                           f"(x from 0 to {width - 1}, y from 0 to {height - 1})")


def _readable(*, user, slug: str) -> Course:
    """The course's row, locked, if `user` may read its comments; else the same 404 as a missing course, so a
    stranger learns nothing (not even that a private course exists)."""
    course = _locked(user=user, slug=slug)
    if not selectors.may_read_comments(user=user, course=course):
        raise NotFound(selectors.missing(slug))
    return course


def add_comment(*, user, slug: str, text: str, x: int | None = None, y: int | None = None,
                reply_to: int | None = None) -> ReviewComment:
    """A reviewer's (or staff's) comment on a course in review, on square (x, y) or the whole course; or a reply
    in a thread (`reply_to`: any comment of the thread), by the course's author, a reviewer or staff, in any state
    (the author works through the comments after a send back). The course row is locked, so the cap holds."""
    text = _comment_text(text)
    if (x is None) != (y is None):
        raise InvalidInput("x, y: give both (a square) or neither (the whole course)")
    with transaction.atomic():
        course = _readable(user=user, slug=slug)
        parent = None
        if reply_to is not None:
            parent = ReviewComment.objects.filter(course=course, pk=reply_to).first()
            if parent is None:
                raise NotFound(f"there is no comment {reply_to} on this course")
            if x is not None:
                raise InvalidInput("x, y: a reply is on its comment's square; give no square")
            if parent.reply_to_id is not None:
                parent = parent.reply_to  # one level of threads: a reply to a reply joins the thread
        else:
            if not selectors.is_reviewer(user=user):
                raise NotAllowed("only reviewers and staff start a comment; the course's author replies to one")
            if course.state != S.REVIEW:
                raise Conflict(f"the course is {course.state}: comments are made while it is in review "
                               "(replies are still taken)")
            if x is not None:
                _check_square(course=course, x=x, y=y)
        if ReviewComment.objects.filter(course=course).count() >= COMMENTS_PER_COURSE:
            raise Conflict(f"this course version has {COMMENTS_PER_COURSE} comments, the most it may have")
        return ReviewComment.objects.create(course=course, author=user, reply_to=parent, text=text, x=x, y=y)


def resolve_comment(*, user, slug: str, comment_id: int, resolved: bool) -> ReviewComment:
    """Mark a thread resolved (or open again): the course's author, a reviewer or staff, in any state."""
    with transaction.atomic():
        course = _readable(user=user, slug=slug)
        comment = ReviewComment.objects.filter(course=course, pk=comment_id).first()
        if comment is None:
            raise NotFound(f"there is no comment {comment_id} on this course")
        if comment.reply_to_id is not None:
            raise InvalidInput("a reply is resolved with its thread: mark the comment it answers")
        if comment.resolved != resolved:
            comment.resolved = resolved
            comment.resolved_by = user if resolved else None
            comment.resolved_at = timezone.now() if resolved else None
            comment.save(update_fields=["resolved", "resolved_by", "resolved_at"])
        return comment
