"""The courses shipped with the engine, in engine/courses/<slug>.json."""

from __future__ import annotations

import json
from importlib import resources

from .course import Course, parse_course
from .errors import CourseError


def bundled_slugs() -> list[str]:
    folder = resources.files(__package__) / "courses"
    return sorted(
        entry.name.removesuffix(".json") for entry in folder.iterdir() if entry.name.endswith(".json")
    )


def bundled_course_data(slug: str) -> dict:
    if slug not in bundled_slugs():
        raise CourseError(f"no bundled course named {slug!r} (have: {', '.join(bundled_slugs())})")
    text = (resources.files(__package__) / "courses" / f"{slug}.json").read_text(encoding="utf-8")
    return json.loads(text)


def bundled_course(slug: str) -> Course:
    return parse_course(bundled_course_data(slug))
