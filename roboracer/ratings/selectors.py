"""Reads of ratings: a player's rating as shown, the ratings of a game's players, the leaderboard. Whether a game
is rated, a rating's history and a player's finished games read games' rows: games.selectors.rated and
games.selectors.history (docs/architecture.md "Layers")."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import F, OuterRef, Subquery

from roboracer.accounts import selectors as account_selectors
from roboracer.common import compiled
from roboracer.ratings.models import DEFAULT_MU, DEFAULT_SIGMA, Rating, RatingChange, ordinal

# The shown rating: 1000 + SCALE x the ordinal (mu - 3 sigma), so a new player shows 1000 (docs/ratings.md).
SHOWN_BASE = 1000
SHOWN_SCALE = 40
LEADERBOARD_SIZE = 100


def shown(mu: float, sigma: float) -> int:
    """The rating players read: a whole number, 1000 for a new player, never below 0."""
    return max(0, round(SHOWN_BASE + SHOWN_SCALE * ordinal(mu, sigma)))


DEFAULT_SHOWN = shown(DEFAULT_MU, DEFAULT_SIGMA)


def points(mu_before: float, sigma_before: float, mu_after: float, sigma_after: float) -> int:
    """A game's change to the shown rating (what the results and the player page print as +12 or -7)."""
    return shown(mu_after, sigma_after) - shown(mu_before, sigma_before)


def ratings_of(*, users) -> dict[int, float]:
    """{user id: ordinal} for these users (users or ids); a player never rated has the default ordinal."""
    ids = [getattr(user, "pk", user) for user in users]
    found = {pk: ordinal(mu, sigma) for pk, mu, sigma in Rating.objects.filter(user_id__in=ids).values_list(
        "user_id", "mu", "sigma")}
    default = ordinal(DEFAULT_MU, DEFAULT_SIGMA)
    return {pk: found.get(pk, default) for pk in ids}


# Every snapshot reads its players' ratings: the SQL is built once per number of players.
_ratings_of = compiled.Compiled(lambda _variant, *, ids: Rating.objects.filter(user_id__in=ids).values_list(
    "user_id", "mu", "sigma"))


def shown_ratings_of(*, users) -> dict[int, int]:
    """{user id: shown rating} for these users (users or ids), in one query; the default for the unrated."""
    ids = [getattr(user, "pk", user) for user in users]
    found = {pk: shown(mu, sigma) for pk, mu, sigma in _ratings_of.run(ids=ids)} if ids else {}
    return {pk: found.get(pk, DEFAULT_SHOWN) for pk in ids}


def lobby_annotations() -> dict:
    """What a lobby query of games annotates so that `creator_rating` needs no query per game: the creator's
    rating (games.selectors.rated adds the mode `is_rated` reads)."""
    creator = Rating.objects.filter(user=OuterRef("creator_id"))
    return {
        "creator_mu": Subquery(creator.values("mu")[:1]),
        "creator_sigma": Subquery(creator.values("sigma")[:1]),
    }


def creator_rating(*, game) -> int:
    """The shown rating of the game's creator (from `lobby_annotations` when the query made them)."""
    if hasattr(game, "creator_mu"):
        if game.creator_mu is None:
            return DEFAULT_SHOWN
        return shown(game.creator_mu, game.creator_sigma)
    return shown_ratings_of(users=[game.creator_id])[game.creator_id]


def rating_changes_of(*, game) -> dict[int, int]:
    """{user id: shown points won or lost} in this game; empty for a game not (yet) rated."""
    return {
        user_id: points(*values)
        for user_id, *values in RatingChange.objects.filter(game=game)
        .values_list("user_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
    }


def rating_of(*, user) -> dict:
    """A player's rating as the player page shows it."""
    rating = Rating.objects.filter(user=user).first()
    mu, sigma, games = (rating.mu, rating.sigma, rating.games) if rating else (DEFAULT_MU, DEFAULT_SIGMA, 0)
    return {
        "rating": shown(mu, sigma),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "rated_games": games,
    }


def player(*, username: str):
    """The active user of that exact username (case-insensitive, as log-in matches it), or None: a missing
    and an inactive user look the same."""
    if not isinstance(username, str) or not username or len(username) > 150 or not username.isprintable():
        return None  # no username is that long or holds a control character (PostgreSQL refuses NUL in text)
    return get_user_model().objects.filter(username__iexact=username, is_active=True).select_related(
        "profile").first()


def leaderboard(*, limit: int = LEADERBOARD_SIZE) -> list[dict]:
    """The top ratings, best first: players with at least one rated game."""

    ranked = (
        Rating.objects.filter(games__gt=0, user__is_active=True)
        .select_related("user", "user__profile")
        .annotate(score=F("mu") - 3 * F("sigma"))
        .order_by("-score", "user__username")[:limit]
    )
    return [
        {"username": r.user.get_username(), "name": account_selectors.player_name(user=r.user),
         "rating": shown(r.mu, r.sigma), "games": r.games}
        for r in ranked
    ]
