from django.contrib import admin

from roboracer.courses.models import Course


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "min_players", "max_players", "bundled"]
