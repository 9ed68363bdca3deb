"""Ratings figures, printed (not asserted: timings are flaky on a shared machine):

- `rate_game` for finished 2-, 4- and 8-player games: the median time and the queries it takes, inside the
  finishing transaction (what it adds to the last turn of every rated game);
- the player page and GET /api/players/<username>/ for a player with 200 rated games: the median time and the
  queries (which must not grow with the number of games);
- the lobby's summaries with 50 open games: the queries (the rating and mode come with the lobby's query).

On a throwaway test database (`test_` + the DATABASE_URL's name, made and dropped here):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ratings .venv/bin/python tests/bench/ratings.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roboracer.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test.runner import DiscoverRunner  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.1f} ms"


def main() -> None:
    setup_test_environment()
    runner = DiscoverRunner(verbosity=0, interactive=False)
    old = runner.setup_databases()
    try:
        run()
    finally:
        runner.teardown_databases(old)


def run() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.models import Game
    from games.selectors import lobby
    from games.services import lobby as lobby_services
    from games.services import organisers, rating
    from roboracer.courses.services import load_bundled_courses
    from roboracer.ratings.models import RatingChange

    courses = {course.slug: course for course in load_bundled_courses()}
    users = [get_user_model().objects.create_user(f"p{n}", password="correct horse battery") for n in range(8)]
    print(f"database: {connection.vendor}")
    for size in (2, 4, 8):
        times, queries = [], []
        for round_ in range(15):
            seated = users[round_ % 8:] + users[:round_ % 8]
            game = organisers.create_seated_game(creator=seated[0], users=seated[:size], course=courses["cogwheel-crossing"])
            places = {str(n): min(n, size - 1) for n in range(1, size + 1)}  # the last two tie
            with transaction.atomic(), CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                changes = rating.rate_finished(game=game, outcome=SimpleNamespace(places=places))
                times.append(time.perf_counter() - started)
            assert len(changes) == size
            queries.append(len(captured))
        print(f"rate_finished, {size} players: {median_ms(times)} median of 15, {max(queries)} queries")

    # A player with 200 rated games (2-player games against the others, created and rated directly).
    star = users[0]
    for index in range(200 - RatingChange.objects.filter(user=star).count()):
        other = users[1 + index % 7]
        game = organisers.create_seated_game(creator=star, users=[star, other], course=courses["tiny-yard"])
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=game.created_at)
        with transaction.atomic():
            rating.rate_finished(game=game, outcome=SimpleNamespace(places={"1": 1 + index % 2, "2": 2 - index % 2}))
    client = Client()
    client.force_login(users[1])
    for path in (f"/players/{star.username}/", f"/api/players/{star.username}/"):
        times, queries = [], []
        for _ in range(15):
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                response = client.get(path)
                times.append(time.perf_counter() - started)
            assert response.status_code == 200, response.status_code
            queries.append(len(captured))
        print(f"GET {path} ({RatingChange.objects.filter(user=star).count()} rated games): "
              f"{median_ms(times)} median of 15, {max(queries)} queries")

    for _ in range(50 - lobby.open_games().count()):
        lobby_services.create_game(user=users[2], course=courses["tiny-yard"])
    with CaptureQueriesContext(connection) as captured:
        lobby = lobby.lobby_state(user=users[3])
    print(f"lobby_state with {len(lobby['open'])} open games: {len(captured)} queries")


if __name__ == "__main__":
    main()
