"""Rounds: seating the players at tables and dealing their games (round 1 when registration closes), then
advancing once a round's last table has its places (heats or league), or finishing the tournament.

A round is created exactly once: `advance` locks the tournament, moves the round from running to finished by a
conditional UPDATE, and a round number exists once."""

from __future__ import annotations

import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone

import engine
from games import clocks as game_clocks
from games import kinds
from games.models import Game
from games.services import notices
from roboracer.ratings.selectors import ratings_of
from roboracer.tournaments import seating, selectors
from roboracer.tournaments.models import Entry, Round, Table, TableSeat, Tournament
from roboracer.tournaments.services.common import locked, log_action


def _rng(tournament: Tournament, round_number: int) -> random.Random:
    return random.Random(engine.derive_seed(tournament.seed, round_number, "seating"))


def _order_for_round_one(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    entries = sorted(entries, key=lambda e: e.pk)
    if tournament.seeding == Tournament.Seeding.RATING:
        ratings = ratings_of(users=[e.user_id for e in entries], kind=tournament.kind)
        return sorted(entries, key=lambda e: (-ratings[e.user_id], e.pk))
    if tournament.seeding == Tournament.Seeding.HAND:  # the organiser's order; anyone they did not place, after
        return sorted(entries, key=seating.hand_seed_order)
    _rng(tournament, 1).shuffle(entries)
    return entries


def _seat_round(tournament: Tournament, number: int, ordered: list[Entry]) -> Round:
    """Create round `number` with `ordered` players (best first) at tables, and its games. Raises
    IntegrityError if the round exists (the unique round number): a second advance changes nothing."""
    round_ = Round.objects.create(tournament=tournament, number=number)
    sizes = seating.table_sizes(len(ordered), tournament.table_size)
    if tournament.format == Tournament.Format.HEATS and tournament.seeding in (Tournament.Seeding.RATING,
                                                                               Tournament.Seeding.HAND):
        tables = seating.snake(ordered, sizes)  # the top seeds spread over the tables
    else:
        tables = seating.chunks(ordered, sizes)
    courses = list(tournament.courses.order_by("pk"))
    rng = _rng(tournament, number)
    options = {"lives": tournament.lives, "timer_preset": Game.Preset.CUSTOM, "move_time": tournament.move_time,
               "game_time": tournament.game_time, "timeout_policy": tournament.timeout_policy,
               "modules": list(tournament.modules)}
    if (tournament.move_time, tournament.game_time) == game_clocks.PRESETS["tournament"]:
        options = {**options, "timer_preset": Game.Preset.TOURNAMENT}
    fill = tournament.computer_fill
    seats, filled = [], 0
    for index, players in enumerate(tables, start=1):
        if len(players) == 1 and not fill:
            table = Table.objects.create(round=round_, number=index, bye=True, finished=True)
            points = seating.points_for(tournament.points, 1) if tournament.format == Tournament.Format.LEAGUE else 0
            seats.append(TableSeat(table=table, entry=players[0], seat=1, place=1, game_place=1, points=points))
            continue
        # Computer players fill the table up to the table size (a lone player plays them instead of a bye).
        # They take the game seats after the people's (create_seated_game seats the users first, in order), so
        # a TableSeat's seat is its player's game seat, as record_table reads it; computers have no TableSeat.
        computers = [fill] * (tournament.table_size - len(players)) if fill else []
        filled += len(computers)
        game = kinds.get(tournament.kind).seated_game(creator=tournament.organiser, users=[e.user for e in players],
                                                      computers=computers, courses=courses, rng=rng, options=options)
        table = Table.objects.create(round=round_, number=index, game=game)
        seats.extend(TableSeat(table=table, entry=entry, seat=n) for n, entry in enumerate(players, start=1))
        # "Your game is ready" (organisers' issue item 1), naming the tournament, round and table.
        notices.notify(
            user_ids=[e.user_id for e in players], kind="tournament_game_ready",
            text=f"Your game in {tournament.name}, round {number}, table {index}, is ready", link=f"/games/{game.pk}/",
            source={"tournament": tournament.pk, "round": number, "table": index, "game": game.pk},
            message={"game": game.pk, "tournament": tournament.pk, "tournament_name": tournament.name},
        )
    TableSeat.objects.bulk_create(seats)
    computers_text = (f", and {filled} {engine.players.strength_label(fill)} computer player(s) in the "
                      f"empty seats (those games are unrated)" if filled else "")
    log_action(tournament, "round", f"round {number}: {len(ordered)} players at {len(tables)} table(s){computers_text}")
    return round_


def close_registration(*, tournament_id: int, now: datetime | None = None) -> str | None:
    """At `registration_closes` (the beat sweep): seat round 1 and deal its games, or cancel the tournament
    if too few registered. Safe to run twice and concurrently: only a tournament still in registration moves."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        now = now or timezone.now()
        if tournament.status != Tournament.Status.REGISTRATION or now < tournament.registration_closes:
            return None
        entries = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True,
                                            disqualified_at__isnull=True).select_related("user"))
        if len(entries) < max(tournament.min_players, 2):
            tournament.status = Tournament.Status.CANCELLED
            tournament.finished_at = now
            tournament.save(update_fields=["status", "finished_at"])
            log_action(tournament, "cancelled", f"registration closed with {len(entries)} player(s); "
                                                f"the tournament needed {tournament.min_players}")
            return "cancelled"
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        tournament.save(update_fields=["status", "started_at"])
        log_action(tournament, "started", f"registration closed with {len(entries)} players")
        _seat_round(tournament, 1, _order_for_round_one(tournament, entries))
        return "started"


def advance(*, tournament_id: int) -> Round | None:
    """When the current round's last table has its places: finish the round, then seed and create the next one
    or finish the tournament. Exactly once: the tournament row is locked, the round moves from running to
    finished by a conditional UPDATE, and a round number exists once. Returns the new round, if any."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return None
        current = tournament.rounds.filter(status=Round.Status.RUNNING).order_by("-number").first()
        if current is None or current.tables.filter(finished=False).exists():
            return None
        now = timezone.now()
        if not Round.objects.filter(pk=current.pk, status=Round.Status.RUNNING).update(
                status=Round.Status.FINISHED, finished_at=now):
            return None
        seats = list(TableSeat.objects.filter(table__round=current).select_related("table", "entry__user"))
        if tournament.format == Tournament.Format.HEATS:
            return _advance_heats(tournament, current, seats, now)
        return _advance_league(tournament, current, now)


def _finish(tournament: Tournament, now: datetime, text: str, *,
            nobody: str = "nobody is left in it, so there is no winner") -> None:
    """Finish the tournament and log why, naming its winner(s) from the final standings ("round 3 was the
    final: alice wins"), or `nobody` when no one still in is left to win."""
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    standings = selectors.standings(tournament=tournament)
    names = selectors.winners(standings)
    if not names:
        outcome = nobody
    elif len(names) == 1:
        outcome = f"{names[0]} wins"
    else:
        outcome = f"{', '.join(names[:-1])} and {names[-1]} share first place"
    log_action(tournament, "finished", f"{text}: {outcome}")
    # Everyone who played is told how it ended and where they finished (the walkthrough: no notice said so).
    users = dict(Entry.objects.filter(tournament=tournament).values_list("pk", "user_id"))
    for row in standings:
        if not row.get("places") or row["entry"] not in users:
            continue
        place = f"you finished {_ordinal(row['place'])}" if row.get("place") else "it is over for you"
        notices.notify(user_ids=[users[row["entry"]]], kind="tournament_result",
                       text=f"{tournament.name} is over: {place}; {outcome}"[:300],
                       link=f"/tournaments/{tournament.pk}/", source={"tournament": tournament.pk})


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 11 <= n % 100 <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _advance_heats(tournament: Tournament, current: Round, seats: list[TableSeat], now: datetime) -> Round | None:
    by_table: dict[int, list[TableSeat]] = {}
    for ts in seats:
        by_table.setdefault(ts.table_id, []).append(ts)
    final = len(by_table) == 1
    through, out = [], []
    for table_seats in by_table.values():
        table_seats.sort(key=lambda ts: ts.place)
        # A bye goes through, and so does the lone player of a table filled with computer players (their place
        # among the people is 1st; as with a bye, only leaving or being ejected puts them out).
        lone = table_seats[0].table.bye or len(table_seats) == 1
        quota = 1 if lone else seating.advancing(len(table_seats), tournament.advance)
        taken = 0
        for ts in table_seats:
            entry = ts.entry
            if entry.withdrawn_at is not None or entry.disqualified_at is not None:
                continue  # already out, and ranked by when they left
            if final:
                # The final table's places are the tournament's first places; a player ejected from the final
                # leaves the tournament, as in any round (docs/tournaments.md "Heats").
                if ts.ejected:
                    out.append(entry)
                continue
            if taken < quota and not ts.ejected:
                through.append(ts)
                taken += 1
            else:
                out.append(entry)
    for entry in out:
        entry.eliminated_in = current.number
    Entry.objects.bulk_update(out, ["eliminated_in"])
    if out and not final:  # the final's players hear the result instead (_finish)
        notices.notify(user_ids=[entry.user_id for entry in out], kind="tournament_status",
                       text=f"You are out of {tournament.name} after round {current.number}",
                       link=f"/tournaments/{tournament.pk}/", source={"tournament": tournament.pk})
    if final:
        _finish(tournament, now, f"round {current.number} was the final",
                nobody="nobody finished it, so there is no winner")
        return None
    if len(through) <= 1:
        _finish(tournament, now, "one player is left" if through else f"nobody is left after round {current.number}",
                nobody="there is no winner")
        return None
    # The next round's order: best table places first, then the better seeds (lower table number, seat).
    through.sort(key=lambda ts: (ts.place, ts.table.number, ts.seat))
    return _seat_round(tournament, current.number + 1, [ts.entry for ts in through])


def _advance_league(tournament: Tournament, current: Round, now: datetime) -> Round | None:
    if current.number >= tournament.league_rounds:
        _finish(tournament, now, f"the league's {tournament.league_rounds} round(s) are played")
        return None
    standing = selectors.league_order(tournament=tournament)
    active = [entry for entry in standing if entry.withdrawn_at is None and entry.disqualified_at is None]
    if len(active) < 2:
        _finish(tournament, now, "fewer than two players are left")
        return None
    return _seat_round(tournament, current.number + 1, active)
