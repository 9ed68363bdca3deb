"""Puzzle blocks of the first course builder (a `goal` text and `turns`) become issue 16's block (a goal
object, `turn_limit`, `seed`, `targets`, the text as `description`), in stored courses and in the games
played on them, so that both still load (engine.puzzle.upgrade_legacy)."""

from django.db import migrations


def upgrade(apps, schema_editor):
    from engine.puzzle import upgrade_legacy

    Course = apps.get_model("courses", "Course")
    for course in Course.objects.filter(data__mode="puzzle").iterator():
        if upgrade_legacy(course.data):
            course.save(update_fields=["data"])
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(course_data__mode="puzzle").iterator():
        if upgrade_legacy(game.course_data):
            game.save(update_fields=["course_data"])


class Migration(migrations.Migration):
    dependencies = [("courses", "0002_builder"), ("games", "0008_scan")]

    operations = [migrations.RunPython(upgrade, migrations.RunPython.noop)]
