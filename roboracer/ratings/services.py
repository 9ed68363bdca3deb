"""Writes of ratings: a finished rated game updates its players' ratings, once (docs/ratings.md)."""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from roboracer.ratings.models import DEFAULT_MU, DEFAULT_SIGMA, KINDS, Rating, RatingChange

log = logging.getLogger(__name__)

# OpenSkill's Plackett-Luce model with the library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def rate_game(*, game_id: int, kind: str, players: list[tuple[int, int | None]]) -> list[RatingChange]:
    """Update the `kind` rating (a key of KINDS: the game's kind) of every player of the finished game `game_id`
    from `players` (user id, place) in seat order, equal places a tie, with one RatingChange each; nothing when
    a place is missing, with fewer than two players, or when the game was rated already. Only that kind's
    ratings move: a RAMbots game leaves every RoboRacer rating as it was, and the other way round. Games decides
    which games count and who is in `players` (games.services.rating: rated games, the seats that moved).

    Runs inside the transaction that finishes the game, in a savepoint: the players' Rating rows are locked in
    user id order (two games finishing at once with a common player wait for each other, never deadlock), and
    a game already rated (a RatingChange exists; the unique constraint backs this) changes nothing. A failure
    here is logged and leaves the game unrated rather than rolling the finishing turn back."""
    try:
        with transaction.atomic():
            return _rate(game_id, kind, players)
    except IntegrityError:
        # The unique constraint: the same game rated by another transaction at the same moment.
        log.info("game %s was already rated", game_id)
        return []
    except Exception:
        log.exception("rating game %s failed; it stays unrated", game_id)
        return []


def _rate(game_id: int, kind: str, players: list[tuple[int, int | None]]) -> list[RatingChange]:
    if kind not in KINDS:
        raise ValueError(f"no rating pool for the game kind {kind!r}")
    if len(players) < 2 or any(not isinstance(place, int) for _, place in players):
        return []  # a solo game, or a state without every bot's place: nothing to compare
    user_ids = sorted(user_id for user_id, _ in players)
    # Missing rows first (ON CONFLICT DO NOTHING: a concurrent insert of the same row waits, then is skipped),
    # then every row locked, in one order for everyone.
    Rating.objects.bulk_create([Rating(user_id=pk, kind=kind) for pk in user_ids], ignore_conflicts=True)
    ratings = {r.user_id: r for r in Rating.objects.select_for_update().filter(
        user_id__in=user_ids, kind=kind).order_by("user_id")}
    if RatingChange.objects.filter(game_id=game_id).exists():
        return []
    before = [MODEL.rating(mu=ratings[pk].mu, sigma=ratings[pk].sigma) for pk, _ in players]
    after = MODEL.rate([[rating] for rating in before], ranks=[place for _, place in players])
    changes = []
    now = timezone.now()
    for (pk, place), old, (new,) in zip(players, before, after, strict=True):
        rating = ratings[pk]
        rating.mu, rating.sigma, rating.games, rating.updated_at = new.mu, new.sigma, rating.games + 1, now
        changes.append(RatingChange(user_id=pk, game_id=game_id, kind=kind, place=place, mu_before=old.mu,
                                    sigma_before=old.sigma, mu_after=new.mu, sigma_after=new.sigma))
    Rating.objects.bulk_update(list(ratings.values()), ["mu", "sigma", "games", "updated_at"])
    return RatingChange.objects.bulk_create(changes)
