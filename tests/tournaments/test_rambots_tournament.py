"""RAMbots tournaments (issue 21): the same tournaments with RAMbots tables: no course pool, 2 to 4 a table, the
tables' games made through the kind's registry entry, and a finished RAMbots game recorded as a RoboRacer one."""

import pytest
from rest_framework.test import APIClient

from games.models import Game
from games.services import lobby
from roboracer.common.errors import InvalidInput
from roboracer.ratings.models import Rating
from roboracer.tournaments.models import Round, Tournament
from roboracer.tournaments.services import rounds
from tests.helpers import many_players
from tests.tournaments.factories import current_tables, open_tournament, organiser, started, users_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga(make_user):
    return organiser(make_user)


def test_a_rambots_tournament_seats_rambots_tables_and_advances_on_their_results(olga, make_user):
    field = many_players(make_user, 6, prefix="r")
    tournament = started(open_tournament(organiser=olga, courses=[], kind="rambots", table_size=3, advance=1), field)
    tables = current_tables(tournament)
    assert len(tables) == 2
    for table in tables:
        game = table.game
        assert game.kind == "rambots" and game.course_id is None and game.status == Game.Status.PROGRAMMING
        assert game.turn == 0 and game.state["phase"] == "goals" and game.seats.count() == 3
        assert game.timer_preset in (Game.Preset.CUSTOM, Game.Preset.TOURNAMENT)
    # Each table's game ends as RAMbots games end: here, by the other two resigning.
    winners = []
    for table in tables:
        first, *others = users_at(table)
        for user in others:
            lobby.leave_game(user=user, game_id=table.game_id)
        table.refresh_from_db()
        assert table.finished
        assert {ts.entry.user_id: ts.place for ts in table.seats.select_related("entry")}[first.pk] == 1
        winners.append(first)
    rounds.advance(tournament_id=tournament.pk)  # what the commit of the last table's game schedules
    tournament.refresh_from_db()
    final = Round.objects.filter(tournament=tournament).order_by("-number").first()
    assert final.number == 2
    (table,) = current_tables(tournament)
    assert sorted(u.pk for u in users_at(table)) == sorted(u.pk for u in winners)
    assert table.game.kind == "rambots" and table.game.max_seats == 2


def test_a_rambots_tournament_seeds_by_rambots_ratings(olga, make_user):
    """Seeding by rating reads the tournament's kind's rating: the RoboRacer ones, the other way round, play
    no part (docs/ratings.md "One rating per kind")."""
    tournament = open_tournament(organiser=olga, courses=[], kind="rambots", table_size=4, seeding="rating")
    field = many_players(make_user, 8, prefix="s")
    for strength, user in enumerate(reversed(field)):  # s007 is the weakest RAMbots player... s000 the strongest
        Rating.objects.create(user=user, kind="rambots", mu=10 + strength * 5, sigma=1, games=1)
        Rating.objects.create(user=user, mu=60 - strength * 5, sigma=1, games=1)
    started(tournament, field)
    tables = current_tables(tournament)
    assert [u.username for u in users_at(tables[0])] == ["s000", "s003", "s004", "s007"]
    assert [u.username for u in users_at(tables[1])] == ["s001", "s002", "s005", "s006"]


@pytest.mark.parametrize("options, words", [
    ({"kind": "rambots", "table_size": 5}, "table_size"),
    ({"kind": "rambots", "table_size": 4, "with_course": True}, "no courses"),
    ({"kind": "roboracer", "table_size": 4}, "at least one stable course"),
    ({"kind": "checkers", "table_size": 4}, "kind"),
])
def test_bad_rambots_settings_are_refused(olga, courses, options, words):
    options = dict(options)
    pool = [courses["cogwheel-crossing"]] if options.pop("with_course", False) else []
    with pytest.raises(InvalidInput, match=words):
        open_tournament(organiser=olga, courses=pool, **options)
    assert not Tournament.objects.exists()


def test_the_api_creates_a_rambots_tournament_without_courses(olga):
    client = APIClient()
    client.force_authenticate(olga)
    answer = client.post("/api/tournaments/", {
        "name": "Chessboard Cup", "kind": "rambots", "table_size": 4,
        "registration_opens": "2026-01-01T00:00:00Z", "registration_closes": "2030-01-01T00:00:00Z",
    }, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.data["kind"] == "rambots" and answer.data["courses"] == []
    refused = client.post("/api/tournaments/", {
        "name": "Bad Cup", "kind": "rambots", "table_size": 6,
        "registration_opens": "2026-01-01T00:00:00Z", "registration_closes": "2030-01-01T00:00:00Z",
    }, format="json")
    assert refused.status_code == 400 and "table_size" in refused.data["detail"]
