"""No rating for a player who never moved (issue 33 item 16; docs/ratings.md "Aborted games"): a seat ejected or
resigned before its first program is left out of the rating update, and with fewer than two seats that moved the
game is `aborted`, unrated for everyone. Tournament tables and Pyramid challenges keep their outcomes."""

import re
from datetime import timedelta

from django.utils import timezone

from games.models import Game, Hand
from games.selectors import rated
from games.services import lobby, moves, organisers, timeouts, turns
from roboracer.pyramid import services as pyramid_services
from roboracer.pyramid.models import Challenge
from roboracer.ratings import selectors
from roboracer.ratings.models import DEFAULT_MU, Rating, RatingChange
from roboracer.tournaments.models import TableSeat
from tests.pyramid import factories as pyramid_factories
from tests.ratings.helpers import HAND, finish
from tests.tournaments.factories import current_tables, open_tournament, organiser, started, users_at

PLAYERS = ("ann", "ben", "cat", "dan")  # the `players` fixture (tests/conftest.py)


def test_a_seat_ejected_before_its_first_program_is_left_out(courses, players):
    ann, ben, cat = players[:3]
    game = organisers.create_seated_game(creator=ann, users=[ann, ben, cat], course=courses["tiny-yard"], lives=1)
    lobby.leave_game(user=cat, game_id=game.pk)  # cat resigns before any program: ejected, never moved
    for seat in game.seats.filter(number__in=(1, 2)):
        Hand.objects.filter(seat=seat, turn=1).update(chips=HAND)
    moves.submit_program(user=ann, game_id=game.pk, turn=1, chips=["B", "L", "R", "L", "R"])  # off the edge
    moves.submit_program(user=ben, game_id=game.pk, turn=1, chips=["L", "R", "L", "R", "U"])
    turns.resolve_turn(game_id=game.pk, turn=1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user_id == ben.pk
    assert game.aborted is False and rated.is_rated(game=game)
    assert set(RatingChange.objects.filter(game=game).values_list("user_id", flat=True)) == {ann.pk, ben.pk}
    assert Rating.objects.get(user=ben).mu > DEFAULT_MU > Rating.objects.get(user=ann).mu
    assert not Rating.objects.filter(user=cat).exists()  # cat's rating stays the default, no game counted
    assert selectors.rating_of(user=cat, kind="roboracer")["rated_games"] == 0


def test_a_two_seat_game_one_never_moved_is_aborted_and_unrated(courses, players, client):
    ann, ben = players[:2]
    game = organisers.create_seated_game(creator=ann, users=[ann, ben], course=courses["tiny-yard"], lives=1)
    Hand.objects.filter(seat__game=game, seat__number=1, turn=1).update(chips=HAND)
    moves.submit_program(user=ann, game_id=game.pk, turn=1, chips=["L", "R", "L", "R", "U"])
    lobby.leave_game(user=ben, game_id=game.pk)  # ben resigns without a program: ann wins
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user_id == ann.pk
    assert game.aborted is True and rated.is_rated(game=game) is False
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(user__in=[ann, ben]).exclude(mu=DEFAULT_MU).exists()
    client.force_login(ann)
    body = client.get(f"/api/games/{game.pk}/").json()
    assert body["aborted"] is True and body["rated"] is False
    assert all(seat.get("rating_change") is None for seat in body["seats"])


def test_a_game_where_both_moved_is_not_aborted(courses, players, client):
    from tests.ratings.helpers import played

    game = played(users=players[:2], course=courses["tiny-yard"])
    assert game.aborted is False and RatingChange.objects.filter(game=game).count() == 2
    client.force_login(players[0])
    assert client.get(f"/api/games/{game.pk}/").json()["aborted"] is False


def test_a_tournament_table_with_a_never_moving_seat_records_its_places(courses, make_user):
    field = [make_user("tia"), make_user("tom")]
    tournament = started(open_tournament(organiser=organiser(make_user), courses=[courses["tiny-yard"]]), field)
    (table,) = current_tables(tournament)
    first, second = users_at(table)
    lobby.leave_game(user=first, game_id=table.game_id)  # never moved: the game ends, `second` wins
    table.refresh_from_db()
    game = Game.objects.get(pk=table.game_id)
    assert game.status == Game.Status.FINISHED and game.winner.user_id == second.pk
    assert game.aborted is True and not RatingChange.objects.filter(game=game).exists()
    assert table.finished
    places = dict(TableSeat.objects.filter(table=table).values_list("entry__user_id", "place"))
    assert places == {second.pk: 1, first.pk: 2}


def test_a_pyramid_challenge_forfeited_by_a_never_moving_defender_keeps_its_outcome_unrated(courses, players):
    ann, ben = players[:2]
    pyr = pyramid_factories.pyramid(courses=courses)
    pyramid_factories.place(pyr, ann, 1, 1)
    pyramid_factories.place(pyr, ben, 2, 1)
    challenge = pyramid_services.create_challenge(user=ben, slug=pyr.slug, player="ann")
    game = Game.objects.get(pk=challenge.game_id)
    seat = game.seats.get(user=ben)
    Hand.objects.filter(seat=seat, turn=1).update(chips=HAND)
    moves.submit_program(user=ben, game_id=game.pk, turn=1, chips=["L", "R", "L", "R", "U"])
    later = timezone.now() + timedelta(days=20)
    assert timeouts.enforce_deadline(game_id=game.pk, now=later) == "ejected"  # ann never played: forfeit
    game.refresh_from_db()
    challenge.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user_id == ben.pk
    assert challenge.status == Challenge.Status.CHALLENGER_WON
    assert challenge.challenger_to == [1, 1] and challenge.defender_to == [2, 1]
    assert game.aborted is True and not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(user__in=[ann, ben]).exists()


def test_finish_helper_still_rates_three_movers(courses, players):
    """Control: when every seat moved, all three are rated as before."""
    game = organisers.create_seated_game(creator=players[0], users=players[:3], course=courses["tiny-yard"], lives=1)
    game = finish(game, losers=(1, 2))
    assert game.aborted is False and RatingChange.objects.filter(game=game).count() == 3


def test_the_player_page_lists_an_aborted_game_as_aborted_not_unrated(courses, players, client):
    ann, ben = players[:2]
    aborted = organisers.create_seated_game(creator=ann, users=[ann, ben], course=courses["tiny-yard"], lives=1)
    lobby.leave_game(user=ben, game_id=aborted.pk)  # nobody moved: aborted
    unrated = organisers.create_seated_game(creator=ann, users=[ann, ben], course=courses["tiny-yard"], lives=1,
                                          rated=False)
    for seat in unrated.seats.all():
        Hand.objects.filter(seat=seat, turn=1).update(chips=HAND)
    moves.submit_program(user=ann, game_id=unrated.pk, turn=1, chips=["L", "R", "L", "R", "U"])
    moves.submit_program(user=ben, game_id=unrated.pk, turn=1, chips=["B", "L", "R", "L", "R"])
    turns.resolve_turn(game_id=unrated.pk, turn=1)
    unrated.refresh_from_db()
    assert unrated.status == Game.Status.FINISHED and not unrated.aborted
    client.force_login(ann)
    html = client.get("/players/ann/").content.decode()

    def rating_cell(game):
        row = re.search(rf'<tr data-game-id="{game.pk}">(.*?)</tr>', html, re.S).group(1)
        return re.sub(r"<[^>]+>", "", re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[-1]).strip()

    assert rating_cell(aborted) == "aborted"
    assert rating_cell(unrated) == "unrated"
    rows = {row["game"]: row for row in client.get("/api/players/ann/").json()["games"]["results"]}
    assert rows[aborted.pk]["aborted"] is True and rows[aborted.pk]["rated"] is False
    assert rows[unrated.pk]["aborted"] is False
