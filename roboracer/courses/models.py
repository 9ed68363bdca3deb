from django.db import models


class Course(models.Model):
    """A course in the roboracer-course/1 format; `data` is validated by the engine before it is saved."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    data = models.JSONField()
    bundled = models.BooleanField(default=False)
    min_players = models.PositiveSmallIntegerField()
    max_players = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
