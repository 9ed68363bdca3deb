"""The module price book (003 "The Economy"): one row per course and module, moved by every charge bought in
a game on that course, and a history of points for the course page's chart (docs/rules.md "The module economy
on the site")."""

from django.db import models

from roboracer.courses.models import Course


class ModulePrice(models.Model):
    """The price of one charge of `module` on `course`, as the course's past games left it. One row per module,
    so that a purchase is a single-row atomic UPDATE (F() with the floor in the same statement)."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="module_prices")
    module = models.CharField(max_length=32)
    price = models.PositiveIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["course", "module"]
        constraints = [models.UniqueConstraint(fields=["course", "module"], name="one_price_per_course_module")]

    def __str__(self) -> str:
        return f"{self.module} on {self.course_id}: {self.price}"


class PricePoint(models.Model):
    """The course's whole book right after a resolved turn that bought charges, with what that turn bought.

    Written in the turn's transaction while it holds the book rows it moved, so on one course the points'
    ids follow the order in which the purchases were applied (and committed)."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="price_points")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    turn = models.PositiveIntegerField(null=True, blank=True)
    # [{"module", "charges", "modules": [the game's available modules]}], in the order they were applied.
    purchases = models.JSONField(default=list)
    prices = models.JSONField()  # {module: price} for all 17 after this turn
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Prices of course {self.course_id} after game {self.game_id} turn {self.turn}"
