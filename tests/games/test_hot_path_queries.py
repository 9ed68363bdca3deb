"""How many queries the hot path of a game makes: a program, the turn's resolution with the deal's pushed
snapshots, and what is sent on. Capacity (docs/performance.md) is mostly the ORM's CPU per query, so a query
added here costs every turn of every game; these ceilings fail when one creeps in."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.services import moves, turns
from tests.games.factories import legal_program, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def statements(captured) -> list[str]:
    # Not the transaction's own BEGIN (SQLite's "BEGIN IMMEDIATE") and COMMIT.
    return [query["sql"] for query in captured.captured_queries
            if not query["sql"].startswith("BEGIN") and query["sql"] != "COMMIT"]


def test_a_program_and_a_resolution_stay_within_their_queries(courses, make_user):
    users = [make_user(f"player{index}") for index in range(4)]
    game = started_game(users=users, course=courses["bolt-bay"])
    programs = []
    for user in users:
        program = legal_program(game, user)
        with CaptureQueriesContext(connection) as captured:
            moves.submit_program(user=user, game_id=game.pk, turn=1, chips=program)
        programs.append(statements(captured))
    # Lock the game row (the visibility check in the same query), the seats with their hands and programs of
    # the turn, insert the program, the seat's clock, the events (seat_ready; turn_executing too from the last
    # program: one INSERT), the game row.
    assert [len(queries) for queries in programs] == [6, 6, 6, 6]
    with CaptureQueriesContext(connection) as captured:
        turns.resolve_turn(game_id=game.pk, turn=1)
    resolution = statements(captured)
    # In the transaction: lock (with the course's name and state), programs, the turn, seats, hands, clocks,
    # the events in one INSERT, the game; after the commit the pushed snapshots read seats, ratings and chat
    # (the hands and programs of the new turn are those the deal just wrote).
    assert len(resolution) <= 12, "\n".join(sql[:100] for sql in resolution)
    assert sum(sql.startswith('INSERT INTO "games_gameevent"') for sql in resolution) == 1
    # The course's layout is never read again: the game has its own copy, and the lobby name and the rated
    # check read one column each.
    assert not any('"courses_course"."data"' in sql for sql in resolution)
    # Nor is the turn just stored read back for the snapshots.
    assert not any('FROM "games_turn"' in sql for sql in resolution)
