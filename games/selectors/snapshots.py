"""A game's snapshot, shaped per viewer: a viewer sees their own hand and program and nobody else's."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

import engine
from games import clocks, kinds
from games.models import Game, Program, Seat
from games.selectors import access, chat, competitions, rated, rematch
from games.selectors import seats as game_seats
from roboracer.accounts.selectors import is_bot, player_name, vacation
from roboracer.ratings import selectors as ratings


def game_snapshot(*, game: Game, user) -> dict:
    """The whole game as `user` may see it, with the version of the last event it includes."""
    return game_snapshots(game=game, users=[user])[0][1]


def game_snapshots(*, game: Game, users: list | None = None, last_turn: dict | None = None,
                   dealt: dict | None = None) -> list[tuple]:
    """(user, `game_snapshot`) for each of `users`, or for every player whose bot was not ejected, reading
    the shared part once (what a deal pushes to every player). `last_turn` ({"number", "events"}: the turn
    the caller has just stored) and `dealt` (a RoboRacer deal's {"hands": {seat id: chips}, "programs":
    {seat id: Program}}, all of the turn's) save reading them back."""
    now = timezone.now()
    seats = game_seats.seats_of(game=game, with_users=True)
    if users is None:
        users = [seat.user for seat in seats if seat.ejected_at is None]
    programs = dealt["programs"] if dealt is not None else {
        program.seat_id: program for program in Program.objects.filter(seat__game=game, turn=game.turn)}
    state = game.state or {}
    in_lobby = game.status == Game.Status.LOBBY
    seated = {seat.user_id: seat for seat in seats}
    mine_ids = [seated[user.pk].pk for user in users if user and user.pk in seated]
    kind = kinds.of(game)
    private = kind.private_context(game=game, state=state, seat_ids=mine_ids,  # read once for every viewer
                                   **({"hands": dealt["hands"]} if dealt is not None else {}))
    last = last_turn or game.turns.order_by("-number").values("number", "events").first()
    shown_ratings = ratings.shown_ratings_of(users=[seat.user_id for seat in seats], kind=kind.name)  # its kind's
    rating_changes = ratings.rating_changes_of(game=game) if game.status == Game.Status.FINISHED else {}
    chat_lines = chat.recent_chat(game=game, teams=True)  # filtered per viewer below (team chat)
    chat_readers = chat.team_chat_readers(chat=chat_lines)
    shared = {
        "id": game.pk,
        "status": game.status,
        "turn": game.turn,
        "version": game.version,
        "kind": kind.name,
        "course": game.course_data if kind.takes_chips else None,
        "creator": _creator(game, seats).get_username(),
        "max_seats": game.max_seats,
        "visibility": game.visibility,
        "rated": rated.is_rated(game=game),
        "aborted": game.aborted,  # finished with fewer than two seats that moved: unrated (docs/ratings.md)
        "timers": {
            "preset": game.timer_preset,
            "move": game.move_time,
            "game": game.game_time,
            "policy": game.timeout_policy,
        },
        "server_time": now.isoformat(),
        "seats": [
            {
                "number": seat.number,
                "user": seat.user.get_username(),
                "display_name": player_name(user=seat.user),
                "bot_account": is_bot(user=seat.user),  # a bot account: its BOT badge (docs/bot-api.md)
                "rating": None if seat.computer else shown_ratings[seat.user_id],  # computers are unrated
                "rating_change": rating_changes.get(seat.user_id),
                "vacation": vacation(user=seat.user, now=now),
                "bot": seat.bot_id,
                "color": seat.color,
                "ready": seat.pk in programs,
                "team": seat.team or None,
                "ejected": seat.ejected_at is not None,
                "computer": seat.computer or None,  # a computer player's strength (docs/computer-players.md)
                "autopilot": seat.autopilot,  # a computer plays this person's seat (timeout policy "computer")
                **{key: value for key, value in clocks.public(seat, now).items() if key != "number"},
            }
            for seat in seats
        ],
        **kind.public_fields(game=game, state=state, seats=seats),
        "last_turn": {"turn": last["number"], "events": last["events"]} if last else None,
        "rematch": rematch.rematch_of(game),
        # A finished game's tournament (or other competition), if it is a table of one: no query while it runs.
        "competition": competitions.competition(game=game) if game.status == Game.Status.FINISHED else None,
    }
    snapshots = []
    for user in users:
        mine = seated.get(user.pk) if user else None
        me = None
        if mine is not None:
            program = programs.get(mine.pk)
            me = {
                "seat": mine.number,
                "bot": mine.bot_id,
                "archived": mine.archived,
                "team": mine.team or None,
                "ejected": mine.ejected_at is not None,
                "autopilot": mine.autopilot,
                **kind.private_fields(game=game, state=state, seat=mine, program=program, context=private),
            }
        snapshots.append((user, {
            **shared,
            **kind.viewer_fields(game=game, state=state, seat=mine),
            "invite_url": (
                reverse("game-invite", args=[game.pk, game.invite_code])
                # Only while seats can be taken: a running or finished game has nothing to invite to.
                if game.visibility == Game.Visibility.PRIVATE and in_lobby and (mine is not None or _is_staff(user))
                else None
            ),
            "me": me,
            "can_join": bool(
                in_lobby and mine is None and len(seats) < game.max_seats and user and user.is_authenticated
            ),
            "can_start": bool(
                in_lobby and user and game.creator_id == user.pk and len(seats) >= game_seats.start_minimum(game)
            ),
            "can_leave": bool(
                mine is not None
                and mine.ejected_at is None
                and (
                    (in_lobby and game.creator_id != user.pk)
                    or game.status in (Game.Status.PROGRAMMING, Game.Status.RESOLVING)
                )
            ),
            "can_cancel": bool(in_lobby and user and game.creator_id == user.pk),
            "can_add_computer": bool(
                in_lobby and user and game.creator_id == user.pk and len(seats) < game.max_seats
                and kind.computers_play(game)
            ),
            "computer_strengths": list(engine.players.STRENGTHS),
            "can_balance": bool(in_lobby and game.teams and user and game.creator_id == user.pk),
            "chat": chat.visible_chat(chat=chat_lines, readers=chat_readers, user=user),
            "can_chat": mine is not None or _is_staff(user),
            "can_play_again": bool(mine is not None and game.status == Game.Status.FINISHED
                                   and shared["competition"] is None  # its competition seats the next game
                                   and (not game.test_drive or access.may_test_drive(user=user, course_id=game.course_id))),
        }))
    return snapshots


def _creator(game: Game, seats: list[Seat]):
    """The game's creator, from the seats read with their users if they are seated (saves a query when the
    game was read without its creator)."""
    return next((seat.user for seat in seats if seat.user_id == game.creator_id), None) or game.creator


def _is_staff(user) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)
