from django.contrib import admin

from roboracer.courses.models import Course, CourseTransition, ReviewComment


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


@admin.register(ReviewComment)
class ReviewCommentAdmin(admin.ModelAdmin):
    list_display = ["course", "x", "y", "author", "reply_to", "resolved", "created_at"]
    list_filter = ["resolved"]
    search_fields = ["course__slug", "text"]
    readonly_fields = ["created_at", "resolved_at"]
    raw_id_fields = ["course", "reply_to", "author", "resolved_by"]
