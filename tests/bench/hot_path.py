"""Hot-path benchmark: the CPU of a turn's own work, in one process, without the web server, Celery or sockets.
Prints figures, not pass/fail.

N four-player games on Bolt Bay (PostgreSQL database `bench_hot_path`, dropped and re-created each run, or
BENCH_HOT_PATH_DATABASE_URL; Redis db 6, or BENCH_HOT_PATH_REDIS_URL, for what a deal pushes), then T turns of each: the four programs through
games.services.moves.submit_program and the turn through games.services.turns.resolve_turn (which builds and
publishes the deal's pushed snapshots), as the web server and the worker call them. Printed per turn resolved: this process's CPU for the four programs and for the
resolution, PostgreSQL's CPU (every backend, from /proc), and the statements sent. It isolates what
docs/performance.md calls the ORM's share, in a minute, where `make bench-site` takes several.

Run: .venv/bin/python tests/bench/hot_path.py [--games 40] [--turns 3] [--profile]
--root TREE runs another checkout's code (its services and models) with this driver, for a before/after.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_hot_path"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/6"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code runs (default: this one)")
    parser.add_argument("--profile", action="store_true", help="cProfile the timed part, top functions by CPU")
    args = parser.parse_args()
    root = args.root.resolve()
    sys.path[:0] = [str(root), str(ROOT)] if root != ROOT else [str(ROOT)]
    os.chdir(root)  # Celery's Django fix-up puts the working directory first on sys.path
    # Its own database, dropped and made again each run (never DATABASE_URL's), and a Redis db of its own.
    os.environ["DATABASE_URL"] = os.environ.get("BENCH_HOT_PATH_DATABASE_URL", DEFAULT_DATABASE_URL)
    os.environ["REDIS_URL"] = os.environ.get("BENCH_HOT_PATH_REDIS_URL", DEFAULT_REDIS_URL)
    os.environ.setdefault("ROBORACER_VAR_DIR", "/tmp/roboracer-bench-hot-path")
    os.environ["DJANGO_SETTINGS_MODULE"] = "roboracer.settings"
    # tests/bench, this script's folder
    from bench_db import BenchError, cpu_seconds, pids_named, prepare_database

    try:
        prepare_database(os.environ["DATABASE_URL"], fresh=True)
    except BenchError as error:
        print(f"bench-hot-path: {error}", file=sys.stderr)
        return 2
    import logging

    import django

    django.setup()
    logging.disable(logging.INFO)  # a line per resolved turn otherwise
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    call_command("migrate", verbosity=0)
    try:
        from games.services import moves, turns
        submit_program, resolve_turn = moves.submit_program, turns.resolve_turn
    except ImportError:  # --root: a tree from before issue 35 (one module of services)
        from games import services
        submit_program, resolve_turn = services.submit_program, services.resolve_turn
    from roboracer.courses.services import load_bundled_courses
    from tests.games.factories import legal_program, started_game

    course = next(course for course in load_bundled_courses() if course.slug == "bolt-bay")
    users = get_user_model().objects
    games = []
    for index in range(args.games):
        players = [users.create_user(username=f"hot{index}x{seat}", password="x") for seat in range(4)]
        games.append((started_game(users=players, course=course), players))
    profile = None
    if args.profile:
        import cProfile

        profile = cProfile.Profile(time.process_time)
    programs_cpu = resolution_cpu = postgres = 0.0
    statements = turns = 0
    for turn in range(1, args.turns + 1):
        for game, players in games:
            game.refresh_from_db()
            if game.status != "programming":
                continue
            chips = [legal_program(game, player) for player in players]
            before_postgres = cpu_seconds(pids_named("postgres"))
            with CaptureQueriesContext(connection) as captured:
                if profile:
                    profile.enable()
                began = time.process_time()
                for player, program in zip(players, chips, strict=True):
                    submit_program(user=player, game_id=game.pk, turn=turn, chips=program)
                submitted = time.process_time()
                resolve_turn(game_id=game.pk, turn=turn)
                resolved = time.process_time()
                if profile:
                    profile.disable()
            postgres += cpu_seconds(pids_named("postgres")) - before_postgres
            programs_cpu += submitted - began
            resolution_cpu += resolved - submitted
            statements += sum(not query["sql"].startswith(("BEGIN", "COMMIT")) for query in captured.captured_queries)
            turns += 1
    if not turns:
        print("bench-hot-path: no turn was played", file=sys.stderr)
        return 1
    print(f"hot path: {args.games} games x 4 players on bolt-bay, {turns} turns resolved, code of "
          f"{next(p for p in Path(resolve_turn.__code__.co_filename).parents if (p / 'manage.py').exists())}")
    print(f"CPU per turn: four programs {programs_cpu / turns * 1000:.1f} ms, resolution (with the deal's pushed "
          f"snapshots) {resolution_cpu / turns * 1000:.1f} ms, this process {(programs_cpu + resolution_cpu) / turns * 1000:.1f} ms; "
          f"PostgreSQL {postgres / turns * 1000:.1f} ms; {statements / turns:.1f} statements a turn "
          f"(without BEGIN and COMMIT)")
    if profile:
        import pstats

        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
