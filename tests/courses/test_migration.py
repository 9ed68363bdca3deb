"""The builder's migration: courses that existed before it become stable version 1 of their own lineage, with
no author, and the "reviewers" group exists."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import engine

BEFORE = [("courses", "0001_initial")]
AFTER = [("courses", "0002_builder")]


def test_existing_courses_become_stable_v1_of_their_own_lineage(transactional_db):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps.get_model("courses", "Course")
        old.objects.create(slug="old-yard", name="Old Yard", data=engine.bundled_course_data("tiny-yard"),
                           min_players=1, max_players=4)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        apps = executor.loader.project_state(AFTER).apps
        course = apps.get_model("courses", "Course").objects.get(slug="old-yard")
        assert (course.state, course.version, course.lineage, course.author_id) == ("stable", 1, "old-yard", None)
        assert apps.get_model("auth", "Group").objects.filter(name="reviewers").exists()
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
