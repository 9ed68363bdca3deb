"""Computer players in seats: added to and removed from a lobby by its creator, and playing a person's seat
while they are away (timeout policy "computer", "autopilot") until they take it back. Their moves go through
games.services.moves like anyone's."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

import engine
from games import clocks, kinds
from games.models import Game, Hand, Program, Seat
from games.services import lines, lobby, locking, publish, setup, turns
from roboracer.accounts import selectors as account_selectors
from roboracer.accounts.models import Profile
from roboracer.accounts.services import COMPUTER_PREFIX  # computer players' usernames, refused to people
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound

logger = logging.getLogger(__name__)


COMPUTER_STRENGTHS = engine.players.STRENGTHS


AUTOPILOT_STRENGTH = "normal"  # who plays a timed-out person's seat (timeout policy "computer")


def check_strength(strength) -> str:
    if strength not in COMPUTER_STRENGTHS:
        raise InvalidInput(f"strength: one of {', '.join(COMPUTER_STRENGTHS)}")
    return strength


def computer_user(*, strength: str, index: int):
    """The account of a computer player: `computer-<strength>-<index>`, shown as "<Strength> Computer
    <index>". Made on first use; nobody can log in as it (no usable password)."""

    user_model = get_user_model()
    username = f"{COMPUTER_PREFIX}{strength}-{index}"
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model(username=username)
        user.set_unusable_password()
        user.save()
    profile, _ = Profile.objects.get_or_create(user=user)
    name = f"{engine.players.strength_label(strength)} Computer {index}"
    if profile.display_name != name and not Profile.objects.filter(display_name_key=name.casefold()).exists():
        profile.display_name = name
        profile.save(update_fields=["display_name"])
    return user


def seat_computer(game: Game, seats: list[Seat], strength: str, number: int) -> Seat:
    """A computer seat of `strength` at `number`; the caller holds the game lock."""
    taken_users = {seat.user_id for seat in seats}
    index = 1
    while True:
        user = computer_user(strength=strength, index=index)
        if user.pk not in taken_users:
            break
        index += 1
    color = lobby.seat_color(user, {seat.color for seat in seats}, number)
    return Seat.objects.create(game=game, user=user, number=number, color=color, computer=strength)


def computer_joined(game: Game, seat: Seat) -> None:
    """The public `seat_joined` of a computer seat taken in a lobby."""
    publish.append_event(game, "seat_joined", {"seat": seat.number, "user": seat.user.get_username(), "color": seat.color,
                                       "computer": seat.computer, "display_name": account_selectors.player_name(user=seat.user)})


def computer_refusal(game: Game, *, computers: int) -> str | None:
    """games.services.setup's answer for `game`'s setting with `computers` computer seats (a RoboRacer game's course
    and ruleset; a kind without courses asks with none)."""
    uses_courses = kinds.of(game).uses_courses
    return setup.refusal(kind=game.kind or kinds.DEFAULT, course_data=game.course_data if uses_courses else None,
                         use=setup.TEST_DRIVE if game.test_drive else setup.LOBBY, ruleset=game.ruleset,
                         seats=game.max_seats, computers=computers, modules=list(game.modules or ()),
                         teams=game.teams, options=dict(game.options or {}))


@transaction.atomic
def add_computer(*, user, game_id: int, strength: str = "normal", seat_number: int | None = None) -> Seat:
    """The creator seats a computer player in a free seat of a game in the lobby: `seat_number`, or the lowest
    free one. A game with a computer player is unrated. A full game starts, as when a person takes the last
    seat."""
    game = locking.locked_game(game_id, user=user)
    check_strength(strength)
    if game.creator_id != user.pk:
        raise NotAllowed("only the game's creator can add computer players")
    if game.status != Game.Status.LOBBY:
        raise Conflict("computer players are added in the lobby, before the game starts")
    seats = list(game.seats.all())
    why = computer_refusal(game, computers=sum(1 for seat in seats if seat.computer) + 1)
    if why is not None:
        raise Conflict(why)
    if len(seats) >= game.max_seats:
        raise Conflict("this game is full")
    free = [n for n in range(1, game.max_seats + 1) if n not in {seat.number for seat in seats}]
    if seat_number is not None and seat_number not in free:
        raise Conflict(f"seat {seat_number} is not a free seat of this game")
    number = free[0] if seat_number is None else seat_number
    seat = seat_computer(game, seats, strength, number)
    game.rated = False
    computer_joined(game, seat)
    if len(seats) + 1 == game.max_seats and not game.teams:
        turns.start(game)
    game.save()
    return seat


@transaction.atomic
def remove_computer(*, user, game_id: int, seat_number: int) -> Game:
    """The creator takes a computer player out of a game in the lobby."""
    game = locking.locked_game(game_id, user=user)
    if game.creator_id != user.pk:
        raise NotAllowed("only the game's creator can remove computer players")
    if game.status != Game.Status.LOBBY:
        raise Conflict("computer players are removed in the lobby, before the game starts")
    seat = game.seats.filter(number=seat_number).first()
    if seat is None or not seat.computer:
        raise NotFound(f"seat {seat_number} is not a computer player's")
    seat.delete()
    publish.append_event(game, "seat_left", {"seat": seat_number, "computer": True})
    game.save()
    return game


def stalled_computer_seats(*, older_than: timedelta) -> list[tuple[int, int, int]]:
    """(game, turn, seat) of computer-played seats still without a program this turn `older_than` after the
    deal: their task was lost (Redis restarted, a worker died), and the beat sweep sends it again."""
    since = timezone.now() - older_than
    this_turn = {"seat": OuterRef("pk"), "turn": OuterRef("game__turn")}
    return [
        tuple(row) for row in
        Seat.objects.filter(game__status=Game.Status.PROGRAMMING, ejected_at__isnull=True)
        .filter(Q(computer__gt="", clock_started_at__lt=since) | Q(autopilot=True, game__updated_at__lt=since))
        .filter(Exists(Hand.objects.filter(**this_turn)), ~Exists(Program.objects.filter(**this_turn)))
        .values_list("game_id", "game__turn", "number")
    ]


def hand_back(game: Game, seat: Seat) -> None:
    """No computer plays the seat any more: its owner sent a program or took it back (`take_back`)."""
    seat.autopilot = False
    seat.save(update_fields=["autopilot"])
    publish.append_event(game, "seat_autopilot", {"seat": seat.number, "on": False})
    lines.system_chat(game, f"{lines.names([seat])} is back and plays their own robot again.")


def hand_to_computer(game: Game, seats: list[Seat], now: datetime) -> None:
    """Timeout policy "computer": a Normal computer player plays each seat whose game time ran out, from this
    turn on, until its owner sends a program (`submit_program` hands it back). Its clock stops meanwhile."""
    handed = []
    for seat in seats:
        clocks.stop(seat, now)
        seat.autopilot = True
        seat.save(update_fields=["move_left", "game_left", "clock_started_at", "deadline", "autopilot"])
        publish.append_event(game, "seat_autopilot", {"seat": seat.number, "on": True, "strength": AUTOPILOT_STRENGTH})
        handed.append(seat)
    publish.clocks_event(game, list(game.seats.order_by("number")), now)
    publish.schedule_computers(game, handed)


@transaction.atomic
def take_back(*, user, game_id: int) -> Seat:
    """A person whose seat a computer plays (timeout policy "computer") takes it back at once, without waiting
    to send a program: from now on no computer plays for them. If they have no program this turn yet their
    clock runs again; a program the computer already sent stays until they replace it."""
    game = locking.locked_game(game_id, user=user)
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    if not seat.autopilot:
        raise Conflict("no computer is playing your robot")
    now = timezone.now()
    thinking = (game.status == Game.Status.PROGRAMMING and seat.ejected_at is None
                and not Program.objects.filter(seat=seat, turn=game.turn).exists()
                and Hand.objects.filter(seat=seat, turn=game.turn).exists())
    if thinking:
        clocks.start(seat, now, from_=game.clocks_from)
        seat.save(update_fields=["clock_started_at", "deadline", "expired"])
    hand_back(game, seat)
    if thinking:
        publish.clocks_event(game, list(game.seats.order_by("number")), now)
    game.save(update_fields=["version", "updated_at"])
    return seat

