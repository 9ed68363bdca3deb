"""Reads of tournaments: lists, standings (with their tie-breaks), rounds and tables (docs/tournaments.md)."""

from __future__ import annotations

from collections import Counter, defaultdict

from django.db.models import Count, Q, QuerySet

from games import selectors as game_selectors
from games.models import Seat
from roboracer.tournaments.models import Action, Entry, Round, Substitution, TableSeat, Tournament


def name_of(user) -> str:
    return game_selectors.player_name(user=user)


def tournament_lists() -> dict[str, QuerySet[Tournament]]:
    base = Tournament.objects.select_related("organiser").annotate(
        players=Count("entries", filter=Q(entries__withdrawn_at__isnull=True, entries__disqualified_at__isnull=True)))
    S = Tournament.Status
    return {
        "open": base.filter(status=S.REGISTRATION).order_by("registration_closes", "pk"),
        "running": base.filter(status__in=(S.RUNNING, S.PAUSED)).order_by("-started_at", "-pk"),
        "finished": base.filter(status__in=(S.FINISHED, S.CANCELLED)).order_by("-finished_at", "-pk")[:50],
    }


def my_tournaments(*, user) -> dict[str, list]:
    entries = (Entry.objects.filter(user=user).select_related("tournament")
               .order_by("-tournament__registration_closes", "-pk"))
    organised = Tournament.objects.filter(organiser=user).order_by("-registration_closes", "-pk")
    current = {}
    for seat in (TableSeat.objects.filter(entry__user=user, table__round__status=Round.Status.RUNNING,
                                          table__game__isnull=False)
                 .select_related("table__round", "table__game")):
        current[seat.entry_id] = seat.table.game
    return {"entries": [(entry, current.get(entry.pk)) for entry in entries], "organised": list(organised)}


def entry_status(entry: Entry) -> str:
    if entry.disqualified_at is not None:
        return "disqualified"
    if entry.replaced_by_id is not None:
        return "replaced"
    if entry.withdrawn_at is not None:
        return "withdrawn"
    if entry.eliminated_in is not None:
        return f"out in round {entry.eliminated_in}"
    return "in"


def _seats(tournament: Tournament) -> list[TableSeat]:
    return list(TableSeat.objects.filter(table__round__tournament=tournament)
                .select_related("table__round").only("entry_id", "place", "points", "ejected", "seat",
                                                      "table__id", "table__number", "table__round__number",
                                                      "table__finished", "table__bye"))


def _ratings(entries: list[Entry]) -> dict[int, float]:
    from roboracer.ratings.selectors import ratings_of

    return ratings_of(users=[e.user_id for e in entries])


def _competition_places(rows: list[dict], key) -> None:
    """Places 1, 2, 2, 4: rows already sorted; equal keys share a place."""
    previous, place = object(), 0
    for index, row in enumerate(rows, start=1):
        k = key(row)
        if k != previous:
            place, previous = index, k
        row["place"] = place


def standings(*, tournament: Tournament) -> list[dict]:
    """One row per entry, best first: place, player, status, points and tie-break figures."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user__profile"))
    seats = _seats(tournament)
    ratings = _ratings(entries)
    by_entry: dict[int, list[TableSeat]] = defaultdict(list)
    for ts in seats:
        by_entry[ts.entry_id].append(ts)
    if tournament.format == Tournament.Format.LEAGUE:
        return _league_rows(tournament, entries, seats, by_entry, ratings)
    rows = []
    for entry in entries:
        mine = sorted(by_entry.get(entry.pk, []), key=lambda ts: ts.table.round.number)
        last = mine[-1] if mine else None
        gone = entry.withdrawn_at is not None or entry.disqualified_at is not None
        rows.append({
            "entry": entry.pk, "player": name_of(entry.user), "username": entry.user.get_username(),
            "status": entry_status(entry), "rating": round(ratings[entry.user_id], 2),
            "rounds": len(mine), "round_reached": last.table.round.number if last else 0,
            "last_place": last.place if last else None,
            "places": [ts.place for ts in mine],
            "_key": (gone or entry.replaced_by_id is not None, -(last.table.round.number if last else 0),
                     entry.eliminated_in is not None, last.place if last and last.place else 99),
        })
    rows.sort(key=lambda r: (r["_key"], -r["rating"], r["entry"]))
    _competition_places(rows, lambda r: r["_key"])
    for row in rows:
        del row["_key"]
    return rows


def _league_figures(entries, seats, by_entry, ratings):
    points = {e.pk: sum(ts.points for ts in by_entry.get(e.pk, [])) for e in entries}
    tables: dict[int, list[int]] = defaultdict(list)
    for ts in seats:
        tables[ts.table.id].append(ts.entry_id)
    buchholz = Counter()
    for members in tables.values():
        for entry_id in members:
            buchholz[entry_id] += sum(points.get(other, 0) for other in members if other != entry_id)
    return points, buchholz


def _league_key(entry, points, buchholz, by_entry, ratings, size):
    places = Counter(ts.place for ts in by_entry.get(entry.pk, []) if ts.place)
    return (entry.disqualified_at is not None, entry.replaced_by_id is not None, -points[entry.pk],
            -buchholz[entry.pk], tuple(-places[p] for p in range(1, size + 1)), -ratings[entry.user_id])


def league_order(*, tournament: Tournament) -> list[Entry]:
    """Entries in league standing order (for Swiss reseating), tie-breaks included."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user"))
    seats = _seats(tournament)
    by_entry: dict[int, list[TableSeat]] = defaultdict(list)
    for ts in seats:
        by_entry[ts.entry_id].append(ts)
    ratings = _ratings(entries)
    points, buchholz = _league_figures(entries, seats, by_entry, ratings)
    return sorted(entries, key=lambda e: (_league_key(e, points, buchholz, by_entry, ratings,
                                                      tournament.table_size), e.pk))


def _league_rows(tournament, entries, seats, by_entry, ratings) -> list[dict]:
    points, buchholz = _league_figures(entries, seats, by_entry, ratings)
    rows = []
    for entry in entries:
        mine = sorted(by_entry.get(entry.pk, []), key=lambda ts: ts.table.round.number)
        key = _league_key(entry, points, buchholz, by_entry, ratings, tournament.table_size)
        rows.append({
            "entry": entry.pk, "player": name_of(entry.user), "username": entry.user.get_username(),
            "status": entry_status(entry), "rating": round(ratings[entry.user_id], 2),
            "rounds": len(mine), "points": points[entry.pk], "opponents_points": buchholz[entry.pk],
            "places": [ts.place for ts in mine], "_key": key,
        })
    rows.sort(key=lambda r: (r["_key"], r["entry"]))
    _competition_places(rows, lambda r: r["_key"])
    for row in rows:
        del row["_key"]
    return rows


def _computers(game_ids: list[int]) -> dict[int, list[dict]]:
    """The computer players filling the tables' games (Tournament.computer_fill), by game: they have a game
    seat and no TableSeat, so no place, points or standing in the tournament."""
    if not game_ids:
        return {}
    by_game: dict[int, list[dict]] = defaultdict(list)
    for seat in (Seat.objects.filter(game_id__in=game_ids).exclude(computer="")
                 .select_related("user__profile").order_by("game_id", "number")):
        by_game[seat.game_id].append({"seat": seat.number, "player": name_of(seat.user),
                                      "strength": seat.computer})
    return by_game


def rounds(*, tournament: Tournament) -> list[dict]:
    """Rounds, newest first, with their tables: the game (status, turn), the seated players' places, and the
    computer players filling the table, if any (marked as such: no place, they count for nothing)."""
    result = []
    seats = (TableSeat.objects.filter(table__round__tournament=tournament)
             .select_related("entry__user__profile", "table__round", "table__game").order_by("seat"))
    by_table: dict[int, list[TableSeat]] = defaultdict(list)
    tables = {}
    for ts in seats:
        by_table[ts.table_id].append(ts)
        tables[ts.table_id] = ts.table
    computers = _computers([t.game_id for t in tables.values() if t.game_id is not None])
    by_round: dict[int, list] = defaultdict(list)
    for table in sorted(tables.values(), key=lambda t: t.number):
        game = table.game
        by_round[table.round_id].append({
            "number": table.number, "bye": table.bye, "finished": table.finished,
            "game": game.pk if game else None, "game_status": game.status if game else None,
            "turn": game.turn if game else None,
            "players": [{"entry": ts.entry_id, "player": name_of(ts.entry.user),
                         "username": ts.entry.user.get_username(), "seat": ts.seat,
                         "place": ts.place, "points": ts.points, "ejected": ts.ejected} for ts in by_table[table.pk]],
            "computers": computers.get(table.game_id, []),
        })
    for round_ in tournament.rounds.order_by("-number"):
        result.append({"number": round_.number, "status": round_.status, "tables": by_round.get(round_.pk, [])})
    return result


def actions(*, tournament: Tournament) -> QuerySet[Action]:
    return tournament.actions.select_related("actor").order_by("-created_at", "-pk")


def entry_of(*, tournament: Tournament, user) -> Entry | None:
    if not (user and user.is_authenticated):
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


def summary(*, tournament: Tournament) -> dict:
    """The tournament's settings as the API shows them."""
    return {
        "id": tournament.pk, "name": tournament.name, "description": tournament.description,
        "organiser": name_of(tournament.organiser), "status": tournament.status, "format": tournament.format,
        "table_size": tournament.table_size, "lives": tournament.lives, "modules": tournament.modules,
        "move_time": tournament.move_time, "game_time": tournament.game_time,
        "timeout_policy": tournament.timeout_policy,
        "registration_opens": tournament.registration_opens.isoformat(),
        "registration_closes": tournament.registration_closes.isoformat(),
        "min_players": tournament.min_players, "advance": tournament.advance, "seeding": tournament.seeding,
        "league_rounds": tournament.league_rounds, "points": tournament.points,
        "computer_fill": tournament.computer_fill,
        "kind": tournament.kind,
        "courses": list(tournament.courses.order_by("name").values_list("slug", flat=True)),
        "players": tournament.entries.filter(withdrawn_at__isnull=True, disqualified_at__isnull=True).count(),
    }


def _invitation_row(substitution: Substitution) -> dict:
    return {"id": substitution.pk, "tournament": substitution.tournament_id,
            "tournament_name": substitution.tournament.name, "entry": substitution.entry_id,
            "replacing": name_of(substitution.entry.user), "invitee": name_of(substitution.invitee),
            "invited_at": substitution.created_at.isoformat()}


def invitations(*, user, tournament: Tournament | None = None) -> list[dict]:
    """The user's pending invitations to replace a player (all tournaments, or one)."""
    if not (user and user.is_authenticated):
        return []
    rows = Substitution.objects.filter(invitee=user, status=Substitution.Status.PENDING)
    if tournament is not None:
        rows = rows.filter(tournament=tournament)
    return [_invitation_row(s) for s in rows.select_related("tournament", "entry__user", "invitee")]


def pending_substitutions(*, tournament: Tournament) -> list[dict]:
    """The organiser's view: the invitations still waiting for an answer."""
    rows = Substitution.objects.filter(tournament=tournament, status=Substitution.Status.PENDING)
    return [_invitation_row(s) for s in rows.select_related("tournament", "entry__user", "invitee")]
