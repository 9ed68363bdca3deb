"""The course builder (issue 17): author, state, version, lineage, timestamps, the transition record, and the
"reviewers" group. The courses that exist already (the bundled ones) become stable version 1 of their own
lineage."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def existing_courses_stable(apps, schema_editor):
    Course = apps.get_model("courses", "Course")
    for course in Course.objects.all():
        course.state = "stable"
        course.version = 1
        course.lineage = course.slug
        course.save(update_fields=["state", "version", "lineage"])


def reviewers_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name="reviewers")


class Migration(migrations.Migration):
    dependencies = [
        ("courses", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="course",
            name="author",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                    related_name="courses", to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name="course",
            name="state",
            field=models.CharField(choices=[("private", "Private"), ("development", "Development"),
                                            ("review", "Review"), ("stable", "Stable")],
                                   db_index=True, default="private", max_length=12),
        ),
        migrations.AddField(model_name="course", name="version", field=models.PositiveIntegerField(default=1)),
        migrations.AddField(model_name="course", name="lineage",
                            field=models.SlugField(db_index=True, default=""), preserve_default=False),
        migrations.AddField(model_name="course", name="created_at",
                            field=models.DateTimeField(auto_now_add=True, default=django.utils.timezone.now),
                            preserve_default=False),
        migrations.AddField(model_name="course", name="updated_at", field=models.DateTimeField(auto_now=True)),
        migrations.RunPython(existing_courses_stable, migrations.RunPython.noop),
        migrations.AlterModelOptions(name="course", options={"ordering": ["name", "version"]}),
        migrations.AddConstraint(
            model_name="course",
            constraint=models.UniqueConstraint(fields=("lineage", "version"), name="one_course_per_lineage_version"),
        ),
        migrations.CreateModel(
            name="CourseTransition",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("from_state", models.CharField(choices=[("private", "Private"), ("development", "Development"),
                                                         ("review", "Review"), ("stable", "Stable")], max_length=12)),
                ("to_state", models.CharField(choices=[("private", "Private"), ("development", "Development"),
                                                       ("review", "Review"), ("stable", "Stable")], max_length=12)),
                ("reason", models.TextField(blank=True, default="")),
                ("at", models.DateTimeField(auto_now_add=True)),
                ("by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                         related_name="+", to=settings.AUTH_USER_MODEL)),
                ("course", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="transitions",
                                             to="courses.course")),
            ],
            options={"ordering": ["at", "id"]},
        ),
        migrations.RunPython(reviewers_group, migrations.RunPython.noop),
    ]
