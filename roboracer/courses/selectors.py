"""Reads of courses for the gallery, the lobby and the create-game form."""

from __future__ import annotations

from collections import Counter

from django.db.models import QuerySet

from games import how_to_play
from roboracer.courses.models import Course

# The gallery lists element types in the how-to-play page's order, with the same names (games/how_to_play.py);
# floor is left out: every square a course does not fill is floor anyway.
ORDER = [kind for kind, *_ in how_to_play.ELEMENTS]


def all_courses() -> QuerySet[Course]:
    return Course.objects.all()


def get_course(*, slug: str) -> Course | None:
    return Course.objects.filter(slug=slug).first()


def element_summary(*, data: dict) -> list[str]:
    """ "2 belts", "1 laser", ... per element type in the course (no floor), in the how-to-play page's order."""
    counts = Counter(element.get("type", "?") for element in data.get("elements", []))
    counts.pop("floor", None)
    keys = sorted(counts, key=lambda key: (ORDER.index(key) if key in ORDER else len(ORDER), key))
    return [how_to_play.element_label(key, counts[key]) for key in keys]


def preview_scripts(*, courses) -> list[dict]:
    """Course data for json_script tags the browser draws previews from (id "course-data-<pk>")."""
    return [{"script_id": f"course-data-{course.pk}", "data": course.data} for course in courses]
