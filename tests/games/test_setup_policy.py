"""Issue 33, items 5 and 6: one policy (games.services.setup) decides whether a game's setting fits, and every entry
point asks it: the lobby, play again, computer seats, tournaments (when created, not when a round starts) and
the Pyramid's pool. Puzzle seeds are used only by puzzle games: tournaments and the Pyramid refuse puzzle
courses, and any other game on a puzzle course draws its own secret seed."""

import copy
from datetime import timedelta

import pytest
from django.utils import timezone

import engine
from games.kinds.roboracer import services as roboracer_services
from games.models import Game
from games.services import computer_seats, lobby, organisers, setup
from roboracer.common.errors import Conflict, InvalidInput
from roboracer.courses import services as course_services
from roboracer.pyramid import selectors as pyramid_selectors
from roboracer.pyramid import services as pyramid_services
from roboracer.pyramid.models import Place, Pyramid
from roboracer.tournaments.models import Tournament
from roboracer.tournaments.services import common, creation

PUZZLE_SEED = 12345


def tiny(**changes) -> dict:
    data = copy.deepcopy(engine.bundled_course_data("tiny-yard"))
    data.update(players=[2, 4], **changes)
    return data


@pytest.fixture
def puzzle(courses):
    """A stable puzzle for two, with its own fixed seed (which anyone can read in the course)."""
    data = tiny(name="Duo Puzzle", mode="puzzle", puzzle={"goal": {"type": "checkpoint", "number": 1},
                                                          "turn_limit": 10, "players": 2, "seed": PUZZLE_SEED})
    return course_services.save_course(slug="duo-puzzle", data=data)


@pytest.fixture
def classic(courses):
    """A stable course for the classic ruleset only: a RoboRacer game can't be played on it."""
    return course_services.save_course(slug="classic-yard", data=tiny(name="Classic Yard", rulesets=["classic"]))


@pytest.fixture
def people(make_user):
    organiser = make_user("olga")
    common.grant_organiser(user=organiser)
    return organiser, make_user("ann"), make_user("ben")


def new_tournament(organiser, courses, **options):
    now = timezone.now()
    return creation.create_tournament(
        organiser=organiser, name="Cup", courses=courses, registration_opens=now - timedelta(hours=1),
        registration_closes=now + timedelta(hours=1), table_size=2, **options)


# -- The policy itself --------------------------------------------------------------------------------------


def test_one_function_answers_for_course_ruleset_mode_kind_and_options(puzzle, classic, courses):
    race = courses["tiny-yard"].data
    assert setup.refusal(course_data=race, use=setup.LOBBY, seats=2) is None
    assert "suits Classic" in setup.refusal(course_data=classic.data, use=setup.LOBBY, seats=2)
    assert setup.refusal(course_data=classic.data, ruleset="classic", use=setup.LOBBY, seats=2) is None
    assert "puzzle" in setup.refusal(course_data=puzzle.data, use=setup.TOURNAMENT, seats=2)
    assert "puzzle" in setup.refusal(course_data=puzzle.data, use=setup.PYRAMID, seats=2)
    assert setup.refusal(course_data=puzzle.data, use=setup.LOBBY, seats=2) is None
    assert "computer players" in setup.refusal(course_data=puzzle.data, use=setup.LOBBY, seats=2, computers=1)
    assert "teams" in setup.refusal(course_data=race, use=setup.LOBBY, seats=2, teams=True)
    assert "options" in setup.refusal(course_data=race, use=setup.LOBBY, seats=2, options={"no_such": 1})
    assert "has no courses" in setup.refusal(kind="rambots", course_data=race, use=setup.LOBBY)
    assert setup.refusal(kind="rambots", course_data=None, use=setup.TOURNAMENT) is None


# -- Item 5: puzzle seeds ----------------------------------------------------------------------------------


def test_a_puzzle_game_keeps_its_puzzles_seed(puzzle, people):
    game = lobby.create_game(user=people[1], course=puzzle)
    assert game.seed == PUZZLE_SEED


def test_a_tournament_refuses_a_puzzle_course_when_it_is_created(puzzle, people):
    with pytest.raises(InvalidInput, match="puzzle"):
        new_tournament(people[0], [puzzle])
    assert not Tournament.objects.exists()


def test_a_seated_competitive_game_on_a_puzzle_course_is_refused_never_dealt_from_the_puzzle_seed(puzzle, people):
    organiser, ann, ben = people
    with pytest.raises(InvalidInput, match="puzzle"):
        organisers.create_seated_game(creator=organiser, users=[ann, ben], course=puzzle)
    assert not Game.objects.filter(seed=PUZZLE_SEED).exists()


def test_the_pyramid_never_draws_a_puzzle_course(puzzle, courses, people):
    _, ann, ben = people
    pyramid = Pyramid.objects.create(slug="p", name="P", lives=1)
    pyramid.courses.set([puzzle, courses["tiny-yard"]])
    assert [course.slug for course in pyramid_selectors.course_pool(pyramid=pyramid)] == ["tiny-yard"]
    Place.objects.create(pyramid=pyramid, user=ann, row=1, position=1, points=2)
    Place.objects.create(pyramid=pyramid, user=ben, row=2, position=1, points=2)
    challenge = pyramid_services.create_challenge(user=ben, slug="p", player="ann")
    assert challenge.game.course_id == courses["tiny-yard"].pk and challenge.game.seed != PUZZLE_SEED


# -- Item 6: one policy, asked everywhere ----------------------------------------------------------------------


def test_a_tournament_on_another_rulesets_course_is_refused_when_it_is_created(classic, people):
    with pytest.raises(InvalidInput, match="Classic"):
        new_tournament(people[0], [classic])
    assert not Tournament.objects.exists()


def test_the_pyramids_pool_holds_only_courses_its_games_can_be_played_on(classic, courses, people):
    _, ann, ben = people
    pyramid = Pyramid.objects.create(slug="p", name="P", lives=1)
    pyramid.courses.set([classic, courses["tiny-yard"]])
    assert [course.slug for course in pyramid_selectors.course_pool(pyramid=pyramid)] == ["tiny-yard"]
    assert pyramid_selectors.pool_fits(course=classic) is False
    # A pool of unplayable courses only: no challenge is made (a clear 409 before anything is paid).
    pyramid.courses.set([classic])
    Place.objects.create(pyramid=pyramid, user=ann, row=1, position=1, points=2)
    Place.objects.create(pyramid=pyramid, user=ben, row=2, position=1, points=2)
    with pytest.raises(Conflict, match="no stable course"):
        pyramid_services.create_challenge(user=ben, slug="p", player="ann")
    assert Place.objects.get(pyramid=pyramid, user=ben).points == 2 and not Game.objects.exists()


def test_the_pyramid_admin_refuses_a_course_its_games_cant_be_played_on(classic, courses):
    from roboracer.pyramid.admin import PyramidForm

    fields = {"slug": "q", "name": "Q", "starting_points": 2, "max_defences": 2, "lives": 3,
              "timer_preset": Game.Preset.TOURNAMENT, "timeout_policy": Game.TimeoutPolicy.EJECT}
    refused = PyramidForm(data={**fields, "courses": [classic.pk]})
    assert not refused.is_valid() and "Classic Yard" in str(refused.errors["courses"])
    accepted = PyramidForm(data={**fields, "courses": [courses["tiny-yard"].pk]})
    assert accepted.is_valid(), accepted.errors


def test_computer_seats_ask_the_policy(puzzle, people):
    game = lobby.create_game(user=people[1], course=puzzle)
    with pytest.raises(Conflict, match="computer players"):
        computer_seats.add_computer(user=people[1], game_id=game.pk)
    with pytest.raises(InvalidInput, match="computer players"):
        roboracer_services.practice_game(user=people[1], course=puzzle)
