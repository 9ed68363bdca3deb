"""A table's result: the places of its players when its game finishes (the game_finished receiver)."""

from __future__ import annotations

from django.db import transaction

from games.models import Game, Seat
from games.services import notices
from roboracer.ratings.selectors import ratings_of
from roboracer.tournaments import seating
from roboracer.tournaments.models import Table, TableSeat, Tournament
from roboracer.tournaments.services import common


def record_table(*, game: Game, state) -> Table | None:
    """The game_finished receiver's work (inside the finishing transaction): the table's places, unique per
    table (docs/tournaments.md "Places at a table"), its league points, and who was ejected. Then `advance`
    after the commit. Not a tournament game: one indexed query and nothing else.

    The places are the people's only: a TableSeat's seat is its player's game seat, and computer players
    filling the table (game seats after the people's, no TableSeat) are left out, so the people's places at
    the table are 1 to n whatever places the computers took in the game."""
    table = Table.objects.filter(game=game, finished=False).select_related("round__tournament").first()
    if table is None:
        return None
    tournament = table.round.tournament
    places = state.places or {}
    seats = list(table.seats.select_related("entry"))
    game_seats = {s.number: s for s in Seat.objects.filter(game=game)}
    ratings = ratings_of(users=[s.entry.user_id for s in seats], kind=tournament.kind)
    unplaced = max(len(game_seats), len(seats))  # a seat the game gave no place ranks with the game's last

    def key(ts: TableSeat):
        entry = ts.entry
        out = entry.withdrawn_at is not None or entry.disqualified_at is not None
        game_seat = game_seats.get(ts.seat)
        ejected = bool(game_seat and game_seat.ejected_at is not None)
        return (out, ejected, places.get(str(ts.seat), unplaced), -ratings[entry.user_id], ts.seat)

    for place, ts in enumerate(sorted(seats, key=key), start=1):
        game_seat = game_seats.get(ts.seat)
        ts.place = place
        ts.game_place = places.get(str(ts.seat))
        ts.ejected = bool(game_seat and game_seat.ejected_at is not None)
        ts.points = seating.points_for(tournament.points, place) if tournament.format == Tournament.Format.LEAGUE else 0
    TableSeat.objects.bulk_update(seats, ["place", "game_place", "ejected", "points"])
    table.finished = True
    table.save(update_fields=["finished"])
    notices.settle(user_ids=[ts.entry.user_id for ts in seats], kind="tournament_game_ready",
                   source={"game": game.pk})  # the bell calls nobody to it now
    tournament_id = tournament.pk

    def schedule() -> None:
        common.send_task(common.ADVANCE, tournament_id)

    transaction.on_commit(schedule, robust=True)
    return table
