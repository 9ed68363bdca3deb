"""Player ratings: a multi-player skill model (OpenSkill's Plackett-Luce) updated from final places."""

from django.conf import settings
from django.db import models

# OpenSkill's defaults: a new player is mu 25, sigma 25/3; the ordinal mu - 3 sigma orders players.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0

# The rating pools: one per rated game kind (games.kinds' names), in the order pages show them, with the title
# pages give it. A result of one kind says nothing of another kind's skill, so each kind is rated on its own
# (docs/ratings.md "One rating per kind"). A kind whose adapter says `rated = True` has its entry here
# (tests/ratings/test_kinds.py checks it); the kind is a plain string, so a new pool needs no migration.
ROBORACER = "roboracer"
RAMBOTS = "rambots"
KINDS = {ROBORACER: "RoboRacer", RAMBOTS: "RAMbots"}
DEFAULT_KIND = ROBORACER


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


class Rating(models.Model):
    """A player's current rating in one game kind (one row per user and kind); a player with no row of a kind
    has the defaults there."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=16, default=DEFAULT_KIND)  # a key of KINDS
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_user_and_kind")]
        indexes = [models.Index(fields=["kind", "games"], name="rating_kind_games")]

    def __str__(self) -> str:
        return f"{KINDS.get(self.kind, self.kind)} rating of {self.user} ({self.mu:.1f}, {self.sigma:.1f})"

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


class RatingChange(models.Model):
    """One rated game's change to one player's rating: its history, one row per player and game. `kind` is the
    rating it changed (the game's kind, stored so that a kind's history reads no game row)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    kind = models.CharField(max_length=16, default=DEFAULT_KIND)
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_change_per_game")]
        indexes = [models.Index(fields=["user", "kind", "created_at"], name="rating_change_user_kind")]

    def __str__(self) -> str:
        return f"Rating change of {self.user} in game {self.game_id}"
