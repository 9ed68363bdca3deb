"""The Pyramid: a standing ladder of rows (1 place in row 1, 2 in row 2, ...), challenges and their games.

docs/pyramid.md gives every rule and the reasons for the choices the issue left open."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from games.models import Game
from roboracer.courses.models import Course

# What a challenge costs by how many rows up the defender is (docs/pyramid.md, "Challenges"); more: refused.
COSTS = {0: 0, 1: 1, 2: 2, 3: 4, 4: 8}
MAX_ROWS_UP = max(COSTS)


class Pyramid(models.Model):
    """One standing ladder with its pool of stable courses and its challenge rules."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, default="")
    # The pool. Offered in the admin: stable courses that take 2 players (only those are drawn, whatever the pool
    # holds: a course may be retired after being put in it). Empty: every stable bundled course for 2.
    courses = models.ManyToManyField(
        Course, related_name="pyramids", blank=True,
        limit_choices_to={"state": Course.State.STABLE, "min_players__lte": 2, "max_players__gte": 2},
        help_text="stable courses for 2 players; none: every stable bundled course for 2",
    )
    starting_points = models.PositiveSmallIntegerField(default=2, help_text="challenge points of a new player")
    max_defences = models.PositiveSmallIntegerField(default=2, help_text="open challenges a player may defend at once")
    lives = models.PositiveSmallIntegerField(default=3)
    timer_preset = models.CharField(max_length=12, choices=Game.Preset.choices, default=Game.Preset.TOURNAMENT)
    move_time = models.PositiveIntegerField(null=True, blank=True, help_text="seconds; only for the custom preset")
    game_time = models.PositiveIntegerField(null=True, blank=True, help_text="seconds; only for the custom preset")
    timeout_policy = models.CharField(max_length=8, choices=Game.TimeoutPolicy.choices,
                                      default=Game.TimeoutPolicy.EJECT)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.timer_preset == Game.Preset.CUSTOM and (self.move_time is None or self.game_time is None):
            raise ValidationError("custom timers need both a move time and a game time (seconds)")


class Place(models.Model):
    """A player's place in a pyramid: row 1 is the top; within a row, position 1 (leftmost) ranks first."""

    pyramid = models.ForeignKey(Pyramid, on_delete=models.CASCADE, related_name="places")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pyramid_places")
    row = models.PositiveIntegerField()
    position = models.PositiveIntegerField()
    points = models.PositiveIntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["row", "position"]
        constraints = [
            models.UniqueConstraint(fields=["pyramid", "user"], name="one_place_per_player"),
            models.UniqueConstraint(fields=["pyramid", "row", "position"], name="one_player_per_place"),
            models.CheckConstraint(condition=models.Q(position__lte=models.F("row")), name="position_within_row"),
        ]

    def __str__(self) -> str:
        return f"{self.user} at row {self.row}, place {self.position} of {self.pyramid}"

    @property
    def rank(self) -> tuple[int, int]:
        return (self.row, self.position)


class Challenge(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"  # its game is being played
        CHALLENGER_WON = "challenger_won"  # the two swapped places
        DEFENDER_WON = "defender_won"  # the defender earned a point
        NO_WINNER = "no_winner"  # nothing changed
        REVOKED = "revoked"  # the challenger took it back while it was pending; its game was cancelled

    pyramid = models.ForeignKey(Pyramid, on_delete=models.CASCADE, related_name="challenges")
    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="pyramid_challenge")
    cost = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    # The places as they were when the challenge was made, and when it ended: (row, position) pairs.
    challenger_from = models.JSONField()
    defender_from = models.JSONField()
    challenger_to = models.JSONField(null=True, blank=True)
    defender_to = models.JSONField(null=True, blank=True)
    points_change = models.IntegerField(default=0, help_text="a refund, a revoke's fee, a defender's point")
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One open challenge of your own at a time (docs/pyramid.md), backed by the database too.
            models.UniqueConstraint(fields=["pyramid", "challenger"], condition=models.Q(status="open"),
                                    name="one_open_challenge_per_challenger"),
        ]

    def __str__(self) -> str:
        return f"Challenge {self.pk}: {self.challenger} → {self.defender} ({self.status})"


class Entry(models.Model):
    """A line of the pyramid's history: joins, challenges, results, swaps, revokes (selectors.history words it)."""

    class Kind(models.TextChoices):
        JOINED = "joined"
        CHALLENGED = "challenged"
        SWAPPED = "swapped"
        DEFENDED = "defended"
        NO_WINNER = "no_winner"
        REVOKED = "revoked"

    pyramid = models.ForeignKey(Pyramid, on_delete=models.CASCADE, related_name="history")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    other = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    challenge = models.ForeignKey(Challenge, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    # What the line needs besides the players (whose names are read when it is shown): rows, cost, points.
    detail = models.JSONField(default=dict)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.kind} in {self.pyramid} at {self.at:%Y-%m-%d %H:%M}"
