"""Every read of a game, shaped per viewer: a viewer sees their own hand and program and nobody else's."""

from __future__ import annotations

from django.db.models import Count, QuerySet

import engine
from games.models import Game, GameEvent, Hand, Program, Seat


def open_games() -> QuerySet[Game]:
    return (
        Game.objects.filter(status=Game.Status.LOBBY)
        .select_related("course", "creator")
        .annotate(seated=Count("seats"))
    )


def games_of(*, user) -> QuerySet[Game]:
    # Filter through a subquery: filtering on the seats join would make Count("seats") count only mine.
    return (
        Game.objects.filter(pk__in=Seat.objects.filter(user=user).values("game_id"))
        .exclude(status=Game.Status.CANCELLED)
        .select_related("course")
        .annotate(seated=Count("seats"))
    )


def get_game(*, game_id: int) -> Game | None:
    return Game.objects.select_related("course", "creator").filter(pk=game_id).first()


def can_view(*, user, game: Game) -> bool:
    """Games are public for now: any signed-in user may watch (seated players play)."""
    return bool(user and user.is_authenticated)


def seat_of(*, user, game: Game) -> Seat | None:
    if not user or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


SNAPSHOT_BOT_FIELDS = ("id", "at", "dir", "damage", "lives", "next_checkpoint", "virtual", "rebooting")


def game_snapshot(*, game: Game, user) -> dict:
    """The whole game as `user` may see it, with the version of the last event it includes."""
    seats = list(game.seats.select_related("user").order_by("number"))
    ready = set(
        Program.objects.filter(seat__game=game, turn=game.turn).values_list("seat_id", flat=True)
    )
    state = game.state or {}
    me = None
    mine = next((seat for seat in seats if user and seat.user_id == user.pk), None)
    if mine is not None:
        hand = Hand.objects.filter(seat=mine, turn=game.turn).first()
        program = Program.objects.filter(seat=mine, turn=game.turn).first()
        me = {
            "seat": mine.number,
            "bot": mine.bot_id,
            "hand": hand.chips if hand else [],
            "program": program.chips if program else None,
            "reboot": program.reboot if program else False,
            "frozen": _frozen(state, mine.bot_id),
        }
    in_lobby = game.status == Game.Status.LOBBY
    last = game.turns.order_by("-number").values("number", "events").first()
    return {
        "id": game.pk,
        "status": game.status,
        "turn": game.turn,
        "version": game.version,
        "course": game.course_data,
        "creator": game.creator.get_username(),
        "max_seats": game.max_seats,
        "lives": game.lives,
        "seats": [
            {
                "number": seat.number,
                "user": seat.user.get_username(),
                "bot": seat.bot_id,
                "color": seat.color,
                "ready": seat.pk in ready,
            }
            for seat in seats
        ],
        "bots": _public_bots(state),
        "priority": state.get("priority", []),
        "radiation": state.get("radiation", []),
        "winner": state.get("winner"),
        "me": me,
        "last_turn": {"turn": last["number"], "events": last["events"]} if last else None,
        "can_join": bool(in_lobby and mine is None and len(seats) < game.max_seats and user.is_authenticated),
        "can_start": bool(
            in_lobby and user and game.creator_id == user.pk and len(seats) >= game.course.min_players
        ),
    }


def _public_bots(state: dict) -> list[dict]:
    """The bots as anyone may see them (SNAPSHOT_BOT_FIELDS): position, facing, damage, lives, progress, and
    whether the bot sits this turn out rebooting (asked for with last turn's program, revealed when it ran)."""
    return [{key: bot.get(key) for key in SNAPSHOT_BOT_FIELDS} for bot in (state or {}).get("bots", [])]


def resolved_turn(*, game: Game, number: int) -> dict | None:
    """A resolved turn for replay, public to every viewer: the bots before and after, the events, and the
    programs (revealed once the turn ran). None when that turn has not been resolved."""
    turn = game.turns.filter(number=number).first()
    if turn is None:
        return None
    return {
        "turn": turn.number,
        "events": turn.events,
        "programs": turn.programs,
        "reboots": turn.reboots,
        "before": _public_state(turn.state_before),
        "after": _public_state(turn.state_after),
    }


def _public_state(state: dict) -> dict:
    return {"bots": _public_bots(state), "priority": state.get("priority", []), "radiation": state.get("radiation", [])}


def _frozen(state: dict, bot_id: str) -> list[dict]:
    for bot in state.get("bots", []):
        if bot["id"] == bot_id:
            frozen = engine.frozen_registers(engine.bot_from_dict(bot))
            return [{"register": index, "chip": chip} for index, chip in sorted(frozen.items())]
    return []


def awaiting_my_move(*, user, games) -> set[int]:
    """Ids of the given games where it is the user's move: programming, seated, no program in yet."""
    waiting = set()
    for game in games:
        if game.status == Game.Status.PROGRAMMING:
            if not Program.objects.filter(seat__game=game, seat__user=user, turn=game.turn).exists():
                waiting.add(game.pk)
    return waiting


def events_since(*, game: Game, version: int) -> QuerySet[GameEvent]:
    return game.events.filter(version__gt=version).order_by("version")
