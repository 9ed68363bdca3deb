"""Reads for a heats tournament's bracket and a finished tournament's podium (issue 38 item 6)."""

from __future__ import annotations

from collections import defaultdict

from roboracer.tournaments import seating
from roboracer.tournaments.models import TableSeat, Tournament
from roboracer.tournaments.selectors import is_bot, name_of


def bracket(*, tournament: Tournament) -> list[dict]:
    """Heats as a bracket (issue 38 item 6): rounds oldest first, each with its tables and their players in place
    order (seat order before the game ends), each marked `advanced` when they sit in the next round, and the
    final table's first place marked `won` once the tournament is finished. [] for a league or before round 1."""
    if tournament.format != Tournament.Format.HEATS:
        return []
    seats = list(TableSeat.objects.filter(table__round__tournament=tournament)
                 .select_related("entry__user__profile", "table__round").order_by("table__round__number", "table__number"))
    by_round: dict[int, set[int]] = defaultdict(set)
    for ts in seats:
        by_round[ts.table.round.number].add(ts.entry_id)
    last = max(by_round, default=0)
    finished = tournament.status == Tournament.Status.FINISHED
    columns: dict[int, dict[int, dict]] = defaultdict(dict)
    for ts in seats:
        number = ts.table.round.number
        table = columns[number].setdefault(ts.table.number, {"number": ts.table.number, "bye": ts.table.bye,
                                                             "game": ts.table.game_id, "players": []})
        table["players"].append({
            "name": name_of(ts.entry.user), "bot": is_bot(ts.entry.user), "place": ts.place, "seat": ts.seat,
            "advanced": ts.entry_id in by_round.get(number + 1, set()),
            "won": finished and number == last and ts.place == 1,
        })
    result = []
    for number in sorted(columns):
        tables = sorted(columns[number].values(), key=lambda t: t["number"])
        for table in tables:
            table["players"].sort(key=lambda p: seating.table_order(p["place"], p["seat"]))
        result.append({"number": number, "final": number == last and len(tables) == 1, "tables": tables})
    return result


def podium(standings: list[dict]) -> list[dict]:
    """A finished tournament's first three places, for its podium (issue 38 item 6)."""
    return [row for row in standings if row.get("place") and row["place"] <= 3
            and row["status"] not in ("disqualified", "replaced", "withdrawn")]  # a shared place shows every name
