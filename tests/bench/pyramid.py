"""Figures for the Pyramid's page and its results, on a big pyramid (PostgreSQL).

Builds a pyramid of --players players (default 1000: 45 rows) and --challenges open challenges made through
the service (each a real started game), then prints: the time and the number of queries of the pyramid's state
(the page's and the API's read) and of the whole page as a signed-in player gets it, and the time and queries
of a challenge game's last turn, the place swap included.

Run: .venv/bin/python tests/bench/pyramid.py [--players 1000] [--challenges 100]
Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/pyramid_bench, dropped and re-created).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/pyramid_bench"


def fresh_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'drop database if exists "{name}" with (force)')
        conn.execute(f'create database "{name}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--challenges", type=int, default=100)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    fresh_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roboracer.settings")
    os.environ.setdefault("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    setup_test_environment()  # the test client, and e-mails kept in memory
    call_command("migrate", "--noinput", verbosity=0)
    from games.models import Game, Hand
    from games.services import moves, turns
    from roboracer.courses.services import load_bundled_courses
    from roboracer.pyramid import selectors, services
    from roboracer.pyramid.models import Place, Pyramid
    from tests.pyramid.factories import BACK_OFF, HAND, STAY

    courses = {course.slug: course for course in load_bundled_courses()}
    pyramid = Pyramid.objects.create(slug="bench", name="Bench", lives=1)
    pyramid.courses.set([courses["tiny-yard"]])
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"p{n}") for n in range(args.players)])
    spots = [(row, position) for row in range(1, args.players + 1) for position in range(1, row + 1)]
    Place.objects.bulk_create([Place(pyramid=pyramid, user=user, row=row, position=position, points=8)
                               for user, (row, position) in zip(users, spots, strict=False)])
    # Challenges one row up from the bottom rows, each by a different challenger and defender.
    places = list(Place.objects.filter(pyramid=pyramid).select_related("user").order_by("-row", "position"))
    by_rank = {p.rank: p for p in places}
    made, used = [], set()
    started = time.perf_counter()
    for challenger in places:
        if len(made) >= args.challenges:
            break
        defender = by_rank.get((challenger.row - 1, min(challenger.position, challenger.row - 1)))
        if defender is None or challenger.user_id in used or defender.user_id in used:
            continue
        made.append(services.create_challenge(user=challenger.user, slug=pyramid.slug,
                                              player=defender.user.username))
        used |= {challenger.user_id, defender.user_id}
    setup = time.perf_counter() - started
    rows = max(row for row, _ in spots[: args.players])
    print(f"pyramid: {args.players} players in {rows} rows, {len(made)} open challenges "
          f"(made in {setup:.1f} s, {1000 * setup / max(len(made), 1):.0f} ms each)")

    viewer = places[-1].user
    for label, call in (
        ("state (selectors.pyramid_state)", lambda: selectors.pyramid_state(pyramid=pyramid, user=viewer)),
    ):
        call()  # warm
        with CaptureQueriesContext(connection) as queries:
            t = time.perf_counter()
            call()
            took = time.perf_counter() - t
        print(f"{label}: {1000 * took:.0f} ms, {len(queries)} queries")
    client = Client()
    client.force_login(viewer)
    client.get("/pyramid/bench/")
    with CaptureQueriesContext(connection) as queries:
        t = time.perf_counter()
        response = client.get("/pyramid/bench/")
        took = time.perf_counter() - t
    assert response.status_code == 200
    print(f"page GET /pyramid/bench/: {1000 * took:.0f} ms, {len(queries)} queries, {len(response.content) // 1024} KiB")

    challenge = made[0]
    game = Game.objects.get(pk=challenge.game_id)
    for seat in game.seats.select_related("user"):
        Hand.objects.filter(seat=seat, turn=1).update(chips=HAND)
        moves.submit_program(user=seat.user, game_id=game.pk, turn=1,
                                     chips=STAY if seat.number == 1 else BACK_OFF)
    with CaptureQueriesContext(connection) as queries:
        t = time.perf_counter()
        turns.resolve_turn(game_id=game.pk, turn=1)
        took = time.perf_counter() - t
    challenge.refresh_from_db()
    pyramid_queries = sum(1 for q in queries.captured_queries if "pyramid_" in q["sql"])
    print(f"last turn of a challenge game, swap included: {1000 * took:.0f} ms, {len(queries)} queries "
          f"({pyramid_queries} of them the pyramid's); result: {challenge.status}")


if __name__ == "__main__":
    main()
