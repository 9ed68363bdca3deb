"""Writes for courses."""

import engine
from roboracer.courses.models import Course


def save_course(*, slug: str, data: dict, bundled: bool = False) -> Course:
    """Validate with the engine, then create or update; raises engine.CourseError and saves nothing."""
    parsed = engine.parse_course(data)
    course, _ = Course.objects.update_or_create(
        slug=slug,
        defaults={
            "name": parsed.name,
            "data": parsed.to_dict(),
            "bundled": bundled,
            "min_players": parsed.players[0],
            "max_players": parsed.players[1],
        },
    )
    return course


def load_bundled_courses() -> list[Course]:
    """Idempotent: the bundled courses end up in the database exactly as the engine ships them."""
    return [
        save_course(slug=slug, data=engine.bundled_course_data(slug), bundled=True) for slug in engine.bundled_slugs()
    ]
