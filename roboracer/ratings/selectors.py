"""Reads of ratings: a player's rating as shown, the ratings of a game's players, the leaderboard. A rating is of
one game kind (KINDS): every read names its kind, or reads the game's (docs/ratings.md "One rating per kind"). Whether a game
is rated, a rating's history and a player's finished games read games' rows: games.selectors.rated and
games.selectors.history (docs/architecture.md "Layers")."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import F, OuterRef, Subquery

from roboracer.accounts import selectors as account_selectors
from roboracer.common import compiled
from roboracer.ratings.models import (
    DEFAULT_KIND,
    DEFAULT_MU,
    DEFAULT_SIGMA,
    KINDS,
    Rating,
    RatingChange,
    ordinal,
)

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


def kind_or_none(value) -> str | None:
    """The rating kind a request names (`?kind=rambots`), or None for anything that is not one (KINDS)."""
    return value if isinstance(value, str) and value in KINDS else None


def kinds() -> list[dict]:
    """The rating pools, in the order pages show them: [{"kind", "title"}]."""
    return [{"kind": kind, "title": title} for kind, title in KINDS.items()]


def ratings_of(*, users, kind: str) -> dict[int, float]:
    """{user id: ordinal} in the `kind` rating for these users (users or ids); a player never rated in that kind
    has the default ordinal. What tournaments seed and break ties by."""
    ids = [getattr(user, "pk", user) for user in users]
    found = {pk: ordinal(mu, sigma) for pk, mu, sigma in Rating.objects.filter(
        user_id__in=ids, kind=kind).values_list("user_id", "mu", "sigma")}
    default = ordinal(DEFAULT_MU, DEFAULT_SIGMA)
    return {pk: found.get(pk, default) for pk in ids}


# Every snapshot reads its players' ratings: the SQL is built once per kind (the variant, a constant of the
# SQL) and number of players.
_ratings_of = compiled.Compiled(lambda kind, *, ids: Rating.objects.filter(
    user_id__in=ids, kind=kind).values_list("user_id", "mu", "sigma"))


def shown_ratings_of(*, users, kind: str) -> dict[int, int]:
    """{user id: shown `kind` rating} for these users (users or ids), in one query; the default for the
    unrated."""
    ids = [getattr(user, "pk", user) for user in users]
    found = {pk: shown(mu, sigma) for pk, mu, sigma in _ratings_of.run(kind, ids=ids)} if ids else {}
    return {pk: found.get(pk, DEFAULT_SHOWN) for pk in ids}


def lobby_annotations() -> dict:
    """What a lobby query of games annotates so that `creator_rating` needs no query per game: the creator's
    rating in the game's own kind (games.selectors.rated adds the mode `is_rated` reads)."""
    creator = Rating.objects.filter(user=OuterRef("creator_id"), kind=OuterRef("kind"))
    return {
        "creator_mu": Subquery(creator.values("mu")[:1]),
        "creator_sigma": Subquery(creator.values("sigma")[:1]),
    }


def creator_rating(*, game) -> int:
    """The shown rating of the game's creator in the game's kind (from `lobby_annotations` when the query made
    them)."""
    if hasattr(game, "creator_mu"):
        if game.creator_mu is None:
            return DEFAULT_SHOWN
        return shown(game.creator_mu, game.creator_sigma)
    kind = game.kind or DEFAULT_KIND
    return shown_ratings_of(users=[game.creator_id], kind=kind)[game.creator_id]


def rating_changes_of(*, game) -> dict[int, int]:
    """{user id: shown points won or lost} in this game (in its kind's rating); empty for a game not (yet)
    rated."""
    return {
        user_id: points(*values)
        for user_id, *values in RatingChange.objects.filter(game=game)
        .values_list("user_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
    }


def rating_of(*, user, kind: str) -> dict:
    """A player's `kind` rating as the player page shows it: the defaults (1000, 0 games) if never rated."""
    rating = Rating.objects.filter(user=user, kind=kind).first()
    return _figures(rating)


def _figures(rating: Rating | None) -> dict:
    mu, sigma, games = (rating.mu, rating.sigma, rating.games) if rating else (DEFAULT_MU, DEFAULT_SIGMA, 0)
    return {
        "rating": shown(mu, sigma),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "rated_games": games,
    }


def ratings_by_kind(*, user) -> dict[str, dict]:
    """{kind: {"kind", "title", "rated", "rating", "mu", "sigma", "rated_games"}} for every kind (KINDS'
    order), in one query. A kind the player has no rated game of is `rated: false` with `rating`, `mu` and
    `sigma` null: "unrated", not the model's starting guess (docs/ratings.md "One rating per kind")."""
    rows = {rating.kind: rating for rating in Rating.objects.filter(user=user, kind__in=list(KINDS))}
    out = {}
    for kind, title in KINDS.items():
        figures = _figures(rows.get(kind))
        if figures["rated_games"] == 0:
            figures.update(rating=None, mu=None, sigma=None)
        out[kind] = {"kind": kind, "title": title, "rated": figures["rated_games"] > 0, **figures}
    return out


def player(*, username: str):
    """The active user of that exact username (case-insensitive, as log-in matches it), or None: a missing
    and an inactive user look the same."""
    if not isinstance(username, str) or not username or len(username) > 150 or not username.isprintable():
        return None  # no username is that long or holds a control character (PostgreSQL refuses NUL in text)
    return get_user_model().objects.filter(username__iexact=username, is_active=True).select_related(
        "profile").first()


def leaderboard(*, kind: str, limit: int = LEADERBOARD_SIZE) -> list[dict]:
    """The top `kind` ratings, best first: players with at least one rated game of that kind."""

    ranked = (
        Rating.objects.filter(kind=kind, games__gt=0, user__is_active=True)
        .select_related("user", "user__profile")
        .annotate(score=F("mu") - 3 * F("sigma"))
        .order_by("-score", "user__username")[:limit]
    )
    return [
        {"username": r.user.get_username(), "name": account_selectors.player_name(user=r.user),
         "bot": account_selectors.is_bot(user=r.user),  # its BOT badge (docs/bot-api.md)
         "rating": shown(r.mu, r.sigma), "games": r.games}
        for r in ranked
    ]
