"""The time from a round's last game finishing to the next round's games being dealt, for a 256-player heats
tournament (tables of 8, the winner of each goes through: 32 tables, then 4, then a final of 4), and the
queries it took (Django's CaptureQueriesContext). Target: under 5 s.

Everything runs in this process on PostgreSQL through the real services: the last player of each table's game
resigns (games.services.leave_game), the game finishes, the game_finished receiver records the table, and the
advance task (run eagerly here, right after the commit, instead of by a worker) seats the next round and
deals its games with create_seated_game. So the figure is the finishing transaction plus the advance, without
the broker's hand-over to a worker (a few milliseconds on an idle Redis). Also printed: closing registration
(round 1's 32 games dealt).

Run: .venv/bin/python tests/bench/tournament.py [--players 256] [--table-size 8]
Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/bench_tournament, dropped and
re-created each run) and REDIS_URL (default redis://127.0.0.1:6379/5: the channel layer's events and "your
turn" notices are really sent).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_tournament"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/5"


def fresh_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        sys.exit(f"DATABASE_URL must be a PostgreSQL URL, not {url}")
    name = parts.path.lstrip("/")
    admin = urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'drop database if exists "{name}" with (force)')
        conn.execute(f'create database "{name}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--table-size", type=int, default=8)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    fresh_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("REDIS_URL", DEFAULT_REDIS_URL)  # the channel layer: events and notices are sent
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roboracer.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games.models import Game, Seat
    from games.services import lobby
    from roboracer.celery import app
    from roboracer.courses.services import load_bundled_courses
    from roboracer.tournaments.models import Round, Table, Tournament
    from roboracer.tournaments.services import common, creation, registration, rounds

    app.conf.task_always_eager = True  # the advance runs here, right after the finishing commit
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

    courses = {c.slug: c for c in load_bundled_courses()}
    User = get_user_model()
    olga = User.objects.create_user("olga", password=None)
    common.grant_organiser(user=olga)
    users = User.objects.bulk_create([User(username=f"p{i:04d}") for i in range(args.players)])
    now = timezone.now()
    tournament = creation.create_tournament(
        organiser=olga, name="Bench", courses=[courses["cogwheel-crossing"]], table_size=args.table_size,
        advance=1, lives=1, registration_opens=now - timedelta(hours=1), registration_closes=now + timedelta(hours=1))
    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now())
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        rounds.close_registration(tournament_id=tournament.pk)
        took = time.perf_counter() - started
    games = Game.objects.filter(tournament_table__round__number=1).count()
    print(f"close registration: round 1 dealt, {games} games of {args.players} players: "
          f"{took:.3f} s, {len(queries)} queries")
    number = 1
    while True:
        round_ = Round.objects.get(tournament=tournament, number=number)
        tables = list(Table.objects.filter(round=round_).order_by("number"))
        last_moves = []
        for table in tables:
            seats = list(Seat.objects.filter(game_id=table.game_id).select_related("user").order_by("number"))
            for seat in seats[1:-1]:  # all but the first resign; the last one's resignation ends the game
                lobby.leave_game(user=seat.user, game_id=table.game_id)
            last_moves.append((seats[-1].user, table.game_id))
        for user, game_id in last_moves[:-1]:
            lobby.leave_game(user=user, game_id=game_id)
        user, game_id = last_moves[-1]
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            lobby.leave_game(user=user, game_id=game_id)  # the round's last game finishes
            took = time.perf_counter() - started
        tournament.refresh_from_db()
        following = Round.objects.filter(tournament=tournament, number=number + 1).first()
        if following is None:
            print(f"round {number} ({len(tables)} table(s)) was the final: tournament {tournament.status}, "
                  f"{took:.3f} s, {len(queries)} queries")
            break
        dealt = Game.objects.filter(tournament_table__round=following, status="programming", turn=1).count()
        verdict = "OK" if took < 5 else "OVER the 5 s target"
        print(f"round {number} -> {number + 1}: {len(tables)} tables finished, {dealt} games dealt: "
              f"{took:.3f} s from the last game finishing to the next round dealt, {len(queries)} queries ({verdict})")
        number += 1


if __name__ == "__main__":
    main()
