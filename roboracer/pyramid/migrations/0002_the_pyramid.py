"""The site's standing pyramid. Its pool is left empty: an empty pool means every stable course bundled with
RoboRacer (selectors.course_pool), which also covers courses loaded after this migration (load_courses)."""

from django.db import migrations


def create(apps, schema_editor):
    Pyramid = apps.get_model("pyramid", "Pyramid")
    Pyramid.objects.get_or_create(slug="main", defaults={
        "name": "The Pyramid",
        "description": "The standing ladder: challenge a player above you, win, and take their place.",
    })


def remove(apps, schema_editor):
    apps.get_model("pyramid", "Pyramid").objects.filter(slug="main", places__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("pyramid", "0001_initial")]
    operations = [migrations.RunPython(create, remove)]
