"""The tournament list names each tournament's game and time control (organisers' issue, smaller points)."""

import pytest
from django.test import Client

from tests.tournaments.factories import open_tournament, organiser

pytestmark = pytest.mark.django_db


def test_each_listed_tournament_says_its_game_and_its_timers(make_user, courses):
    olga = organiser(make_user)
    open_tournament(organiser=olga, courses=[courses["tiny-yard"]], name="Quick Cup", move_time=120, game_time=600)
    open_tournament(organiser=olga, courses=[], name="Chess Cup", kind="rambots", move_time=86400, game_time=0)
    page = " ".join(Client().get("/tournaments/").content.decode().split())
    quick = page[page.index("Quick Cup"):page.index("</li>", page.index("Quick Cup"))]
    assert "RoboRacer ·" in quick and "2 min a move, 10 min game time" in quick
    chess = page[page.index("Chess Cup"):page.index("</li>", page.index("Chess Cup"))]
    assert "RAMbots ·" in chess and "1 day a move, no game time" in chess
