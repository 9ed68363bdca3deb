"""Reads about substitutions (docs/tournaments.md "Substitutes"): the invitations to replace a player, each with the
seat it would hand over, the organiser's pending ones, a replaced player's note on their old game, and an entry's
current game."""

from __future__ import annotations

from django.utils import timezone

from games import clocks as game_clocks
from games.models import Game, Program, Seat
from roboracer.tournaments.models import Entry, Round, Substitution, TableSeat, Tournament
from roboracer.tournaments.selectors import name_of


def _seat_states(entry_ids: list[int]) -> dict[int, dict]:
    """For entries of pending invitations: the seat they would hand over, by entry id. The game of the entry's
    current round, its turn and status, the seat's clock (as of now) and whether the seat may still change hands
    (turn 1, programming, no program from it, not ejected: services._replaceable's test, read without locks)."""
    if not entry_ids:
        return {}
    table_seats = list(TableSeat.objects.filter(entry_id__in=entry_ids, table__round__status=Round.Status.RUNNING,
                                                table__game__isnull=False).select_related("table__game"))
    games = {ts.table.game_id: ts.table.game for ts in table_seats}
    seats = {(seat.game_id, seat.number): seat for seat in Seat.objects.filter(game_id__in=list(games))}
    moved = set(Program.objects.filter(seat__in=[seat.pk for seat in seats.values()]).values_list("seat_id", flat=True))
    now = timezone.now()
    states = {}
    for ts in table_seats:
        game, seat = ts.table.game, seats.get((ts.table.game_id, ts.seat))
        if seat is None:
            continue
        clock = game_clocks.public(seat, now)
        states[ts.entry_id] = {
            "game": game.pk, "game_status": game.status, "turn": game.turn, "course": game.board_name,
            "seat": seat.number, "move_left": clock["move_left"], "game_left": clock["game_left"],
            "clock_running": clock["clock_running"],
            "deadline": seat.deadline.isoformat() if seat.deadline else None,
            "open": (game.status == Game.Status.PROGRAMMING and game.turn == 1 and seat.ejected_at is None
                     and seat.pk not in moved),
        }
    return states


def _invitation_row(substitution: Substitution, state: dict | None = None) -> dict:
    """An invitation as the pages and the API show it: who, where, and the seat's state (its game, turn and move
    clock; `open`: whether it can still change hands). No game (none in the current round): those are null."""
    state = state or {}
    return {"id": substitution.pk, "tournament": substitution.tournament_id,
            "tournament_name": substitution.tournament.name, "entry": substitution.entry_id,
            "replacing": name_of(substitution.entry.user), "invitee": name_of(substitution.invitee),
            "invited_at": substitution.created_at.isoformat(),
            **{key: state.get(key) for key in ("game", "game_status", "turn", "course", "seat", "move_left",
                                               "game_left", "clock_running", "deadline")},
            "open": bool(state.get("open"))}


def _invitation_rows(rows) -> list[dict]:
    rows = list(rows.select_related("tournament", "entry__user__profile", "invitee__profile"))
    states = _seat_states([s.entry_id for s in rows])
    return [_invitation_row(s, states.get(s.entry_id)) for s in rows]


def invitations(*, user, tournament: Tournament | None = None) -> list[dict]:
    """The user's pending invitations to replace a player (all tournaments, or one), each with the seat's state."""
    if not (user and user.is_authenticated):
        return []
    rows = Substitution.objects.filter(invitee=user, status=Substitution.Status.PENDING)
    if tournament is not None:
        rows = rows.filter(tournament=tournament)
    return _invitation_rows(rows)


def pending_substitutions(*, tournament: Tournament) -> list[dict]:
    """The organiser's view: the invitations still waiting for an answer."""
    return _invitation_rows(Substitution.objects.filter(tournament=tournament, status=Substitution.Status.PENDING))


def current_game(*, entry: Entry) -> int | None:
    """The id of the entry's game in the tournament's running round, if it has one."""
    return (TableSeat.objects.filter(entry=entry, table__round__status=Round.Status.RUNNING,
                                     table__game__isnull=False).values_list("table__game_id", flat=True).first())


def replacement_of(*, user, game) -> dict | None:
    """When `user` was replaced in this tournament game (an accepted invitation for their entry, whose seat is in
    this game): {"by": the substitute's name, "tournament": its name, "tournament_id"}; else None."""
    if not (user and user.is_authenticated):
        return None
    entry = (Entry.objects.filter(user=user, replaced_by__table_seats__table__game=game)
             .select_related("tournament", "replaced_by__user__profile").first())
    if entry is None:
        return None
    return {"by": name_of(entry.replaced_by.user), "tournament": entry.tournament.name,
            "tournament_id": entry.tournament_id}
