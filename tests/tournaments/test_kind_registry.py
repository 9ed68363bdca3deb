"""Tournaments read the kinds from games' registry (issue 35): the create form, the API and the tournament page
offer and name every registered kind, so a new kind needs no edit in tournaments."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import kinds
from roboracer.tournaments.api import CreateTournamentSerializer
from roboracer.tournaments.views import TournamentForm
from tests.tournaments.factories import open_tournament, organiser

pytestmark = pytest.mark.django_db


class Checkers:
    """A made-up third kind: only what tournaments read of a kind before its tables are seated."""

    name = "checkers"
    title = "Checkers"
    uses_courses = False
    max_table = 2


@pytest.fixture
def checkers(monkeypatch):
    monkeypatch.setitem(kinds._MODULES, "checkers", "tests.tournaments.test_kind_registry")
    monkeypatch.setitem(kinds._loaded, "checkers", Checkers())
    return kinds.get("checkers")


def test_the_form_and_the_api_offer_the_registered_kinds():
    form = TournamentForm()
    assert [name for name, _label in form.fields["kind"].choices] == list(kinds.names()) == ["roboracer", "rambots"]
    assert dict(form.fields["kind"].choices) == {"roboracer": "RoboRacer: 2 to 8 players a table",
                                                 "rambots": "RAMbots: 2 to 4 players a table (no courses)"}
    assert form.fields["courses"].help_text == "RoboRacer: stable courses; each table's course is drawn from these."
    serializer = CreateTournamentSerializer()
    assert dict(serializer.fields["kind"].choices) == {"roboracer": "RoboRacer", "rambots": "RAMbots"}


def test_a_new_kind_appears_without_an_edit_in_tournaments(checkers, make_user):
    form = TournamentForm()
    assert dict(form.fields["kind"].choices)["checkers"] == "Checkers: 2 to 2 players a table (no courses)"
    assert dict(CreateTournamentSerializer().fields["kind"].choices)["checkers"] == "Checkers"
    olga = organiser(make_user)
    client = APIClient()
    client.force_authenticate(olga)
    answer = client.post("/api/tournaments/", {
        "name": "Checkers Cup", "kind": "checkers", "table_size": 2,
        "registration_opens": "2026-01-01T00:00:00Z", "registration_closes": "2030-01-01T00:00:00Z",
    }, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.data["kind"] == "checkers"
    refused = client.post("/api/tournaments/", {
        "name": "Big Checkers Cup", "kind": "checkers", "table_size": 3,
        "registration_opens": "2026-01-01T00:00:00Z", "registration_closes": "2030-01-01T00:00:00Z",
    }, format="json")
    assert refused.status_code == 400 and "from 2 to 2 for Checkers" in refused.data["detail"]


def test_the_page_names_a_kind_without_courses_by_its_title(make_user, courses):
    olga = organiser(make_user)
    rambots = open_tournament(organiser=olga, courses=[], kind="rambots", table_size=4, name="Chessboard Cup")
    roboracer = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2)
    page = Client().get(f"/tournaments/{rambots.pk}/").content.decode()
    assert "<dt>Game</dt><dd>RAMbots</dd>" in page and "<dt>Courses</dt>" not in page
    page = Client().get(f"/tournaments/{roboracer.pk}/").content.decode()
    assert "<dt>Game</dt>" not in page and "<dt>Courses</dt>" in page and "Tiny Yard" in page
