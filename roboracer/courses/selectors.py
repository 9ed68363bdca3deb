"""Reads of courses for the gallery, the lobby and the create-game form."""

from __future__ import annotations

from collections import Counter

from django.db.models import QuerySet

from roboracer.courses.models import Course

# How the gallery names element types (singular, plural); a type missing here is shown by its own name.
ELEMENT_NAMES = {
    "floor": ("floor", "floor"), "wall": ("wall", "walls"), "pit": ("pit", "pits"), "start": ("start", "starts"),
    "checkpoint": ("check point", "check points"), "repair": ("repair site", "repair sites"),
    "belt": ("belt", "belts"), "pusher": ("pusher", "pushers"), "turntable": ("turntable", "turntables"),
    "crusher": ("crusher", "crushers"), "laser": ("laser", "lasers"),
}


def all_courses() -> QuerySet[Course]:
    return Course.objects.all()


def get_course(*, slug: str) -> Course | None:
    return Course.objects.filter(slug=slug).first()


def element_summary(*, data: dict) -> list[tuple[str, int]]:
    """(name, count) per element type in the course, in a fixed, readable order."""
    counts = Counter(element.get("type", "?") for element in data.get("elements", []))
    order = list(ELEMENT_NAMES)
    keys = sorted(counts, key=lambda key: (order.index(key) if key in order else len(order), key))
    return [(ELEMENT_NAMES.get(key, (key, key))[counts[key] != 1], counts[key]) for key in keys]


def preview_scripts(*, courses) -> list[dict]:
    """Course data for json_script tags the browser draws previews from (id "course-data-<pk>")."""
    return [{"script_id": f"course-data-{course.pk}", "data": course.data} for course in courses]
