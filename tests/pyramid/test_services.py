"""Every rule of the Pyramid (docs/pyramid.md) through its services, with real games played to their end."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Hand, Notice
from games.services import moves, timeouts, turns
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound
from roboracer.courses.models import Course
from roboracer.pyramid import selectors, services
from roboracer.pyramid.models import Challenge, Entry, Place
from tests.pyramid.factories import BACK_OFF, HAND, STAY, place, play_out, pyramid, submit_turn_one


@pytest.fixture
def pyr(courses):
    return pyramid(courses=courses)


@pytest.fixture
def users(db, django_user_model):
    # No passwords: these players never log in, and hashing ten passwords is most of a test's time.
    names = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")
    return [django_user_model.objects.create(username=name) for name in names]


def ranks(pyr) -> dict[str, tuple[int, int]]:
    return {p.user.username: p.rank for p in Place.objects.filter(pyramid=pyr).select_related("user")}


def points(pyr) -> dict[str, int]:
    return {p.user.username: p.points for p in Place.objects.filter(pyramid=pyr).select_related("user")}


# Joining


def test_players_join_at_the_bottom_row_by_row_with_the_starting_points(pyr, users):
    for user in users[:7]:
        services.join_pyramid(user=user, slug=pyr.slug)
    assert ranks(pyr) == {"ann": (1, 1), "ben": (2, 1), "cat": (2, 2), "dan": (3, 1), "eve": (3, 2), "fay": (3, 3),
                          "gus": (4, 1)}
    assert set(points(pyr).values()) == {pyr.starting_points} == {2}
    assert Entry.objects.filter(pyramid=pyr, kind=Entry.Kind.JOINED).count() == 7


def test_joining_twice_is_refused_and_changes_nothing(pyr, users):
    services.join_pyramid(user=users[0], slug=pyr.slug)
    with pytest.raises(Conflict):
        services.join_pyramid(user=users[0], slug=pyr.slug)
    assert Place.objects.filter(pyramid=pyr).count() == 1


def test_a_newcomer_takes_the_first_free_place_of_the_bottom_row_not_a_hole_above(pyr, users):
    # A hole in row 2 (a player removed by staff) stays; the bottom row's free place is taken first.
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 2)
    place(pyr, users[2], 3, 2)
    assert services.join_pyramid(user=users[3], slug=pyr.slug).rank == (3, 1)
    assert services.join_pyramid(user=users[4], slug=pyr.slug).rank == (3, 3)
    assert services.join_pyramid(user=users[5], slug=pyr.slug).rank == (4, 1)


def test_an_unknown_pyramid_is_not_found(users):
    with pytest.raises(NotFound):
        services.join_pyramid(user=users[0], slug="nope")


# Challenging: costs and refusals


@pytest.mark.parametrize(("rows_up", "cost"), [(0, 0), (1, 1), (2, 2), (3, 4), (4, 8)])
def test_a_challenge_costs_by_rows_up_and_starts_a_two_player_game_at_once(pyr, users, rows_up, cost):
    challenger, defender = users[0], users[1]
    place(pyr, challenger, 5, 2, points=8)
    place(pyr, defender, 5 - rows_up, 1)
    challenge = services.create_challenge(user=challenger, slug=pyr.slug, player="ben")
    assert challenge.cost == cost and challenge.status == Challenge.Status.OPEN
    assert points(pyr) == {"ann": 8 - cost, "ben": 2}
    game = Game.objects.get(pk=challenge.game_id)
    assert game.status == Game.Status.PROGRAMMING and game.turn == 1
    assert [(s.number, s.user.username) for s in game.seats.order_by("number")] == [(1, "ann"), (2, "ben")]
    assert game.course.slug == "tiny-yard" and game.lives == 1
    assert (game.move_time, game.game_time) == (3 * 24 * 3600, 15 * 24 * 3600)  # the tournament timers
    assert game.timeout_policy == Game.TimeoutPolicy.EJECT
    # The defender is told, for the bell: who challenged, in which pyramid, and the game (issue 38 item 11).
    (notice,) = Notice.objects.all()
    assert notice.user == defender and notice.kind == "pyramid_challenge" and notice.link == f"/games/{game.pk}/"
    assert notice.text == f"ann challenged you in {pyr.name}: your game {game.pk} is ready"
    assert notice.source == {"pyramid": pyr.pk, "challenge": challenge.pk, "game": game.pk}


def test_more_than_four_rows_up_is_refused(pyr, users):
    place(pyr, users[0], 6, 1, points=100)
    place(pyr, users[1], 1, 1)
    with pytest.raises(Conflict, match="at most 4 rows up"):
        services.create_challenge(user=users[0], slug=pyr.slug, player="ben")
    assert not Challenge.objects.exists() and not Game.objects.exists() and points(pyr)["ann"] == 100


@pytest.mark.parametrize(("mine", "theirs"), [((2, 1), (3, 1)), ((3, 1), (3, 2))])
def test_challenging_a_player_below_or_to_the_right_is_refused(pyr, users, mine, theirs):
    place(pyr, users[0], *mine)
    place(pyr, users[1], *theirs)
    with pytest.raises(Conflict, match="only challenge a player above you"):
        services.create_challenge(user=users[0], slug=pyr.slug, player="ben")
    assert not Game.objects.exists()


def test_refusals_change_nothing(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 3, 1, points=1)
    place(pyr, users[2], 3, 2, points=2)
    with pytest.raises(InvalidInput):
        services.create_challenge(user=users[1], slug=pyr.slug, player="ben")  # yourself
    with pytest.raises(Conflict, match="costs 2 points; you have 1"):
        services.create_challenge(user=users[1], slug=pyr.slug, player="ann")  # 2 rows up
    with pytest.raises(NotAllowed):
        services.create_challenge(user=users[5], slug=pyr.slug, player="ann")  # not in the pyramid
    with pytest.raises(NotFound):
        services.create_challenge(user=users[1], slug=pyr.slug, player="fay")  # not in the pyramid
    with pytest.raises(NotFound):
        services.create_challenge(user=users[1], slug=pyr.slug, player="名前\x00")
    with pytest.raises(NotFound):
        services.create_challenge(user=users[1], slug="other", player="ann")
    assert not Challenge.objects.exists() and not Game.objects.exists()
    assert points(pyr) == {"ann": 2, "ben": 1, "cat": 2}


def test_one_open_challenge_of_your_own_at_a_time(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    place(pyr, users[2], 2, 2)
    first = services.create_challenge(user=users[2], slug=pyr.slug, player="ben")
    with pytest.raises(Conflict, match="already have an open challenge"):
        services.create_challenge(user=users[2], slug=pyr.slug, player="ann")
    play_out(Game.objects.get(pk=first.game_id), winner=2)
    # Once it is over, the next one may be made.
    assert services.create_challenge(user=users[2], slug=pyr.slug, player="ann").cost == 1


def test_a_player_defends_at_most_max_defences_challenges_at_once(pyr, users):
    place(pyr, users[0], 1, 1)
    for i, user in enumerate(users[1:4]):
        place(pyr, user, 2 if i < 1 else 3, 1 if i < 2 else 2)
    # ben (2,1), cat (3,1), dan (3,2): each challenges ann; the third is refused (the limit is 2).
    services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    services.create_challenge(user=users[2], slug=pyr.slug, player="ann")
    with pytest.raises(Conflict, match="already defending 2"):
        services.create_challenge(user=users[3], slug=pyr.slug, player="ann")
    assert points(pyr)["dan"] == 2 and Challenge.objects.count() == 2


def test_a_player_who_was_challenged_cannot_challenge_back_meanwhile(pyr, users):
    place(pyr, users[0], 2, 1)
    place(pyr, users[1], 2, 2)
    services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    # ann is above ben, so she could not challenge him anyway; a player above her is fine.
    place(pyr, users[2], 1, 1)
    assert services.create_challenge(user=users[0], slug=pyr.slug, player="cat").cost == 1


def test_no_course_in_the_pool_is_refused(pyr, users, courses):
    pyr.courses.set([courses["tiny-yard"]])
    Course.objects.filter(slug="tiny-yard").update(state=Course.State.DEVELOPMENT)
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 1 + 1, 1)
    with pytest.raises(Conflict, match="no stable course"):
        services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    assert points(pyr)["ben"] == 2 and not Game.objects.exists()


def test_the_course_is_drawn_from_the_pool_of_stable_two_player_courses(pyr, users, courses):
    pyr.courses.set([courses["tiny-yard"], courses["bolt-bay"]])
    assert [c.slug for c in selectors.course_pool(pyramid=pyr)] == ["bolt-bay", "tiny-yard"]
    pyr.courses.clear()  # an empty pool: every stable bundled course for 2 that a RoboRacer race or arena is on
    pool = {c.slug for c in selectors.course_pool(pyramid=pyr)}
    assert pool == {slug for slug, c in courses.items() if c.min_players <= 2 <= c.max_players
                    and c.data.get("mode", "race") != "puzzle" and "roboracer" in c.data.get("rulesets", ["roboracer"])}
    assert "puzzle-crusher-hall" not in pool and "classic-express-yard" not in pool  # issue 33 items 5, 6
    pyr.courses.set([courses["tiny-yard"], courses["bolt-bay"]])
    drawn = {services.draw_course(pyramid=pyr).slug for _ in range(60)}
    assert drawn == {"tiny-yard", "bolt-bay"}  # 60 draws miss one of two with odds 2^-59


# Results


def test_when_the_challenger_wins_the_two_swap_places(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    place(pyr, users[2], 3, 3)
    challenge = services.create_challenge(user=users[2], slug=pyr.slug, player="ann")  # 2 rows up: 2 points
    play_out(Game.objects.get(pk=challenge.game_id), winner=1)
    assert ranks(pyr) == {"cat": (1, 1), "ben": (2, 1), "ann": (3, 3)}
    assert points(pyr) == {"ann": 2, "ben": 2, "cat": 0}
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.CHALLENGER_WON
    assert (challenge.challenger_from, challenge.challenger_to) == ([3, 3], [1, 1])
    assert (challenge.defender_from, challenge.defender_to) == ([1, 1], [3, 3])
    assert Entry.objects.filter(kind=Entry.Kind.SWAPPED, challenge=challenge).count() == 1


def test_when_the_defender_wins_the_defender_earns_a_point_and_nobody_moves(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 2)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    play_out(Game.objects.get(pk=challenge.game_id), winner=2)
    assert ranks(pyr) == {"ann": (1, 1), "ben": (2, 2)}
    assert points(pyr) == {"ann": 3, "ben": 1}
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.DEFENDER_WON and challenge.points_change == 1


def test_a_game_with_no_winner_changes_no_places_and_no_points(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 2)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    play_out(Game.objects.get(pk=challenge.game_id), winner=None)
    game = Game.objects.get(pk=challenge.game_id)
    assert game.status == Game.Status.FINISHED and game.winner is None
    assert ranks(pyr) == {"ann": (1, 1), "ben": (2, 2)} and points(pyr) == {"ann": 2, "ben": 1}
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.NO_WINNER


def test_places_change_once_even_if_the_turn_task_runs_again(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    game = Game.objects.get(pk=challenge.game_id)
    play_out(game, winner=1)
    assert turns.resolve_turn(game_id=game.pk, turn=1) is None  # a redelivered task
    game.refresh_from_db()
    assert services.finish_challenge(game=game) is None  # the receiver heard twice
    assert ranks(pyr) == {"ben": (1, 1), "ann": (2, 1)}


def test_a_challenger_who_climbed_above_the_defender_meanwhile_does_not_swap_back(pyr, users):
    # eve (3,2) challenges dan (3,1); meanwhile eve... cannot: one challenge of her own. So: dan is challenged
    # by eve, and dan climbs first by beating ben; eve then beats dan, who is above her: the swap follows dan.
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    place(pyr, users[2], 2, 2)
    place(pyr, users[3], 3, 1)
    place(pyr, users[4], 3, 2)
    by_eve = services.create_challenge(user=users[4], slug=pyr.slug, player="dan")
    by_dan = services.create_challenge(user=users[3], slug=pyr.slug, player="ben")
    play_out(Game.objects.get(pk=by_dan.game_id), winner=1)
    assert ranks(pyr)["dan"] == (2, 1)
    play_out(Game.objects.get(pk=by_eve.game_id), winner=1)
    # The winner takes the loser's place as it is now (docs/pyramid.md): eve climbs to row 2.
    assert ranks(pyr) == {"ann": (1, 1), "eve": (2, 1), "cat": (2, 2), "ben": (3, 1), "dan": (3, 2)}


def test_a_challenge_whose_challenger_fell_below_nothing_moves(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    place(pyr, users[2], 2, 2)
    by_cat = services.create_challenge(user=users[2], slug=pyr.slug, player="ben")  # cat (2,2) → ben (2,1)
    by_ben = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")  # ben (2,1) → ann (1,1)
    play_out(Game.objects.get(pk=by_ben.game_id), winner=1)  # ben to (1,1), ann to (2,1)
    play_out(Game.objects.get(pk=by_cat.game_id), winner=1)  # cat beat ben, who is above: swap
    assert ranks(pyr) == {"cat": (1, 1), "ann": (2, 1), "ben": (2, 2)}


def test_a_defender_who_does_not_play_in_time_is_ejected_and_loses(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    game = Game.objects.get(pk=challenge.game_id)
    seat = game.seats.get(number=1)
    Hand.objects.filter(seat=seat, turn=1).update(chips=HAND)
    moves.submit_program(user=users[1], game_id=game.pk, turn=1, chips=STAY)
    later = timezone.now() + timedelta(days=20)
    assert timeouts.enforce_deadline(game_id=game.pk, now=later) == "ejected"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user == users[1]
    assert ranks(pyr) == {"ben": (1, 1), "ann": (2, 1)}


# Revoking


@pytest.mark.parametrize(("rows_up", "cost", "refund"), [(1, 1, 0), (2, 2, 1), (3, 4, 2), (4, 8, 4)])
def test_revoking_refunds_half_the_cost_rounded_down_and_cancels_the_game(pyr, users, rows_up, cost, refund):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 1 + rows_up, 1, points=8)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    services.revoke_challenge(user=users[1], slug=pyr.slug, challenge_id=challenge.pk)
    assert points(pyr)["ben"] == 8 - cost + refund
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.REVOKED and challenge.points_change == refund
    game = Game.objects.get(pk=challenge.game_id)
    assert game.status == Game.Status.CANCELLED
    assert not game.seats.filter(deadline__isnull=False).exists()
    assert game.events.filter(kind="game_cancelled").count() == 1
    # Revoked, it is no longer open: another challenge may be made, and revoking again is refused.
    with pytest.raises(Conflict):
        services.revoke_challenge(user=users[1], slug=pyr.slug, challenge_id=challenge.pk)
    assert ranks(pyr) == {"ann": (1, 1), "ben": (1 + rows_up, 1)}


def test_revoking_a_free_challenge_costs_a_point(pyr, users):
    place(pyr, users[0], 2, 1)
    place(pyr, users[1], 2, 2, points=2)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    services.revoke_challenge(user=users[1], slug=pyr.slug, challenge_id=challenge.pk)
    assert points(pyr)["ben"] == 1
    challenge.refresh_from_db()
    assert challenge.points_change == -1


def test_a_player_with_no_points_may_not_revoke_a_free_challenge(pyr, users):
    place(pyr, users[0], 2, 1)
    place(pyr, users[1], 2, 2, points=0)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    with pytest.raises(Conflict, match="costs 1 point; you have none"):
        services.revoke_challenge(user=users[1], slug=pyr.slug, challenge_id=challenge.pk)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.OPEN and points(pyr)["ben"] == 0
    assert Game.objects.get(pk=challenge.game_id).status == Game.Status.PROGRAMMING


def test_a_challenge_is_pending_until_the_defenders_first_program(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    game = Game.objects.get(pk=challenge.game_id)
    # The challenger's own program does not end it; the defender's does.
    Hand.objects.filter(seat__game=game).update(chips=HAND)
    moves.submit_program(user=users[1], game_id=game.pk, turn=1, chips=STAY)
    state = selectors.pyramid_state(pyramid=pyr, user=users[1])
    assert state["challenges"][0]["pending"] is True
    moves.submit_program(user=users[0], game_id=game.pk, turn=1, chips=BACK_OFF)
    assert selectors.pyramid_state(pyramid=pyr, user=users[1])["challenges"][0]["pending"] is False
    with pytest.raises(Conflict, match="already played"):
        services.revoke_challenge(user=users[1], slug=pyr.slug, challenge_id=challenge.pk)
    assert points(pyr)["ben"] == 1


def test_someone_elses_challenge_cannot_be_revoked_and_looks_missing(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    for user in (users[0], users[2]):  # the defender, a stranger
        with pytest.raises(NotFound, match=f"challenge {challenge.pk} does not exist"):
            services.revoke_challenge(user=user, slug=pyr.slug, challenge_id=challenge.pk)
    with pytest.raises(NotFound, match="challenge 999999 does not exist"):
        services.revoke_challenge(user=users[1], slug=pyr.slug, challenge_id=999999)
    assert Challenge.objects.get().status == Challenge.Status.OPEN


def test_a_revoked_games_end_changes_nothing(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    challenge = services.create_challenge(user=users[1], slug=pyr.slug, player="ann")
    services.revoke_challenge(user=users[1], slug=pyr.slug, challenge_id=challenge.pk)
    with pytest.raises(Conflict):
        submit_turn_one(Game.objects.get(pk=challenge.game_id), {1: STAY, 2: BACK_OFF})
    assert ranks(pyr) == {"ann": (1, 1), "ben": (2, 1)}


# The page's view of it


def test_the_state_offers_challenges_with_their_costs_and_says_why_not(pyr, users):
    place(pyr, users[0], 1, 1)
    place(pyr, users[1], 2, 1)
    place(pyr, users[2], 2, 2, points=0)
    place(pyr, users[3], 3, 1)
    state = selectors.pyramid_state(pyramid=pyr, user=users[2])
    cells = {cell["username"]: cell for row in state["rows"] for cell in row if cell}
    assert [[c and c["username"] for c in row] for row in state["rows"]] == [["ann"], ["ben", "cat"],
                                                                             ["dan", None, None]]
    assert (cells["ann"]["challenge_cost"], cells["ann"]["can_challenge"]) == (1, False)
    assert cells["ann"]["why_not"] == "costs 1 point; you have 0"
    assert (cells["ben"]["challenge_cost"], cells["ben"]["can_challenge"]) == (0, True)
    assert cells["dan"]["challenge_cost"] is None and cells["cat"]["me"] is True
    assert state["me"] == {"row": 2, "position": 2, "points": 0, "open_challenge": None, "defending": []}


def test_custom_timers_need_both_times(pyr):
    from django.core.exceptions import ValidationError

    pyr.timer_preset = Game.Preset.CUSTOM
    with pytest.raises(ValidationError):
        pyr.clean()
    pyr.move_time, pyr.game_time = 60, 600
    pyr.clean()
