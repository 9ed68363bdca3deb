"""The price book under concurrency, on PostgreSQL (issue 15): turns resolving at the same moment in many
games on one course never lose a book update, and the final book is the purchases applied one after another
in commit order (the history points' order: each is written under the locks of the rows it moved)."""

import threading

import pytest
from django.db import connection

from engine import MODULE_NAMES
from games.models import Game, Turn
from games.services import moves, turns
from roboracer.economy import services as economy
from roboracer.economy.models import ModulePrice, PricePoint
from tests.economy.replay_book import apply_in_order
from tests.games.factories import legal_program
from tests.games.modules_helpers import module_game, set_bot
from tests.helpers import wait_until
from tests.integration.conftest import needs_postgres

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True), needs_postgres()]

GROUPS = [["repair", "shield", "turbo"], ["blaster", "bomb", "shield", "turbo"]]  # overlapping module sets


def together(count: int, work) -> list:
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as error:  # noqa: BLE001 - reported to the test as a value
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def test_fifty_concurrent_purchases_across_ten_games_lose_no_update(courses, make_user):
    course = courses["bolt-bay"]
    economy.ensure_book(course_id=course.pk)
    ModulePrice.objects.filter(course=course).update(price=14)  # near the floor: the order matters
    users = [make_user(f"p{i}") for i in range(20)]
    games = []
    for i in range(10):
        modules = GROUPS[i % 2]
        game = module_game(users=users[2 * i:2 * i + 2], course=course, modules=modules, lives=9)
        for seat, module in (("1", modules[i % len(modules)]), ("2", modules[(i + 1) % len(modules)])):
            set_bot(game, seat, battery=900_000, module={"type": module, "charges": 0})
        games.append(game)
    start = dict(ModulePrice.objects.filter(course=course).values_list("module", "price"))
    for round_ in range(1, 4):
        for i, game in enumerate(games):
            game.refresh_from_db()
            state_bots = {bot["id"]: bot for bot in game.state["bots"]}
            for number, user in ((1, users[2 * i]), (2, users[2 * i + 1])):
                bot = state_bots[str(number)]
                acting = bot["at"] is not None and not bot["rebooting"]
                action = {"charge": 1 + (i + number + round_) % 5} if acting else None
                chips = ["0"] * 5 if bot["rebooting"] else legal_program(game, user, round_)
                moves.submit_program(user=user, game_id=game.pk, turn=round_, chips=chips, action=action)
        results = together(10, lambda i, r=round_: turns.resolve_turn(game_id=games[i].pk, turn=r))
        assert not [r for r in results if isinstance(r, Exception)], results
        # The last program also queued the turn's task: a Celery worker on the same Redis and database (another
        # integration test's) may resolve a turn first, and then this thread's call finds it done (None).
        # Either way each turn is resolved exactly once, which is what the book needs.
        wait_until(lambda r=round_: Turn.objects.filter(game__in=games, number=r).count() == len(games),
                   f"every game's turn {round_} stored")
    charged = [e for t in Turn.objects.filter(game__in=games) for e in t.events if e["type"] == "module_charged"]
    assert len(charged) >= 50  # every bot bought every turn it could act
    points = list(PricePoint.objects.filter(course=course).order_by("id"))
    assert sum(len(p.purchases) for p in points) == len(charged)
    buying_turns = [t for t in Turn.objects.filter(game__in=games) if any(e["type"] == "module_charged"
                                                                          for e in t.events)]
    assert len(points) == len(buying_turns)  # one history point per turn that bought something
    # The final book is the purchases applied one after another in commit order.
    purchases = [(p["module"], p["charges"], p["modules"]) for point in points for p in point.purchases]
    final = dict(ModulePrice.objects.filter(course=course).values_list("module", "price"))
    assert final == apply_in_order(start, purchases)
    # Each point saw the book as the purchases before it left it, on the rows its turn moved (and held).
    done = []
    for point in points:
        done += [(p["module"], p["charges"], p["modules"]) for p in point.purchases]
        expected = apply_in_order(start, done)
        moved = set(point.purchases[0]["modules"])
        assert {m: point.prices[m] for m in moved} == {m: expected[m] for m in moved}
    # And the games' own prices moved by their own purchases only (the book is per course, not per game).
    for game in games:
        game.refresh_from_db()
        assert set(game.state["prices"]) == set(game.modules)
    assert set(final) == set(MODULE_NAMES)
    assert Game.objects.filter(pk__in=[g.pk for g in games], status=Game.Status.PROGRAMMING).count() == 10


def test_fifty_purchases_at_the_same_moment_in_ten_games(courses):
    """The book's own guarantee, 50 threads at once (each its own connection and transaction, as a turn's):
    the 10 games alternate two overlapping module sets, so rows are locked in many combinations."""
    from django.db import transaction

    course = courses["bolt-bay"]
    economy.ensure_book(course_id=course.pk)
    ModulePrice.objects.filter(course=course).update(price=12)
    start = dict(ModulePrice.objects.filter(course=course).values_list("module", "price"))

    def buy(i: int):
        modules = GROUPS[(i % 10) % 2]
        with transaction.atomic():
            return economy.apply_purchases(
                course_id=course.pk, modules=modules, purchases=[(modules[i % len(modules)], 1 + i % 5)],
                turn=i // 10 + 1,
            )

    results = together(50, buy)
    assert not [r for r in results if isinstance(r, Exception)], results
    points = list(PricePoint.objects.filter(course=course).order_by("id"))
    assert len(points) == 50
    purchases = [(p["module"], p["charges"], p["modules"]) for point in points for p in point.purchases]
    final = dict(ModulePrice.objects.filter(course=course).values_list("module", "price"))
    assert final == apply_in_order(start, purchases)
    done = []
    for point in points:
        done += [(p["module"], p["charges"], p["modules"]) for p in point.purchases]
        expected = apply_in_order(start, done)
        assert {m: point.prices[m] for m in point.purchases[0]["modules"]} == \
            {m: expected[m] for m in point.purchases[0]["modules"]}
