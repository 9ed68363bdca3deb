"""The course pages: the gallery (latest stable versions, my drafts), one course (state, history, versions,
its games for the author), the editor's two pages, the review queue, a course's review page (its board with the
review comments), and the state forms."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from roboracer.common.errors import GameError, NotFound
from roboracer.courses import selectors, services, signals
from roboracer.courses.models import Course

STATE_WORDS = {
    Course.State.PRIVATE: "Private: only you (and staff) see it",
    Course.State.DEVELOPMENT: "Development: anyone may play it in unrated games",
    Course.State.REVIEW: "In review: reviewers and staff may approve it or send it back",
    Course.State.STABLE: "Stable: in the gallery and the lobby; a change makes a new version",
}
# The button for each target state, as the course page and the review queue offer them.
ACTIONS = {
    Course.State.PRIVATE: "Make private",
    Course.State.DEVELOPMENT: "Open for development",
    Course.State.REVIEW: "Submit for review",
    Course.State.STABLE: "Approve (stable)",
}


def course_list(request):
    courses = list(selectors.latest_stable())
    rows = [{"course": course, "elements": selectors.element_summary(data=course.data)} for course in courses]
    mine = list(selectors.my_courses(user=request.user))
    context = {
        "rows": rows,
        "my_courses": mine,
        "reviewer": selectors.is_reviewer(user=request.user),
        "course_scripts": selectors.preview_scripts(courses=courses),
    }
    return render(request, "courses/list.html", context)


def _visible_or_404(request, slug: str) -> Course:
    course = selectors.visible_course(user=request.user, slug=slug)
    if course is None:
        raise Http404(selectors.missing(slug))
    return course


def _action_label(course: Course, to: str) -> str:
    if course.state == Course.State.REVIEW and to in (Course.State.PRIVATE, Course.State.DEVELOPMENT):
        return f"Withdraw / send back ({to})"
    if (course.state, to) == (Course.State.STABLE, Course.State.DEVELOPMENT):
        return "Retire to development"
    return ACTIONS[to]


def course_detail(request, slug: str):
    course = _visible_or_404(request, slug)
    writer = selectors.may_write(user=request.user, course=course)
    actions = [{"to": to, "label": _action_label(course, to)}
               for to in selectors.allowed_transitions(user=request.user, course=course)]
    context = {
        "course": course,
        "author": selectors.display_name(course.author),
        "state_words": STATE_WORDS[course.state],
        "editable": writer,
        "actions": actions,
        "history": selectors.history(course=course),
        "versions": list(selectors.versions(user=request.user, course=course)),
        "games": signals.games_on(course=course, user=request.user) if writer else [],
        "review_page": selectors.has_review_page(user=request.user, course=course),
        "playable": course.state in (Course.State.STABLE, Course.State.DEVELOPMENT),
        "elements": selectors.element_summary(data=course.data),
        "course_scripts": selectors.preview_scripts(courses=[course]),
    }
    return render(request, "courses/detail.html", context)


def _editor(request, course: Course | None):
    return render(request, "courses/editor.html",
                  {"course": course, "editor_init": selectors.editor_init(course=course, user=request.user)})


@login_required
def course_new(request):
    return _editor(request, None)


@login_required
def course_edit(request, slug: str):
    course = _visible_or_404(request, slug)
    if not selectors.may_write(user=request.user, course=course):
        # A course they may see but not write (stable, development, or review for a reviewer): 403. A private
        # one of someone else never gets here: it is missing to them (404 above).
        raise PermissionDenied("only the course's author and staff can edit it")
    return _editor(request, course)


@login_required
def review_queue(request):
    if not selectors.is_reviewer(user=request.user):
        raise Http404("no such page")
    courses = list(selectors.review_queue())
    for course in courses:
        course.author_name = selectors.display_name(course.author)
        # What the author said when submitting it: the last transition into review, which also says where a
        # send back returns it.
        submitted = selectors.submission(course=course)
        course.back_to = selectors.submitted_from(course=course, submitted=submitted)
        course.submitted_reason = submitted.reason.strip() if submitted else ""
        course.submitted_by = selectors.display_name(submitted.by) if submitted else None
        course.submitted_at = submitted.at if submitted else None
    return render(request, "courses/review.html",
                  {"courses": courses, "staff": request.user.is_staff,
                   "course_scripts": selectors.preview_scripts(courses=courses)})


@login_required
def course_review(request, slug: str):
    """The review of one course version: its board with the review comments (review.js). Its author, reviewers and
    staff; anyone else gets the 404 of a missing course."""
    course = _visible_or_404(request, slug)
    if not selectors.may_read_comments(user=request.user, course=course):
        raise Http404(selectors.missing(slug))
    reviewer = course.state == Course.State.REVIEW and selectors.is_reviewer(user=request.user)
    actions = [{"to": to, "label": _action_label(course, to)}
               for to in selectors.allowed_transitions(user=request.user, course=course)] if reviewer else []
    return render(request, "courses/review_course.html", {
        "course": course,
        "author": selectors.display_name(course.author),
        "state_words": STATE_WORDS[course.state],
        "actions": actions,
        "editable": selectors.may_write(user=request.user, course=course),
        "review_init": selectors.review_init(course=course),
    })


@login_required
@require_POST
def course_transition(request, slug: str):
    """The course page's and the review queue's state forms: the service, a flash with its refusal."""
    to, reason = request.POST.get("to", ""), request.POST.get("reason", "")
    try:
        course = services.transition_course(user=request.user, slug=slug, to=to, reason=reason)
    except NotFound:
        raise Http404(selectors.missing(slug)) from None
    except GameError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{course} is now {course.state}.")
    back = request.POST.get("next", "")
    return redirect("course-review" if back == "review" else "course", **({} if back == "review" else {"slug": slug}))
