"""The course gallery: every course with a preview drawn by the game's own board code."""

from django.http import Http404
from django.shortcuts import render

from roboracer.courses import selectors


def course_list(request):
    courses = list(selectors.all_courses())
    rows = [{"course": course, "elements": selectors.element_summary(data=course.data)} for course in courses]
    context = {"rows": rows, "course_scripts": selectors.preview_scripts(courses=courses)}
    return render(request, "courses/list.html", context)


def course_detail(request, slug: str):
    course = selectors.get_course(slug=slug)
    if course is None:
        raise Http404(f"no course named {slug!r}")
    context = {
        "course": course,
        "elements": selectors.element_summary(data=course.data),
        "course_scripts": selectors.preview_scripts(courses=[course]),
    }
    return render(request, "courses/detail.html", context)
