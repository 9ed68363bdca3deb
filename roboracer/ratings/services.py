"""Writes of ratings: a finished rated game updates its players' ratings, once (docs/ratings.md)."""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from roboracer.ratings import signals
from roboracer.ratings.models import DEFAULT_MU, DEFAULT_SIGMA, Rating, RatingChange

log = logging.getLogger(__name__)

# OpenSkill's Plackett-Luce model with the library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def rate_game(*, game, state) -> list[RatingChange]:
    """Update the rating of every player of the finished `game` from `state.places` ({bot id: place}, equal
    places a tie), with one RatingChange each; nothing when the game is unrated or was rated already. Seats
    that never moved (no program) are left out; with fewer than two seats that moved the game is marked
    `aborted` and rated for nobody (docs/ratings.md "Aborted games").

    Runs inside the transaction that finishes the game (games.signals.game_finished), in a savepoint: the
    players' Rating rows are locked in user id order (two games finishing at once with a common player
    wait for each other, never deadlock), and a game already rated (a RatingChange exists; the unique
    constraint backs this) changes nothing. A failure here is logged and leaves the game unrated rather than
    rolling the finishing turn back."""
    if _abort_if_unplayed(game):
        return []
    if not signals.ask(signals.is_rated, game=game):
        return []
    try:
        with transaction.atomic():
            return _rate(game, dict(state.places or {}))
    except IntegrityError:
        # The unique constraint: the same game rated by another transaction at the same moment.
        log.info("game %s was already rated", game.pk)
        return []
    except Exception:
        log.exception("rating game %s failed; it stays unrated", game.pk)
        return []


def _abort_if_unplayed(game) -> bool:
    """Mark the finished `game` aborted when it had two seats or more but fewer than two of them moved (sent a
    program): lichess's abort, the game then unrated for everyone (docs/ratings.md "Aborted games"). The
    caller's transaction holds the game row; the column is written with a conditional UPDATE."""
    seats = game.seats.count()
    if seats < 2 or len(signals.ask(signals.moved_seat_ids, game=game)) >= 2:
        return False
    type(game).objects.filter(pk=game.pk, aborted=False).update(aborted=True)
    game.aborted = True
    log.info("game %s aborted: fewer than two seats moved", game.pk)
    return True


def _rate(game, places: dict) -> list[RatingChange]:
    moved = signals.ask(signals.moved_seat_ids, game=game)
    # A seat ejected or resigned before its first program is left out (lichess rates no player who never moved).
    seats = [seat for seat in game.seats.order_by("number") if seat.pk in moved]
    players = [(seat.user_id, places.get(seat.bot_id)) for seat in seats]
    if len(players) < 2 or any(not isinstance(place, int) for _, place in players):
        return []  # a solo game, or a state without every bot's place: nothing to compare
    user_ids = sorted(user_id for user_id, _ in players)
    # Missing rows first (ON CONFLICT DO NOTHING: a concurrent insert of the same row waits, then is skipped),
    # then every row locked, in one order for everyone.
    Rating.objects.bulk_create([Rating(user_id=pk) for pk in user_ids], ignore_conflicts=True)
    ratings = {r.user_id: r for r in Rating.objects.select_for_update().filter(user_id__in=user_ids).order_by("user_id")}
    if RatingChange.objects.filter(game=game).exists():
        return []
    before = [MODEL.rating(mu=ratings[pk].mu, sigma=ratings[pk].sigma) for pk, _ in players]
    after = MODEL.rate([[rating] for rating in before], ranks=[place for _, place in players])
    changes = []
    now = timezone.now()
    for (pk, place), old, (new,) in zip(players, before, after, strict=True):
        rating = ratings[pk]
        rating.mu, rating.sigma, rating.games, rating.updated_at = new.mu, new.sigma, rating.games + 1, now
        changes.append(RatingChange(user_id=pk, game=game, place=place, mu_before=old.mu, sigma_before=old.sigma,
                                    mu_after=new.mu, sigma_after=new.sigma))
    Rating.objects.bulk_update(list(ratings.values()), ["mu", "sigma", "games", "updated_at"])
    return RatingChange.objects.bulk_create(changes)


def on_game_finished(sender, *, game, state, **kwargs) -> None:
    """The games.signals.game_finished receiver."""
    rate_game(game=game, state=state)
