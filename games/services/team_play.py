"""Team play in the lobby (003 "Team Play"): players pick a team, the creator places or balances them, and a
team game's seats are completed into two teams when it starts."""

from __future__ import annotations

import logging

from django.db import transaction

from games.models import Game, Seat
from games.services import locking, publish, setup
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound
from roboracer.ratings import selectors as ratings

logger = logging.getLogger(__name__)


MIN_TEAM_GAME = setup.MIN_TEAM_GAME  # two bots a team (003 "Team Play": "two teams of two or more bots")


TEAMS = ("blue", "orange")


def _team_sizes(seats) -> dict[str, int]:
    return {team: sum(1 for seat in seats if seat.team == team) for team in TEAMS}


@transaction.atomic
def choose_team(*, user, game_id: int, team: str, seat_number: int | None = None) -> Seat:
    """A player picks their team in the lobby of a team game; the creator may place any seat."""
    game = locking.locked_game(game_id, user=user)
    if team not in TEAMS:
        raise InvalidInput("team: 'blue' or 'orange'")
    if not game.teams:
        raise Conflict("this game is not a team game")
    if game.status != Game.Status.LOBBY:
        raise Conflict("teams are chosen in the lobby, before the game starts")
    seats = list(game.seats.all())
    if seat_number is None:
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed("you have no seat in this game")
    else:
        if game.creator_id != user.pk:
            raise NotAllowed("only the game's creator can place other players on a team")
        seat = next((seat for seat in seats if seat.number == seat_number), None)
        if seat is None:
            raise NotFound(f"game {game_id} has no seat {seat_number}")
    if seat.team != team:
        seat.team = team
        seat.save(update_fields=["team"])
        publish.append_event(game, "team_chosen", {"seat": seat.number, "team": team})
        game.save(update_fields=["version", "updated_at"])
    return seat


@transaction.atomic
def balance_teams(*, user, game_id: int) -> list[Seat]:
    """The creator splits the seated players into two teams of equal size (one more on Blue when odd), by
    shown rating in snake order (1st Blue, 2nd and 3rd Orange, 4th and 5th Blue...)."""
    game = locking.locked_game(game_id, user=user)
    if game.creator_id != user.pk:
        raise NotAllowed("only the game's creator can balance the teams")
    if not game.teams:
        raise Conflict("this game is not a team game")
    if game.status != Game.Status.LOBBY:
        raise Conflict("teams are chosen in the lobby, before the game starts")
    seats = list(game.seats.order_by("number"))
    shown = ratings.shown_ratings_of(users=[seat.user_id for seat in seats], kind=game.kind)
    ranked = sorted(seats, key=lambda seat: (-(shown.get(seat.user_id) or 0), seat.number))
    for index, seat in enumerate(ranked):
        seat.team = TEAMS[0] if index % 4 in (0, 3) else TEAMS[1]
    Seat.objects.bulk_update(seats, ["team"])
    publish.append_event(game, "teams_balanced", {"teams": {seat.number: seat.team for seat in seats}})
    game.save(update_fields=["version", "updated_at"])
    return seats


def teams_at_start(game: Game, seats: list[Seat]) -> dict[str, str] | None:
    """The seats' teams when a team game starts: a seat with none joins the smaller team (Blue on a tie). The
    caller saves them. Refused unless each team then has two bots."""
    if not game.teams:
        return None
    for seat in seats:
        if seat.team not in TEAMS:
            sizes = _team_sizes(seats)
            seat.team = min(TEAMS, key=lambda team: (sizes[team], TEAMS.index(team)))
    sizes = _team_sizes(seats)
    if min(sizes.values()) < 2:
        raise Conflict(f"team play needs at least two players on each team (Blue {sizes['blue']}, Orange {sizes['orange']})")
    return {seat.bot_id: seat.team for seat in seats}

