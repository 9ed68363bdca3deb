"""A game before it starts, for every kind: created, joined, left (or resigned, once running), cancelled and
started by its creator; the seats' colours and the timers' settings."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import broadcast, clocks, kinds, lobby_feed
from games.models import SEAT_COLORS, Game, Seat
from games.selectors import access
from games.selectors import seats as seats_selectors
from games.services import ejection, limits, locking, publish, setup, turns
from roboracer.accounts.models import Profile
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound, RateLimited

logger = logging.getLogger(__name__)


def timer_settings(*, preset: str, move_time: int | None = None, game_time: int | None = None) -> tuple[int, int]:
    """The (move, game) seconds of a preset; "custom" takes them from the caller, within limits."""
    if preset in clocks.PRESETS:
        return clocks.PRESETS[preset]
    if preset != Game.Preset.CUSTOM:
        raise InvalidInput(f"timer_preset: {preset!r} is not one of {', '.join(Game.Preset.values)}")
    if move_time is None or game_time is None:
        raise InvalidInput("timer_preset: custom timers need move_time and game_time (seconds)")
    if not clocks.MIN_MOVE_TIME <= move_time <= clocks.MAX_MOVE_TIME:
        raise InvalidInput(f"move_time: from {clocks.MIN_MOVE_TIME} to {clocks.MAX_MOVE_TIME} seconds, not {move_time}")
    if not 0 <= game_time <= clocks.MAX_GAME_TIME:
        raise InvalidInput(f"game_time: from 0 to {clocks.MAX_GAME_TIME} seconds, not {game_time}")
    return move_time, game_time


def seat_color(user, taken: set[str], number: int) -> str:
    """The player's preferred colour if it is free in this game, else the seat number's colour (or the first
    free one)."""
    preferred = Profile.objects.filter(user=user).values_list("color", flat=True).first()
    for color in (preferred, SEAT_COLORS[number - 1], *SEAT_COLORS):
        if color and color not in taken:
            return color
    return SEAT_COLORS[number - 1]


def check_open_lobbies(*, user) -> None:
    """Refuse (429) a new lobby to an account that already has OPEN_LOBBIES_PER_ACCOUNT games it created and
    nobody started (test drives aside; tournament tables and Pyramid challenges start at once). In the caller's
    transaction: the account's row is locked, so two creates at once are counted one after the other."""
    limit = settings.OPEN_LOBBIES_PER_ACCOUNT
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if Game.objects.filter(creator=user, status=Game.Status.LOBBY, test_drive=False).count() >= limit:
        # A sentence (the lobby form, the game screen's "play again" show it as it is): docs/api.md.
        raise RateLimited(f"You already have {limit} open games waiting for players. Start or cancel one "
                          "before creating another.")


@dataclass(frozen=True)
class Settings:
    """A kind's answer to "make a game of these settings": the Game row's fields of its own (course, seats, seed,
    rules, options...), what the game is for (`use`: games.services.setup; a test drive says so), and whether it starts
    at once (a solo puzzle: nobody to wait for)."""

    fields: dict
    use: str = setup.LOBBY
    starts_at_once: bool = False


@transaction.atomic
def create_game(
    *,
    user,
    kind: str = kinds.DEFAULT,
    visibility: str = Game.Visibility.PUBLIC,
    timer_preset: str = Game.Preset.REALTIME,
    move_time: int | None = None,
    game_time: int | None = None,
    timeout_policy: str = Game.TimeoutPolicy.WAIT,
    use: str = setup.LOBBY,
    computers: int = 0,
    **settings,
) -> Game:
    """A new game of `kind` in the lobby, the creator in seat 1. The kind checks its own `settings` (RoboRacer:
    course, seats, lives, modules, ruleset, teams, options...; games.kinds) and games.services.setup's policy for `use`
    and `computers` (the computer seats to come); the timers, the visibility and the open-lobby limit are
    checked here for every kind."""
    if kind not in kinds.names():
        raise InvalidInput(f"kind: one of {', '.join(kinds.names())}")
    made = kinds.get(kind).settings(user=user, use=use, computers=computers, **settings)
    if visibility not in Game.Visibility.values:
        raise InvalidInput(f"visibility: {visibility!r} is not one of {', '.join(Game.Visibility.values)}")
    if timeout_policy not in Game.TimeoutPolicy.values:
        raise InvalidInput(f"timeout_policy: {timeout_policy!r} is not one of {', '.join(Game.TimeoutPolicy.values)}")
    move, game_seconds = timer_settings(preset=timer_preset, move_time=move_time, game_time=game_time)
    if made.use == setup.LOBBY and not made.starts_at_once:
        check_open_lobbies(user=user)
    if made.use == setup.LOBBY:
        limits.check_bot_games(user=user)  # a bot account's games at once (docs/bot-api.md "Limits")
    game = Game.objects.create(
        kind=kind,
        creator=user,
        visibility=visibility,
        invite_code=secrets.token_urlsafe(12) if visibility == Game.Visibility.PRIVATE else "",
        timer_preset=timer_preset,
        move_time=move,
        game_time=game_seconds,
        timeout_policy=timeout_policy,
        **made.fields,
    )
    Seat.objects.create(game=game, user=user, number=1, color=seat_color(user, set(), 1))
    publish.append_event(game, "game_created", {"seat": 1})
    if made.starts_at_once:
        turns.start(game)
        game.save()
        return game
    game.save(update_fields=["version"])
    return game


@transaction.atomic
def join_game(*, user, game_id: int, invite: str = "") -> Seat:
    # Without an invite, only a game the user may see (public, or private with their seat, or staff); with
    # one, a private game must match it. Either way a stranger gets the NotFound of a missing id.
    game = locking.locked_game(game_id) if invite else locking.locked_game(game_id, user=user)
    if invite and game.visibility == Game.Visibility.PRIVATE and not access.invite_matches(game=game, code=invite):
        raise NotFound(f"game {game_id} does not exist")
    if game.status != Game.Status.LOBBY:
        raise Conflict("this game has already started")
    seats = list(game.seats.all())
    if any(seat.user_id == user.pk for seat in seats):
        raise Conflict("you already have a seat in this game")
    if len(seats) >= game.max_seats:
        raise Conflict("this game is full")
    limits.check_bot_games(user=user)
    taken = {seat.number for seat in seats}
    number = min(n for n in range(1, game.max_seats + 1) if n not in taken)
    color = seat_color(user, {seat.color for seat in seats}, number)
    seat = Seat.objects.create(game=game, user=user, number=number, color=color)
    publish.append_event(game, "seat_joined", {"seat": number, "user": user.get_username(), "color": color})
    if len(seats) + 1 == game.max_seats and not game.teams:
        turns.start(game)  # a team game waits for its creator, who may still arrange the teams (docs/modes.md)
    game.save()
    return seat


@transaction.atomic
def leave_game(*, user, game_id: int) -> Game:
    """In the lobby: give the seat up. In a running game: resign (the bot is ejected)."""
    game = locking.locked_game(game_id, user=user)
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    if game.status == Game.Status.LOBBY:
        if game.creator_id == user.pk:
            raise Conflict("you created this game: cancel it instead of leaving")
        seat.delete()
        if game.visibility == Game.Visibility.PRIVATE:  # their sockets check again, before any frame of this
            game_id, user_id = game.pk, user.pk
            transaction.on_commit(lambda: broadcast.access_changed(game_id, user_id), robust=True)
        lobby_feed.changed(game=game, left=(user.pk,))
        publish.append_event(game, "seat_left", {"seat": seat.number})
    elif game.status == Game.Status.PROGRAMMING:
        if seat.ejected_at is not None or not turns.in_game(game, seat):
            raise Conflict("your bot is already out of this game")
        ejection.eject(game, [seat], by=user.get_username(), reason="resigned")
    elif game.status == Game.Status.RESOLVING:
        raise Conflict("a turn is being played; leave once it has been")
    else:
        raise Conflict(f"this game is {game.status}")
    game.save()
    return game


@transaction.atomic
def cancel_game(*, user, game_id: int) -> Game:
    game = locking.locked_game(game_id, user=user)
    if game.creator_id != user.pk and not user.is_staff:
        raise NotAllowed("only the game's creator can cancel it")
    if game.status != Game.Status.LOBBY:
        raise Conflict("only a game that has not started can be cancelled")
    game.status = Game.Status.CANCELLED
    game.finished_at = timezone.now()
    publish.append_event(game, "game_cancelled", {})
    game.save()
    return game


@transaction.atomic
def start_game(*, user, game_id: int) -> Game:
    game = locking.locked_game(game_id, user=user)
    if game.creator_id != user.pk:
        raise NotAllowed("only the game's creator can start it")
    if game.status != Game.Status.LOBBY:
        raise Conflict("this game has already started")
    seats = game.seats.count()
    minimum = seats_selectors.start_minimum(game)  # a test drive starts with whoever is seated
    if seats < minimum:
        raise Conflict(f"{kinds.of(game).board_name(game)} needs at least {minimum} player(s); {seats} seated")
    turns.start(game)
    game.save()
    return game

