"""Every tournament rule, through the services (docs/tournaments.md)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Program, Seat
from games.services import lobby, moves, organisers, timeouts
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound
from roboracer.ratings.models import Rating
from roboracer.tournaments import selectors
from roboracer.tournaments.models import Action, Entry, Round, Table, TableSeat, Tournament
from roboracer.tournaments.services import organising, registration, rounds, substitutions, sweeping
from tests.games.factories import legal_program
from tests.helpers import many_players
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


# Creating ----------------------------------------------------------------------------------------------------

def test_only_organisers_create_tournaments(make_user, pool):
    with pytest.raises(NotAllowed):
        open_tournament(organiser=make_user("mallory"), courses=pool)
    assert not Tournament.objects.exists()


def test_the_defaults_are_the_tournament_timers_of_003(olga, pool):
    tournament = open_tournament(organiser=olga, courses=pool)
    assert (tournament.move_time, tournament.game_time) == (3 * 86400, 15 * 86400)
    assert Action.objects.filter(tournament=tournament, kind="created").exists()


@pytest.mark.parametrize(("options", "message"), [
    ({"table_size": 1}, "table_size"), ({"table_size": 9}, "table_size"), ({"advance": 4}, "advance"),
    ({"advance": 0}, "advance"), ({"lives": 0}, "lives"), ({"modules": ["laser-cannon-9000"]}, "modules"),
    ({"min_players": 1}, "min_players"), ({"format": "knockout"}, "format"), ({"seeding": "alphabet"}, "seeding"),
    ({"format": "league", "points": [1, 2, 3, 4, 5]}, "points"), ({"format": "league", "points": []}, "points"), ({"format": "league", "league_rounds": 0}, "league_rounds"),
    ({"format": "league", "points": [1, 2, True, 4]}, "points"), ({"move_time": 5}, "move_time"),
    ({"name": " "}, "name"), ({"name": "x" * 101}, "name"),
])
def test_bad_settings_are_refused_and_nothing_is_created(olga, pool, options, message):
    with pytest.raises(InvalidInput, match=message):
        open_tournament(organiser=olga, courses=pool, **options)
    assert not Tournament.objects.exists()


def test_only_stable_courses_that_seat_a_whole_table_join_the_pool(olga, courses):
    course = courses["bolt-bay"]  # 2 to 4 players
    with pytest.raises(InvalidInput, match="Bolt Bay"):
        open_tournament(organiser=olga, courses=[course], table_size=6)
    course.state = "development"
    course.save()
    with pytest.raises(InvalidInput, match="stable"):
        open_tournament(organiser=olga, courses=[course], table_size=4)


def test_the_registration_window_must_close_after_it_opens(olga, pool):
    now = timezone.now()
    with pytest.raises(InvalidInput, match="registration_closes"):
        open_tournament(organiser=olga, courses=pool, registration_opens=now, registration_closes=now)


# Registration ------------------------------------------------------------------------------------------------

def test_registration_only_inside_the_window(olga, pool, make_user):
    ann = make_user("ann")
    now = timezone.now()
    early = open_tournament(organiser=olga, courses=pool, registration_opens=now + timedelta(hours=1),
                            registration_closes=now + timedelta(hours=2))
    with pytest.raises(Conflict, match="not opened"):
        registration.register(user=ann, tournament_id=early.pk)
    late = open_tournament(organiser=olga, courses=pool, registration_opens=now - timedelta(hours=2),
                           registration_closes=now - timedelta(seconds=1))
    with pytest.raises(Conflict, match="closed"):
        registration.register(user=ann, tournament_id=late.pk)
    assert not Entry.objects.exists()


def test_registering_twice_is_refused_and_a_withdrawn_player_may_come_back(olga, pool, make_user):
    ann = make_user("ann")
    tournament = open_tournament(organiser=olga, courses=pool)
    registration.register(user=ann, tournament_id=tournament.pk)
    with pytest.raises(Conflict, match="already"):
        registration.register(user=ann, tournament_id=tournament.pk)
    registration.withdraw(user=ann, tournament_id=tournament.pk)
    assert Entry.objects.get(user=ann).withdrawn_at is not None
    registration.register(user=ann, tournament_id=tournament.pk)
    assert Entry.objects.get(user=ann).withdrawn_at is None


def test_a_missing_tournament_is_not_found(make_user):
    with pytest.raises(NotFound):
        registration.register(user=make_user("ann"), tournament_id=999999)


def test_too_few_players_cancel_the_tournament_when_registration_closes(olga, pool, make_user):
    tournament = open_tournament(organiser=olga, courses=pool, min_players=3)
    for user in many_players(make_user, 2):
        registration.register(user=user, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now())
    assert rounds.close_registration(tournament_id=tournament.pk) == "cancelled"
    tournament.refresh_from_db()
    assert tournament.status == "cancelled" and not Round.objects.exists() and not Game.objects.exists()
    assert rounds.close_registration(tournament_id=tournament.pk) is None


def test_registration_does_not_close_before_its_time(olga, pool, make_user):
    tournament = open_tournament(organiser=olga, courses=pool)
    for user in many_players(make_user, 3):
        registration.register(user=user, tournament_id=tournament.pk)
    assert rounds.close_registration(tournament_id=tournament.pk) is None
    assert sweeping.sweep() == 0 and not Round.objects.exists()


def test_the_sweep_closes_registration_once_and_seats_round_one(olga, pool, make_user):
    tournament = open_tournament(organiser=olga, courses=pool, table_size=4)
    for user in many_players(make_user, 9):
        registration.register(user=user, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now())
    assert sweeping.sweep() == 1
    assert sweeping.sweep() == 0  # a second run finds it done
    assert rounds.close_registration(tournament_id=tournament.pk) is None
    tables = current_tables(Tournament.objects.get(pk=tournament.pk))
    assert [t.seats.count() for t in tables] == [3, 3, 3]
    assert Round.objects.filter(tournament=tournament).count() == 1
    for table in tables:
        game = table.game
        assert game.status == Game.Status.PROGRAMMING and game.turn == 1 and game.course.slug == "cogwheel-crossing"
        assert (game.move_time, game.game_time, game.timeout_policy) == (3 * 86400, 15 * 86400, "eject")
        assert game.timer_preset == "tournament" and game.lives == 3
        assert [s.user_id for s in game.seats.order_by("number")] == [u.pk for u in users_at(table)]


def test_seeding_by_rating_snakes_the_best_players_across_tables(olga, pool, make_user):
    tournament = open_tournament(organiser=olga, courses=pool, table_size=4, seeding="rating")
    field = many_players(make_user, 8)
    for strength, user in enumerate(reversed(field)):  # p007 is the weakest... p000 the strongest
        Rating.objects.create(user=user, mu=10 + strength * 5, sigma=1)
        # Their RAMbots ratings, the other way round, play no part in a RoboRacer tournament's seeding.
        Rating.objects.create(user=user, kind="rambots", mu=60 - strength * 5, sigma=1)
    started(tournament, field)
    tables = current_tables(tournament)
    assert [u.username for u in users_at(tables[0])] == ["p000", "p003", "p004", "p007"]
    assert [u.username for u in users_at(tables[1])] == ["p001", "p002", "p005", "p006"]


# Heats -------------------------------------------------------------------------------------------------------

def test_heats_top_k_go_through_until_one_final_table(olga, pool, make_user):
    field = many_players(make_user, 16)
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=4, advance=2), field)
    tables = current_tables(tournament)
    assert [t.seats.count() for t in tables] == [4, 4, 4, 4]
    winners = []
    for table in tables:
        order = users_at(table)[::-1]  # the last seat wins, and so on
        finish_table(table, order)
        winners += order[:2]
    assert rounds.advance(tournament_id=tournament.pk).number == 2
    assert rounds.advance(tournament_id=tournament.pk) is None  # exactly once
    out = Entry.objects.filter(tournament=tournament, eliminated_in=1)
    assert out.count() == 8 and not out.filter(user__in=winners).exists()
    tables = current_tables(tournament)
    assert [t.seats.count() for t in tables] == [4, 4]
    assert {u.pk for t in tables for u in users_at(t)} == {u.pk for u in winners}
    finals = []
    for table in tables:
        order = users_at(table)
        finish_table(table, order)
        finals += order[:2]
    rounds.advance(tournament_id=tournament.pk)
    (final,) = current_tables(tournament)
    assert final.round.number == 3 and {u.pk for u in users_at(final)} == {u.pk for u in finals}
    finish_table(final, users_at(final))
    assert rounds.advance(tournament_id=tournament.pk) is None
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    rows = selectors.standings(tournament=tournament)
    assert [r["username"] for r in rows[:4]] == [u.username for u in users_at(final)]
    assert [r["place"] for r in rows] == [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 9, 13, 13, 13, 13]
    assert Round.objects.filter(tournament=tournament).count() == 3


def test_a_round_does_not_advance_while_a_table_plays_or_while_paused(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=4), many_players(make_user, 8))
    first, second = current_tables(tournament)
    finish_table(first, users_at(first))
    assert rounds.advance(tournament_id=tournament.pk) is None
    organising.pause(user=olga, tournament_id=tournament.pk)
    finish_table(second, users_at(second))
    assert rounds.advance(tournament_id=tournament.pk) is None and sweeping.sweep() == 0
    assert Round.objects.filter(tournament=tournament).count() == 1
    organising.resume(user=olga, tournament_id=tournament.pk)
    assert sweeping.sweep() == 1
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_an_ejected_player_takes_the_last_place_and_leaves_the_heats(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=3, advance=2),
                         many_players(make_user, 6))
    first, second = current_tables(tournament)
    a, b, c = users_at(first)
    lobby.leave_game(user=a, game_id=first.game_id)  # resigns: ejected
    TableSeat.objects.filter(table=first).update(ejected=False)
    seat_a = TableSeat.objects.get(table=first, entry__user=a)
    finish_table(first, [b, c, a])
    seat_a.refresh_from_db()
    assert seat_a.ejected and seat_a.place == 3
    # Ranked second by the game, the ejected player still takes the last place, and z goes through with k=2.
    x, y, z = users_at(second)
    lobby.leave_game(user=y, game_id=second.game_id)
    finish_table(second, [x, y, z])
    assert TableSeat.objects.get(table=second, entry__user=y).place == 3
    rounds.advance(tournament_id=tournament.pk)
    assert set(Entry.objects.filter(eliminated_in=1).values_list("user__username", flat=True)) == {
        a.username, y.username}


def test_a_real_game_finishing_records_its_table(olga, courses, make_user):
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=3),
                         many_players(make_user, 3))
    (table,) = current_tables(tournament)
    a, b, c = users_at(table)
    lobby.leave_game(user=b, game_id=table.game_id)
    lobby.leave_game(user=c, game_id=table.game_id)  # a is left alone: the game ends, a wins
    table.refresh_from_db()
    assert table.finished and Game.objects.get(pk=table.game_id).status == Game.Status.FINISHED
    places = dict(TableSeat.objects.filter(table=table).values_list("entry__user__username", "place"))
    assert places[a.username] == 1 and sorted(places.values()) == [1, 2, 3]
    rounds.advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert selectors.standings(tournament=tournament)[0]["username"] == a.username


def test_games_outside_tournaments_are_left_alone(courses, make_user):
    a, b = make_user("a"), make_user("b")
    game = organisers.create_seated_game(creator=a, users=[a, b], course=courses["tiny-yard"])
    lobby.leave_game(user=b, game_id=game.pk)
    assert not Table.objects.exists()


# League ------------------------------------------------------------------------------------------------------

def test_league_points_swiss_reseating_and_tie_breaks(olga, pool, make_user):
    field = many_players(make_user, 8)
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=4, format="league",
                                         league_rounds=2, points=[5, 3, 1, 0]), field)
    t1, t2 = current_tables(tournament)
    o1, o2 = users_at(t1), users_at(t2)
    finish_table(t1, o1)
    finish_table(t2, o2)
    assert rounds.advance(tournament_id=tournament.pk).number == 2
    rows = selectors.standings(tournament=tournament)
    assert [r["points"] for r in rows] == [5, 5, 3, 3, 1, 1, 0, 0]
    # Round 2: the two winners and the two seconds at table 1 (Swiss: close points together).
    n1, n2 = current_tables(tournament)
    assert {u.pk for u in users_at(n1)} == {o1[0].pk, o2[0].pk, o1[1].pk, o2[1].pk}
    r2 = [o1[1], o2[0], o1[0], o2[1]]
    finish_table(n1, r2)
    finish_table(n2, users_at(n2))
    assert rounds.advance(tournament_id=tournament.pk) is None
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    rows = selectors.standings(tournament=tournament)
    top = {r["username"]: r for r in rows[:4]}
    # o2[0]: 5 + 3 = 8; o1[1]: 3 + 5 = 8: the points of the opponents they met break the tie (their places
    # and ratings are equal), or they share first place; o1[0] (5 + 1) is third on points alone.
    assert {rows[0]["username"], rows[1]["username"]} == {o2[0].username, o1[1].username}
    assert rows[0]["points"] == rows[1]["points"] == 8
    assert rows[0]["opponents_points"] >= rows[1]["opponents_points"]
    second = 2 if rows[0]["opponents_points"] > rows[1]["opponents_points"] else 1
    assert [r["place"] for r in rows[:3]] == [1, second, 3] and rows[2]["username"] == o1[0].username
    points = {r["username"]: r["points"] for r in rows}
    for row in rows[:2]:  # opponents' points: the sum, over each table played, of the others' totals
        met = [u.username for t in (t1, t2, n1, n2) for u in users_at(t) if row["username"] in
               {v.username for v in users_at(t)} and u.username != row["username"]]
        assert row["opponents_points"] == sum(points[name] for name in met)
    assert top[o1[0].username]["points"] == 6


def test_league_ties_fall_to_best_places_then_rating(olga, pool, make_user):
    field = many_players(make_user, 4)
    Rating.objects.create(user=field[3], mu=40, sigma=1)
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=2, format="league",
                                         league_rounds=1, points=[1, 1]), field)
    for table in current_tables(tournament):
        finish_table(table, users_at(table))
    rounds.advance(tournament_id=tournament.pk)
    rows = selectors.standings(tournament=tournament)
    # Everyone has 1 point and 1 opponent point: the two winners first, the rated winner ahead.
    firsts = {u.username for t in current_tables(tournament) for u in users_at(t)[:1]}
    assert {r["username"] for r in rows[:2]} == firsts
    assert rows[0]["places"] == [1]


def test_a_bye_at_tables_of_two_scores_a_win(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=2, format="league",
                                         league_rounds=1, points=[2, 0]), many_players(make_user, 5))
    tables = current_tables(tournament)
    assert [t.seats.count() for t in tables] == [2, 2, 1] and tables[2].bye and tables[2].game is None
    assert tables[2].seats.get().points == 2


# Leaving -----------------------------------------------------------------------------------------------------

def test_a_player_who_withdraws_mid_game_resigns_and_takes_the_last_place(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=4, format="league",
                                         league_rounds=2), many_players(make_user, 4))
    (table,) = current_tables(tournament)
    a, b, c, d = users_at(table)
    registration.withdraw(user=b, tournament_id=tournament.pk)
    assert Seat.objects.get(game=table.game, user=b).ejected_at is not None
    finish_table(table, [b, a, c, d])  # even if the game ranked b first
    assert TableSeat.objects.get(table=table, entry__user=b).place == 4
    assert rounds.advance(tournament_id=tournament.pk).number == 2
    (table,) = current_tables(tournament)
    assert b not in users_at(table) and len(users_at(table)) == 3
    with pytest.raises(NotFound):
        registration.withdraw(user=b, tournament_id=tournament.pk)


# Organiser actions -------------------------------------------------------------------------------------------

def test_organiser_actions_belong_to_the_organiser(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool), many_players(make_user, 2))
    stranger = make_user("mallory")
    entry = Entry.objects.filter(tournament=tournament).first()
    for action in (lambda u: organising.pause(user=u, tournament_id=tournament.pk),
                   lambda u: organising.end(user=u, tournament_id=tournament.pk),
                   lambda u: organising.extend(user=u, tournament_id=tournament.pk, seconds=3600),
                   lambda u: organising.disqualify(user=u, tournament_id=tournament.pk, entry_id=entry.pk)):
        with pytest.raises(NotFound):
            action(stranger)
    tournament.refresh_from_db()
    assert tournament.status == "running" and Entry.objects.get(pk=entry.pk).disqualified_at is None


def test_pause_and_resume_are_logged_and_checked(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool), many_players(make_user, 2))
    with pytest.raises(Conflict):
        organising.resume(user=olga, tournament_id=tournament.pk)
    organising.pause(user=olga, tournament_id=tournament.pk)
    with pytest.raises(Conflict):
        organising.pause(user=olga, tournament_id=tournament.pk)
    organising.resume(user=olga, tournament_id=tournament.pk)
    kinds = list(Action.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert kinds[-2:] == ["paused", "resumed"]


def test_disqualify_ejects_the_player_and_puts_them_last(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=3, advance=1),
                         many_players(make_user, 3))
    (table,) = current_tables(tournament)
    a, b, c = users_at(table)
    entry = Entry.objects.get(tournament=tournament, user=a)
    organising.disqualify(user=olga, tournament_id=tournament.pk, entry_id=entry.pk, reason="bot farm")
    assert Seat.objects.get(game=table.game, user=a).ejected_at is not None
    with pytest.raises(Conflict):
        organising.disqualify(user=olga, tournament_id=tournament.pk, entry_id=entry.pk)
    assert "bot farm" in Action.objects.filter(kind="disqualified").get().text
    rows = selectors.standings(tournament=tournament)
    assert rows[-1]["username"] == a.username and rows[-1]["status"] == "disqualified"


def test_replace_a_player_before_their_first_move_only(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=3), many_players(make_user, 3))
    (table,) = current_tables(tournament)
    a, b, c = users_at(table)
    sub, sub2 = make_user("sub"), make_user("sub2")
    entry_a = Entry.objects.get(tournament=tournament, user=a)
    entry_b = Entry.objects.get(tournament=tournament, user=b)
    game = Game.objects.get(pk=table.game_id)
    moves.submit_program(user=b, game_id=game.pk, turn=1, chips=legal_program(game, b))
    with pytest.raises(Conflict, match="first move"):
        substitutions.replace(user=olga, tournament_id=tournament.pk, entry_id=entry_b.pk, username="sub")
    with pytest.raises(InvalidInput):
        substitutions.replace(user=olga, tournament_id=tournament.pk, entry_id=entry_a.pk, username="nobody")
    with pytest.raises(Conflict):
        substitutions.replace(user=olga, tournament_id=tournament.pk, entry_id=entry_a.pk, username=c.username)
    invitation = substitutions.replace(user=olga, tournament_id=tournament.pk, entry_id=entry_a.pk, username="SUB")
    assert Seat.objects.get(game=game, number=1).user == a  # the seat is a's until the invitee accepts
    new = substitutions.accept_substitution(user=sub, substitution_id=invitation.pk)
    assert new.user == sub and Seat.objects.get(game=game, number=1).user == sub
    assert TableSeat.objects.get(table=table, seat=1).entry == new
    entry_a.refresh_from_db()
    assert entry_a.replaced_by == new and selectors.entry_status(entry_a) == "replaced"
    assert not Program.objects.filter(seat__game=game, seat__user=a).exists()
    # the substitute plays the seat's hand
    game.refresh_from_db()
    moves.submit_program(user=sub, game_id=game.pk, turn=1, chips=legal_program(game, sub))
    with pytest.raises(Conflict):
        substitutions.replace(user=olga, tournament_id=tournament.pk, entry_id=new.pk, username="sub2")
    assert sub2 not in [s.user for s in game.seats.all()]


def test_extend_adds_game_time_to_the_running_games(olga, pool, make_user):
    tournament = started(open_tournament(organiser=olga, courses=pool, table_size=2), many_players(make_user, 4))
    before = {s.pk: (s.game_left, s.deadline) for s in Seat.objects.all()}
    with pytest.raises(InvalidInput):
        organising.extend(user=olga, tournament_id=tournament.pk, seconds=10)
    assert organising.extend(user=olga, tournament_id=tournament.pk, seconds=86400) == 2
    for seat in Seat.objects.all():
        left, deadline = before[seat.pk]
        assert seat.game_left == left + 86400 and seat.deadline == deadline + timedelta(days=1)
    assert "1 d" in Action.objects.filter(kind="extended").get().text


def test_end_finishes_a_running_tournament_and_cancels_an_open_one(olga, pool, make_user):
    running = started(open_tournament(organiser=olga, courses=pool), many_players(make_user, 2))
    organising.end(user=olga, tournament_id=running.pk)
    running.refresh_from_db()
    assert running.status == "finished" and not Round.objects.filter(status="running").exists()
    with pytest.raises(Conflict):
        organising.end(user=olga, tournament_id=running.pk)
    opened = open_tournament(organiser=olga, courses=pool)
    organising.end(user=olga, tournament_id=opened.pk)
    opened.refresh_from_db()
    assert opened.status == "cancelled"


def test_a_player_ejected_for_time_takes_the_last_place_and_leaves(olga, courses, make_user):
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=4, advance=2,
                                         timeout_policy="eject"), many_players(make_user, 4))
    (table,) = current_tables(tournament)
    slow, a, b, c = users_at(table)
    Seat.objects.filter(game=table.game, user=slow).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeouts.enforce_deadline(game_id=table.game_id) == "ejected"
    for user in (b, c):  # two resign later; a is left and wins
        lobby.leave_game(user=user, game_id=table.game_id)
    places = dict(TableSeat.objects.filter(table=table).values_list("entry__user__username", "place"))
    assert places[a.username] == 1 and places[slow.username] in (2, 3, 4)
    assert TableSeat.objects.get(table=table, entry__user=slow).ejected
    rounds.advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == "finished"  # one table: the final


def test_the_sweep_records_a_finished_game_whose_table_was_missed_and_advances(olga, courses, make_user):
    tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2),
                         many_players(make_user, 4))
    first, second = current_tables(tournament)
    for table in (first, second):
        lobby.leave_game(user=users_at(table)[1], game_id=table.game_id)
    # As if the receiver's work had been lost: the table has no places, and the round has not advanced.
    Table.objects.filter(pk=second.pk).update(finished=False)
    TableSeat.objects.filter(table=second).update(place=None)
    Round.objects.filter(tournament=tournament, number=2).delete()
    Round.objects.filter(tournament=tournament, number=1).update(status="running")
    assert sweeping.sweep() >= 1
    assert TableSeat.objects.get(table=second, entry__user=users_at(second)[0]).place == 1
    assert Round.objects.filter(tournament=tournament, number=2).count() == 1


def test_a_player_disqualified_during_registration_is_not_seated(olga, pool, make_user):
    tournament = open_tournament(organiser=olga, courses=pool, table_size=2)
    field = many_players(make_user, 3)
    for user in field:
        registration.register(user=user, tournament_id=tournament.pk)
    cheat = Entry.objects.get(tournament=tournament, user=field[0])
    organising.disqualify(user=olga, tournament_id=tournament.pk, entry_id=cheat.pk)
    assert selectors.summary(tournament=tournament)["players"] == 2
    assert organising.start_now(user=olga, tournament_id=tournament.pk) == "started"
    (table,) = current_tables(Tournament.objects.get(pk=tournament.pk))
    assert field[0] not in users_at(table) and len(users_at(table)) == 2
