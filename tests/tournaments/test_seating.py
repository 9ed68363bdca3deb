"""The seating arithmetic: table sizes, snake seeding, Swiss chunks, how many go through, points."""

import pytest

from roboracer.tournaments import seating


@pytest.mark.parametrize(("count", "size", "sizes"), [
    (64, 8, [8] * 8), (9, 8, [5, 4]), (17, 8, [6, 6, 5]), (8, 8, [8]), (2, 8, [2]), (5, 2, [2, 2, 1]),
    (7, 3, [3, 2, 2]), (256, 8, [8] * 32),
])
def test_tables_are_as_even_as_possible_within_the_size(count, size, sizes):
    assert seating.table_sizes(count, size) == sizes
    assert sum(sizes) == count and max(sizes) - min(sizes) <= 1 and max(sizes) <= size


def test_snake_seeding_spreads_the_best_players():
    tables = seating.snake(list(range(1, 9)), [4, 4])
    assert tables == [[1, 4, 5, 8], [2, 3, 6, 7]]


def test_swiss_chunks_keep_close_standings_together():
    assert seating.chunks(list("abcdefg"), [4, 3]) == [list("abcd"), list("efg")]


@pytest.mark.parametrize(("count", "k", "through"), [(8, 1, 1), (8, 3, 3), (3, 3, 2), (2, 1, 1), (1, 1, 0)])
def test_a_table_never_sends_everyone_through(count, k, through):
    assert seating.advancing(count, k) == through


def test_points_of_a_place():
    assert seating.points_for([10, 7, 5], 1) == 10 and seating.points_for([10, 7, 5], 5) == 0
