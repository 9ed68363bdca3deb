"""Computer players at the tables (issue 20; docs/tournaments.md "Computer players at the tables"): the organiser's
`computer_fill` fills each table up to the table size; those games are unrated and the computers count for
nothing in the tournament."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from games.models import Game, Seat
from games.selectors.rated import is_rated
from games.services import computer_seats, ejection, lobby
from roboracer.accounts.services import COMPUTER_PREFIX
from roboracer.common.errors import InvalidInput
from roboracer.ratings.models import Rating, RatingChange
from roboracer.tournaments import selectors
from roboracer.tournaments.models import Action, Entry, Round, TableSeat, Tournament
from roboracer.tournaments.services import creation, results, rounds, substitutions
from tests.helpers import client_for, many_players
from tests.tournaments.factories import (
    current_tables,
    finish_table,
    open_tournament,
    organiser,
    started,
    users_at,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga(make_user):
    return organiser(make_user)


@pytest.fixture
def pool(courses):
    return [courses["cogwheel-crossing"]]


def game_seats(table):
    return list(Seat.objects.filter(game_id=table.game_id).order_by("number"))


def finish_game(table, places: dict[int, int]) -> None:
    """End the table's game with the engine's places by game seat number (computers' seats included)."""
    Game.objects.filter(pk=table.game_id).update(status=Game.Status.FINISHED)
    table.game.refresh_from_db()
    results.record_table(game=table.game, state=SimpleNamespace(places={str(n): p for n, p in places.items()}))


def test_the_settings_strengths_are_the_computer_players_strengths():
    assert set(Tournament.ComputerFill.values) == {"", *computer_seats.COMPUTER_STRENGTHS}
    assert creation.COMPUTER_FILLS == tuple(computer_seats.COMPUTER_STRENGTHS)


def test_three_players_at_tables_of_four_play_an_easy_computer_in_an_unrated_game(olga, pool, make_user):
    field = many_players(make_user, 3)
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=4, computer_fill="easy"), field)
    (table,) = current_tables(tournament)
    people = users_at(table)
    assert len(people) == 3 and not table.bye
    # The people take game seats 1 to 3 in their table seats' order, the computer seat 4; only people have a
    # TableSeat, and a TableSeat's seat is its player's game seat.
    seats = game_seats(table)
    assert [s.number for s in seats] == [1, 2, 3, 4]
    assert [s.user_id for s in seats[:3]] == [u.pk for u in people]
    assert [s.computer for s in seats] == ["", "", "", "easy"]
    assert seats[3].user.username.startswith(COMPUTER_PREFIX)
    assert sorted(TableSeat.objects.filter(table=table).values_list("seat", flat=True)) == [1, 2, 3]
    game = Game.objects.get(pk=table.game_id)
    assert game.max_seats == 4 and game.status == Game.Status.PROGRAMMING and game.turn == 1
    assert game.rated is False and is_rated(game=game) is False
    assert "1 Easy computer player(s)" in Action.objects.filter(tournament=tournament, kind="round").get().text

    # The computer wins the race; the people's places are 1 to 3 among themselves, the engine's kept aside.
    a, b, c = people
    finish_game(table, {4: 1, 2: 2, 1: 3, 3: 4})
    places = {ts.entry.user_id: (ts.place, ts.game_place) for ts in TableSeat.objects.filter(table=table)
              .select_related("entry")}
    assert places == {b.pk: (1, 2), a.pk: (2, 3), c.pk: (3, 4)}
    table.refresh_from_db()
    assert table.finished
    game.refresh_from_db()
    assert is_rated(game=game) is False

    assert rounds.advance(tournament_id=tournament.pk) is None  # the only table was the final
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    rows = selectors.standings(tournament=tournament)
    assert [(r["username"], r["place"]) for r in rows] == [(b.username, 1), (a.username, 2), (c.username, 3)]


def test_a_real_game_with_a_computer_finishing_records_the_people_only(olga, courses, make_user):
    field = many_players(make_user, 3)
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=4,
                                         computer_fill="normal"), field)
    (table,) = current_tables(tournament)
    a, b, c = users_at(table)
    staff = make_user("steward", is_staff=True)
    ejection.staff_eject(user=staff, game_id=table.game_id, seat_number=4)  # the computer is out first
    lobby.leave_game(user=b, game_id=table.game_id)
    lobby.leave_game(user=c, game_id=table.game_id)  # a is left alone: the game ends, a wins
    table.refresh_from_db()
    game = Game.objects.get(pk=table.game_id)
    assert table.finished and game.status == Game.Status.FINISHED and game.winner.user_id == a.pk
    assert is_rated(game=game) is False and not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(user__in=field).exists()
    places = dict(TableSeat.objects.filter(table=table).values_list("entry__user__username", "place"))
    assert places[a.username] == 1 and sorted(places.values()) == [1, 2, 3]
    assert TableSeat.objects.filter(table=table).count() == 3
    rounds.advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert [r["username"] for r in selectors.standings(tournament=tournament)][0] == a.username


def test_heats_with_computers_advance_the_people_and_fill_the_next_round(olga, pool, make_user):
    field = many_players(make_user, 5)
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=4, advance=1,
                                         computer_fill="hard"), field)
    first, second = current_tables(tournament)
    assert [len(users_at(t)) for t in (first, second)] == [3, 2]
    assert [s.computer for s in game_seats(first)] == ["", "", "", "hard"]
    assert [s.computer for s in game_seats(second)] == ["", "", "hard", "hard"]
    winners = []
    for table in (first, second):
        people = users_at(table)
        computers = [s.number for s in game_seats(table) if s.computer]
        # The computers take the first places; the last person seated is the best person.
        order = computers + list(range(len(people), 0, -1))
        finish_game(table, {seat: place for place, seat in enumerate(order, start=1)})
        winners.append(people[-1])
    assert rounds.advance(tournament_id=tournament.pk).number == 2
    assert set(Entry.objects.filter(tournament=tournament, eliminated_in=1).values_list("user_id", flat=True)) == {
        u.pk for u in field} - {u.pk for u in winners}
    (final,) = current_tables(tournament)
    assert [u.pk for u in users_at(final)] == [u.pk for u in winners]
    assert [s.computer for s in game_seats(final)] == ["", "", "hard", "hard"]
    assert Game.objects.get(pk=final.game_id).rated is False
    finish_table(final, users_at(final)[::-1])  # the people's places only; no place for the computers
    assert rounds.advance(tournament_id=tournament.pk) is None
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    rows = selectors.standings(tournament=tournament)
    assert [r["username"] for r in rows[:2]] == [winners[1].username, winners[0].username]
    assert len(rows) == 5 and all(not r["username"].startswith(COMPUTER_PREFIX) for r in rows)


def test_a_lone_player_plays_computers_instead_of_a_bye_and_scores_like_one(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=2, format="league",
                                         league_rounds=1, points=[2, 0], computer_fill="easy"),
                         many_players(make_user, 3))
    pair, lone = current_tables(tournament)
    assert not lone.bye and lone.game_id is not None and not lone.finished
    (alone,) = users_at(lone)
    assert [(s.user_id, s.computer) for s in game_seats(lone)] == [(alone.pk, ""), (game_seats(lone)[1].user_id,
                                                                                     "easy")]
    assert Game.objects.get(pk=lone.game_id).rated is False
    assert Game.objects.get(pk=pair.game_id).rated is True  # a full table needs no computer: rated as usual
    assert [s.computer for s in game_seats(pair)] == ["", ""]
    finish_table(pair, users_at(pair))
    assert rounds.advance(tournament_id=tournament.pk) is None  # the lone player's game still runs
    finish_game(lone, {2: 1, 1: 2})  # the computer wins
    seat = TableSeat.objects.get(table=lone)
    assert (seat.place, seat.game_place, seat.points) == (1, 2, 2)
    rounds.advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    points = {r["username"]: r["points"] for r in selectors.standings(tournament=tournament)}
    assert points[alone.username] == 2


def test_in_heats_the_lone_player_of_a_filled_table_goes_through_unless_ejected(olga, pool, make_user):
    field = many_players(make_user, 3)
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=2, computer_fill="easy"), field)
    pair, lone = current_tables(tournament)
    (alone,) = users_at(lone)
    finish_table(pair, users_at(pair))
    finish_game(lone, {2: 1, 1: 2})
    assert rounds.advance(tournament_id=tournament.pk).number == 2
    (final,) = current_tables(tournament)
    assert {u.pk for u in users_at(final)} == {users_at(pair)[0].pk, alone.pk}
    assert [s.computer for s in game_seats(final)] == ["", ""]  # a full table: no computer

    other = started(open_tournament(organiser=olga, courses=pool, table_size=2, computer_fill="easy", name="Two"),
                    many_players(make_user, 3, prefix="q"))
    pair, lone = current_tables(other)
    (alone,) = users_at(lone)
    lobby.leave_game(user=alone, game_id=lone.game_id)  # resigns: the computer wins, alone is ejected
    lone.refresh_from_db()
    assert lone.finished and TableSeat.objects.get(table=lone).ejected
    finish_table(pair, users_at(pair))
    rounds.advance(tournament_id=other.pk)
    other.refresh_from_db()
    # One player goes through: the tournament ends with the standings as they are.
    assert other.status == "finished" and Entry.objects.get(tournament=other, user=alone).eliminated_in == 1


@pytest.mark.parametrize("value", ["expert", "EASY", " easy", "off", "computer", 1, None, ["easy"]])
def test_a_bad_computer_fill_is_refused_and_nothing_is_created(olga, pool, value):
    with pytest.raises(InvalidInput, match="computer_fill"):
        open_tournament(organiser=olga, courses=pool, computer_fill=value)
    assert not Tournament.objects.exists()


def test_computers_fill_race_and_arena_tables_only(olga, courses):
    with pytest.raises(InvalidInput, match="Crusher Hall"):
        open_tournament(organiser=olga, courses=[courses["puzzle-crusher-hall"]], table_size=2, computer_fill="easy")
    assert open_tournament(organiser=olga, courses=[courses["gear-dome"]], computer_fill="easy").computer_fill == "easy"


def body(**extra):
    now = timezone.now()
    return {"name": "Autumn Open", "courses": ["cogwheel-crossing"], "table_size": 4,
            "registration_opens": (now - timedelta(hours=1)).isoformat(),
            "registration_closes": (now + timedelta(hours=1)).isoformat(), **extra}


@pytest.mark.parametrize("value", ["expert", "Easy", 3, None, ["easy"], {"strength": "easy"}])
def test_the_api_refuses_a_bad_computer_fill_with_a_clear_400(olga, courses, value):
    answer = client_for(olga).post("/api/tournaments/", body(computer_fill=value), format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"].startswith("computer_fill: ") and not Tournament.objects.exists()


def test_the_api_sets_and_shows_the_fill_and_the_computers_at_the_tables(olga, courses, make_user):
    client = client_for(olga)
    answer = client.post("/api/tournaments/", body(), format="json")
    assert answer.status_code == 201 and answer.json()["computer_fill"] == ""
    answer = client.post("/api/tournaments/", body(name="Filled", computer_fill="hard"), format="json")
    assert answer.status_code == 201 and answer.json()["computer_fill"] == "hard"
    tournament = Tournament.objects.get(pk=answer.json()["id"])
    for user in many_players(make_user, 3):
        assert client_for(user).post(f"/api/tournaments/{tournament.pk}/register/").status_code == 200
    detail = client.post(f"/api/tournaments/{tournament.pk}/start/").json()
    (table,) = detail["rounds"][0]["tables"]
    assert [p["seat"] for p in table["players"]] == [1, 2, 3]
    assert table["computers"] == [{"seat": 4, "player": "Hard Computer 1", "strength": "hard"}]
    assert len(detail["standings"]) == 3


def test_with_the_fill_off_tables_stay_as_they_were(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=4), many_players(make_user, 3))
    assert tournament.computer_fill == ""
    (table,) = current_tables(tournament)
    assert [s.computer for s in game_seats(table)] == ["", "", ""]
    assert Game.objects.get(pk=table.game_id).rated is True
    assert selectors.rounds(tournament=tournament)[0]["tables"][0]["computers"] == []
    byes = started(open_tournament(organiser=olga, courses=pool, table_size=2, name="Byes"),
                   many_players(make_user, 3, prefix="q"))
    assert current_tables(byes)[1].bye and current_tables(byes)[1].game_id is None


def test_a_computer_player_is_never_a_substitute(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=4, computer_fill="easy"),
                         many_players(make_user, 3))
    (table,) = current_tables(tournament)
    computer = game_seats(table)[3].user
    entry = Entry.objects.get(tournament=tournament, user=users_at(table)[0])
    with pytest.raises(InvalidInput, match="computer player"):
        substitutions.replace(user=olga, tournament_id=tournament.pk, entry_id=entry.pk, username=computer.username)
    assert Seat.objects.get(game_id=table.game_id, number=1).user_id == entry.user_id


def test_the_pages_show_the_computers_and_the_form_sets_the_fill(olga, courses, make_user, client):
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=4,
                                         computer_fill="normal"), many_players(make_user, 3))
    client.force_login(olga)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-computer="normal"' in page and "Normal Computer 1" in page and "unrated" in page
    assert "filled with Normal computer players" in page
    assert 'name="computer_fill"' in client.get("/tournaments/new/").content.decode()
    now = timezone.localtime()
    form = {
        "name": "Form Cup", "description": "", "courses": [courses["cogwheel-crossing"].pk], "format": "heats",
        "table_size": 4, "advance": 1, "seeding": "random", "league_rounds": 2, "points": "", "lives": 2,
        "move_minutes": 60, "game_minutes": 600, "timeout_policy": "eject",
        "registration_opens": now.strftime("%Y-%m-%dT%H:%M"),
        "registration_closes": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"), "min_players": 2,
    }
    refused = client.post("/tournaments/new/", {**form, "computer_fill": "impossible"})
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    assert not Tournament.objects.filter(name="Form Cup").exists()
    answer = client.post("/tournaments/new/", {**form, "computer_fill": "hard"})
    assert answer.status_code == 302 and Tournament.objects.get(name="Form Cup").computer_fill == "hard"
    client.post("/tournaments/new/", {**form, "name": "Plain Cup"})
    assert Tournament.objects.get(name="Plain Cup").computer_fill == ""
    assert Round.objects.filter(tournament__name="Plain Cup").count() == 0
