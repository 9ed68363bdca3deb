"""Reads of tournaments: lists, standings (with their tie-breaks), rounds and tables (docs/tournaments.md)."""

from __future__ import annotations

from collections import Counter, defaultdict

from django.db.models import Count, Q, QuerySet
from django.urls import reverse

from games import kinds
from games.models import Game, Seat
from games.services import setup as game_setup
from roboracer.accounts import selectors as account_selectors
from roboracer.courses import selectors as course_selectors
from roboracer.courses.models import Course
from roboracer.ratings.selectors import ratings_of, shown_ratings_of
from roboracer.tournaments import seating
from roboracer.tournaments.models import Action, Entry, Round, Table, TableSeat, Tournament


def name_of(user) -> str:
    return account_selectors.player_name(user=user)


def is_bot(user) -> bool:
    """A bot account (docs/bot-api.md): its name shows a BOT badge on the tournament's pages (rows' `bot`). The
    rows' queries read the profile with the user, so this costs no query."""
    return account_selectors.is_bot(user=user)


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
    entries = (Entry.objects.filter(user=user).select_related("tournament", "replaced_by__user__profile")
               .order_by("-tournament__registration_closes", "-pk"))
    organised = Tournament.objects.filter(organiser=user).order_by("-registration_closes", "-pk")
    current = {}
    for seat in (TableSeat.objects.filter(entry__user=user, table__round__status=Round.Status.RUNNING,
                                          table__game__isnull=False)
                 .select_related("table__round", "table__game")):
        current[seat.entry_id] = seat.table.game
    return {"entries": [(entry, current.get(entry.pk), _my_status(entry)) for entry in entries],
            "organised": list(organised)}


def _my_status(entry: Entry) -> str:
    """"My tournaments"' word for an entry that is no longer in ("" while it is): a disqualification with its
    reason, a replacement with the substitute, never "withdrawn" for either."""
    if entry.replaced_by_id is not None and entry.disqualified_at is None:
        return f"replaced by {name_of(entry.replaced_by.user)}"
    if entry.disqualified_at is not None:
        return f"disqualified: {entry.out_reason}" if entry.out_reason else "disqualified (no reason given)"
    status = entry_status(entry)
    return "" if status == "in" else status


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


def _ratings(tournament: Tournament, entries: list[Entry]) -> dict[int, float]:
    """{user id: ordinal} in the rating of the tournament's kind (a RAMbots tournament reads RAMbots ratings)."""
    return ratings_of(users=[e.user_id for e in entries], kind=tournament.kind)


def _competition_places(rows: list[dict], key) -> None:
    """Places 1, 2, 2, 4: rows already sorted; equal keys share a place."""
    previous, place = object(), 0
    for index, row in enumerate(rows, start=1):
        k = key(row)
        if k != previous:
            place, previous = index, k
        row["place"] = place


def standings(*, tournament: Tournament) -> list[dict]:
    """One row per entry, best first: place, player, status, points and tie-break figures. A replaced entry's row
    says by whom and in which round (`replaced_by`, `replaced_in`); once the tournament is finished, the players
    still in are "winner" (first place) or "finished" (docs/tournaments.md "Standings")."""
    entries = [entry for entry in Entry.objects.filter(tournament=tournament).select_related("user__profile")
               if not _withdrawn_before_start(tournament, entry)]  # a registration taken back is no standing
    seats = _seats(tournament)
    ratings = _ratings(tournament, entries)
    by_entry: dict[int, list[TableSeat]] = defaultdict(list)
    for ts in seats:
        by_entry[ts.entry_id].append(ts)
    if tournament.format == Tournament.Format.LEAGUE:
        rows = _league_rows(tournament, entries, seats, by_entry, ratings)
    else:
        rows = _heats_rows(tournament, entries, by_entry, ratings)
    if not any(ts.table.finished and not ts.table.bye for ts in seats):
        # Before any table is played nobody has a place: not everyone "1st", not 1, 2, 2, 2, 5 by rating
        # (issue 38 item 3). The rows keep their order (the seeding), with no place and no round yet.
        for row in rows:
            row["place"] = None
            if "round_reached" in row:
                row["round_reached"] = None
    _replacements(rows, entries, by_entry)
    if tournament.status == Tournament.Status.FINISHED:
        _final_statuses(rows, ended_early=tournament.actions.filter(kind="ended").exists())
    return rows


def _withdrawn_before_start(tournament: Tournament, entry: Entry) -> bool:
    """Withdrawing before the start removes the registration (docs/tournaments.md): such an entry is no row."""
    if entry.withdrawn_at is None:
        return False
    return tournament.started_at is None or entry.withdrawn_at < tournament.started_at


def _final_statuses(rows: list[dict], *, ended_early: bool) -> None:
    """A finished tournament has nobody "in": the best placed of those still in are its winners (a withdrawn
    league player may keep more points, but has left), the others "finished". A tournament the organiser ended
    names no winner: it stopped before deciding one."""
    still_in = [row for row in rows if row["status"] == "in"]
    best = min((row["place"] for row in still_in if row["place"] is not None), default=None)
    for row in still_in:
        row["status"] = "winner" if best is not None and row["place"] == best and not ended_early else "finished"


def winners(rows: list[dict]) -> list[str]:
    """The names of a finished tournament's winners (its standings' "winner" rows: more than one when they share
    first place)."""
    return [row["player"] for row in rows if row["status"] == "winner"]


def _replacements(rows: list[dict], entries: list[Entry], by_entry: dict[int, list[TableSeat]]) -> None:
    """A replaced entry's substitute and the round it happened in (the substitute's first round: the seat they
    took was in the round running then)."""
    names = {entry.pk: entry for entry in entries}
    for row in rows:
        entry = names[row["entry"]]
        substitute = names.get(entry.replaced_by_id) if entry.replaced_by_id else None
        row["replaced_by"] = name_of(substitute.user) if substitute else None
        row["replaced_by_bot"] = bool(substitute) and is_bot(substitute.user)
        rounds = [ts.table.round.number for ts in by_entry.get(substitute.pk, [])] if substitute else []
        row["replaced_in"] = min(rounds) if rounds else None


def _heats_rows(tournament, entries, by_entry, ratings) -> list[dict]:
    shown = shown_ratings_of(users=[e.user_id for e in entries], kind=tournament.kind)  # what players see, not the model's figure
    rows = []
    for entry in entries:
        mine = sorted(by_entry.get(entry.pk, []), key=lambda ts: ts.table.round.number)
        last = mine[-1] if mine else None
        gone = entry.withdrawn_at is not None or entry.disqualified_at is not None
        rows.append({
            "entry": entry.pk, "player": name_of(entry.user), "bot": is_bot(entry.user),
            "username": entry.user.get_username(),
            "status": entry_status(entry), "rating": shown[entry.user_id], "_rating": ratings[entry.user_id],
            "rounds": len(mine), "round_reached": last.table.round.number if last else None,
            "last_place": last.place if last else None,
            "places": [ts.place for ts in mine],
            "_key": (gone or entry.replaced_by_id is not None, -(last.table.round.number if last else 0),
                     entry.eliminated_in is not None, last.place if last and last.place else 99),
        })
    rows.sort(key=lambda r: (r["_key"], -r["_rating"], r["entry"]))
    _competition_places(rows, lambda r: r["_key"])
    for row in rows:
        del row["_key"], row["_rating"]
    return rows


def _league_figures(entries, seats, by_entry, ratings):
    """Each entry's points, and its tie-break: the points of the players it met at tables already played
    (docs/tournaments.md "League tie-breaks": a table just seated counts once its game is over, and a
    disqualified player's points count for nobody's tie-break)."""
    points = {e.pk: sum(ts.points for ts in by_entry.get(e.pk, [])) for e in entries}
    out = {e.pk for e in entries if e.disqualified_at is not None}
    tables: dict[int, list[int]] = defaultdict(list)
    for ts in seats:
        if ts.table.finished:
            tables[ts.table.id].append(ts.entry_id)
    buchholz = Counter()
    for members in tables.values():
        for entry_id in members:
            buchholz[entry_id] += sum(points.get(other, 0) for other in members if other != entry_id and other not in out)
    return points, buchholz


def _number(value: float) -> int | float:
    """A figure as players read it: 17, not 17.0 (points are stored as floats for a split place)."""
    return int(value) if float(value).is_integer() else round(value, 2)


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
    ratings = _ratings(tournament, entries)
    points, buchholz = _league_figures(entries, seats, by_entry, ratings)
    return sorted(entries, key=lambda e: (_league_key(e, points, buchholz, by_entry, ratings,
                                                      tournament.table_size), e.pk))


def _league_rows(tournament, entries, seats, by_entry, ratings) -> list[dict]:
    points, buchholz = _league_figures(entries, seats, by_entry, ratings)
    shown = shown_ratings_of(users=[e.user_id for e in entries], kind=tournament.kind)  # what players see, not the model's figure
    rows = []
    for entry in entries:
        mine = sorted(by_entry.get(entry.pk, []), key=lambda ts: ts.table.round.number)
        key = _league_key(entry, points, buchholz, by_entry, ratings, tournament.table_size)
        rows.append({
            "entry": entry.pk, "player": name_of(entry.user), "bot": is_bot(entry.user),
            "username": entry.user.get_username(),
            "status": entry_status(entry), "rating": shown[entry.user_id],
            "rounds": len(mine), "points": _number(points[entry.pk]), "opponents_points": _number(buchholz[entry.pk]),
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
             .select_related("entry__user__profile", "table__round", "table__game__course").order_by("seat"))
    by_table: dict[int, list[TableSeat]] = defaultdict(list)
    tables = {}
    for ts in seats:
        by_table[ts.table_id].append(ts)
        tables[ts.table_id] = ts.table
    computers = _computers([t.game_id for t in tables.values() if t.game_id is not None])
    # How each ejected seat left its game: by its own Forfeit ("forfeited") or ejected (time, staff, the others).
    left = {(game_id, number): "forfeited" if by == username else "ejected"
            for game_id, number, by, username in Seat.objects.filter(
                game_id__in=[t.game_id for t in tables.values() if t.game_id is not None], ejected_at__isnull=False)
            .values_list("game_id", "number", "ejected_by", "user__username")}
    by_round: dict[int, list] = defaultdict(list)
    for table in sorted(tables.values(), key=lambda t: t.number):
        game = table.game
        # Seat order until the game has places, then place order (the card read 2nd, 3rd, 1st).
        ordered = sorted(by_table[table.pk], key=lambda ts: seating.table_order(ts.place, ts.seat))
        by_round[table.round_id].append({
            "number": table.number, "bye": table.bye, "finished": table.finished,
            "game": game.pk if game else None, "game_status": game.status if game else None,
            "turn": game.turn if game else None, "course": game.board_name if game else None,
            "players": [{"entry": ts.entry_id, "player": name_of(ts.entry.user), "bot": is_bot(ts.entry.user),
                         "username": ts.entry.user.get_username(), "seat": ts.seat,
                         "place": ts.place, "points": ts.points, "ejected": ts.ejected,
                         "out": (left.get((table.game_id, ts.seat), "ejected") if ts.ejected else "")}
                        for ts in ordered],
            "computers": computers.get(table.game_id, []),
        })
    for round_ in tournament.rounds.order_by("-number"):
        tables = by_round.get(round_.pk, [])
        result.append({"number": round_.number, "status": round_.status, "tables": tables,
                       "all_played": bool(tables) and all(table["finished"] for table in tables)})
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
        "allow_bots": tournament.allow_bots,
        "kind": tournament.kind,
        "courses": list(tournament.courses.order_by("name").values_list("slug", flat=True)),
        "players": tournament.entries.filter(withdrawn_at__isnull=True, disqualified_at__isnull=True).count(),
    }


def competition_of(*, game) -> dict | None:
    """The tournament a game is a table of: {"kind": "tournament", "name", "url", "context" ("round 2, table 1"),
    "result"} or None. `result` says what the table's places did, once they are recorded: the league points each
    player took ("Points: ann 3, ben 1"), or who goes on in heats ("ann advances to round 3"); "" before."""
    table = Table.objects.filter(game=game).select_related("round__tournament").first()
    if table is None:
        return None
    tournament = table.round.tournament
    return {"kind": "tournament", "name": tournament.name, "url": reverse("tournament", args=[tournament.pk]),
            "context": f"round {table.round.number}, table {table.number}", "result": _table_result(tournament, table)}


def _whole(value: float) -> str:
    """A number as players read it: 17, not 17.0; 2.5 stays 2.5."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _table_result(tournament: Tournament, table: Table) -> str:
    if not table.finished:
        return ""
    seats = sorted(table.seats.select_related("entry__user"), key=lambda ts: ts.place or 99)
    if tournament.format == Tournament.Format.LEAGUE:
        return "Points: " + ", ".join(f"{name_of(ts.entry.user)} {_whole(ts.points)}" for ts in seats)
    quota = 1 if len(seats) == 1 else seating.advancing(len(seats), tournament.advance)
    going = [name_of(ts.entry.user) for ts in seats[:quota] if not ts.ejected]
    if not going:
        return "Nobody from this table goes on"
    final = Table.objects.filter(round=table.round).count() == 1
    if final:
        return f"{going[0]} wins the tournament"
    verb = "advances" if len(going) == 1 else "advance"
    return f"{' and '.join(going)} {verb} to round {table.round.number + 1}"


def pool_choices() -> QuerySet:
    """The create form's course pool: the latest stable courses a tournament's tables can play, asked of the one
    policy of a game's setting (games.services.setup, use "tournament": no puzzle, no course of another ruleset) and
    seating 2 (tables shrink as a tournament goes on), for any kind that plays on courses. Whether one seats the
    chosen table size, and fits the chosen kind, is checked when the form is sent."""
    fitting = [course.pk for course in course_selectors.latest_stable().filter(min_players__lte=2)
               if any(game_setup.fits(kind=name, course_data=course.data, use=game_setup.TOURNAMENT)
                      for name, kind in game_kinds() if kind.uses_courses)]
    return Course.objects.filter(pk__in=fitting).order_by("name")


def game_kinds() -> list[tuple[str, object]]:
    """The kinds of game a tournament's tables may play, `(name, adapter)` from games' registry (games.kinds), in
    its order (the default first): the create form and the API offer them, so a new kind needs no edit here."""
    return [(name, kinds.get(name)) for name in kinds.names()]


def game_kind(*, tournament: Tournament):
    """The adapter of the kind the tournament's tables play (its title, whether it uses courses), or None for a
    kind the site no longer has."""
    return kinds.get(tournament.kind) if tournament.kind in kinds.names() else None


def my_table(*, tournament: Tournament, entry: Entry | None) -> dict | None:
    """The player's own table in the running round, while its game is being played: {"game", "round", "table",
    "course"} for the tournament page's "Your game is ready" (issue 38 item 1), else None."""
    if entry is None:
        return None
    seat = (TableSeat.objects.filter(entry=entry, table__round__status=Round.Status.RUNNING, table__game__isnull=False,
                                     table__finished=False)
            .select_related("table__round", "table__game__course").first())  # fmt: skip
    if seat is None or seat.table.game.status not in (Game.Status.PROGRAMMING, Game.Status.RESOLVING):
        return None
    return {"game": seat.table.game_id, "round": seat.table.round.number, "table": seat.table.number,
            "course": seat.table.game.board_name}


def seed_order(*, tournament: Tournament) -> list[Entry]:
    """The registered players in the order round 1 would seat them by hand: the organiser's seeds, then anyone
    not seeded yet in registration order (the organiser's seeds form starts from it)."""
    entries = Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True,
                                   disqualified_at__isnull=True).select_related("user")
    return sorted(entries, key=seating.hand_seed_order)
