from django.contrib import admin

from roboracer.courses.models import Course, CourseTransition


class TransitionInline(admin.TabularInline):
    model = CourseTransition
    extra = 0
    readonly_fields = ["by", "from_state", "to_state", "reason", "at"]
    can_delete = False


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "state", "version", "lineage", "author", "min_players", "max_players", "bundled"]
    list_filter = ["state", "bundled"]
    search_fields = ["name", "slug", "lineage"]
    readonly_fields = ["created_at", "updated_at"]
    inlines = [TransitionInline]


@admin.register(CourseTransition)
class CourseTransitionAdmin(admin.ModelAdmin):
    list_display = ["course", "from_state", "to_state", "by", "at"]
    list_filter = ["to_state"]
    readonly_fields = ["at"]
