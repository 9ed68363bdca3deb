"""Hypothesis strategies the engine's property tests share."""

from hypothesis import strategies as st

import engine

# Races and arenas of the roboracer ruleset: the puzzles have their own tests (tests/engine/test_bundled_puzzles.py),
# the other rulesets theirs (tests/engine/test_rulesets.py).
COURSES = {
    slug: course
    for slug in engine.bundled_slugs()
    if (course := engine.bundled_course(slug)).mode != "puzzle" and "roboracer" in course.rulesets
}


@st.composite
def course_and_bots(draw, *, most: int = 8):
    """A bundled course and the bot ids "1".."n" of 2 to `most` bots, as many as the course seats."""
    course = COURSES[draw(st.sampled_from(sorted(COURSES)))]
    count = draw(st.integers(min_value=max(2, course.players[0]), max_value=min(most, course.players[1])))
    return course, [str(n) for n in range(1, count + 1)]
