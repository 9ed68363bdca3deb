from django.conf import settings
from django.db import models


class Course(models.Model):
    """A course in the roboracer-course/1 format; `data` is validated by the engine before it is saved.

    Courses move through states (docs/course-builder.md, "States and review"); a stable course is frozen and an
    edit makes a new version with the same `lineage` (the slug of version 1)."""

    class State(models.TextChoices):
        PRIVATE = "private"  # only the author (and staff) see it
        DEVELOPMENT = "development"  # anyone may play it, in unrated games
        REVIEW = "review"  # the author, staff and the "reviewers" group see it
        STABLE = "stable"  # the gallery, the lobby, tournaments; frozen

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    data = models.JSONField()
    bundled = models.BooleanField(default=False)
    min_players = models.PositiveSmallIntegerField()
    max_players = models.PositiveSmallIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="courses"
    )  # null for the bundled courses
    state = models.CharField(max_length=12, choices=State.choices, default=State.PRIVATE, db_index=True)
    version = models.PositiveIntegerField(default=1)
    lineage = models.SlugField(db_index=True)  # the slug of version 1
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "version"]
        constraints = [models.UniqueConstraint(fields=["lineage", "version"], name="one_course_per_lineage_version")]

    def __str__(self) -> str:
        return self.name if self.version == 1 else f"{self.name} (v{self.version})"


class CourseTransition(models.Model):
    """A change of a course's state: who made it, from what, to what, why and when."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="transitions")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    from_state = models.CharField(max_length=12, choices=Course.State.choices)
    to_state = models.CharField(max_length=12, choices=Course.State.choices)
    reason = models.TextField(blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{self.course}: {self.from_state} → {self.to_state}"


class ReviewComment(models.Model):
    """A reviewer's comment on a course version in review, optionally on one square (x, y) of its board, or a
    reply in its thread (`reply_to`; a reply has no square of its own). The course's author reads them, replies and
    marks them resolved (docs/course-builder.md, "Review comments")."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="review_comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    reply_to = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies")
    text = models.TextField(max_length=2000)
    x = models.PositiveSmallIntegerField(null=True, blank=True)
    y = models.PositiveSmallIntegerField(null=True, blank=True)
    resolved = models.BooleanField(default=False)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    resolved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(x__isnull=True, y__isnull=True)
                                   | models.Q(x__isnull=False, y__isnull=False),
                                   name="review_comment_square_is_both_or_neither"),
            models.CheckConstraint(condition=models.Q(reply_to__isnull=True) | models.Q(x__isnull=True),
                                   name="review_comment_reply_has_no_square"),
        ]

    def __str__(self) -> str:
        where = f" at ({self.x}, {self.y})" if self.x is not None else ""
        return f"{self.course}{where}: {self.text[:40]}"
