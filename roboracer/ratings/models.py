"""Player ratings: a multi-player skill model (OpenSkill's Plackett-Luce) updated from final places."""

from django.conf import settings
from django.db import models

# OpenSkill's defaults: a new player is mu 25, sigma 25/3; the ordinal mu - 3 sigma orders players.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


class Rating(models.Model):
    """A player's current rating; a player with no row has the defaults."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Rating of {self.user} ({self.mu:.1f}, {self.sigma:.1f})"

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


class RatingChange(models.Model):
    """One rated game's change to one player's rating: its history, one row per player and game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_change_per_game")]

    def __str__(self) -> str:
        return f"Rating change of {self.user} in game {self.game_id}"
