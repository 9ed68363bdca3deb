"""Rating finished games: OpenSkill's Plackett-Luce from the final places, once per game, rated games only."""

import pytest
from openskill.models import PlackettLuce

import engine
from games.models import Game
from games.selectors import rated
from games.selectors.history import rating_history
from games.services import lobby, rating, rematch, setup, turns
from roboracer.courses.models import Course
from roboracer.ratings import selectors
from roboracer.ratings import services as rating_services
from roboracer.ratings.models import DEFAULT_MU, DEFAULT_SIGMA, Rating, RatingChange
from tests.ratings.helpers import course_copy, finish, played

PLAYERS = ("ann", "ben", "cat", "dan")  # the `players` fixture (tests/conftest.py)


def _rating(user) -> Rating:
    return Rating.objects.get(user=user)


def test_the_winner_goes_up_and_the_loser_down(courses, players):
    ann, ben = players[:2]
    game = played(users=[ann, ben], course=courses["tiny-yard"])
    assert game.status == Game.Status.FINISHED and game.state["places"] == {"1": 2, "2": 1}
    assert _rating(ben).mu > DEFAULT_MU > _rating(ann).mu
    assert _rating(ben).sigma < DEFAULT_SIGMA and _rating(ann).sigma < DEFAULT_SIGMA
    assert (_rating(ann).games, _rating(ben).games) == (1, 1)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert (changes[ann.pk].place, changes[ben.pk].place) == (2, 1)
    assert changes[ben.pk].mu_before == DEFAULT_MU and changes[ben.pk].mu_after == _rating(ben).mu
    shown = selectors.shown_ratings_of(users=[ann, ben], kind="roboracer")
    assert shown[ben.pk] > selectors.DEFAULT_SHOWN > shown[ann.pk]


def test_the_update_is_the_librarys_plackett_luce(courses, players):
    """The same numbers as OpenSkill's own model given the same ratings and places."""
    ann, ben, cat = players[:3]
    Rating.objects.create(user=ann, mu=30.0, sigma=4.0, games=7)
    game = played(users=[ann, ben, cat], course=courses["tiny-yard"], losers=(1, 2))
    places = game.state["places"]
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=30.0, sigma=4.0)], [model.rating()], [model.rating()]],
                          ranks=[places["1"], places["2"], places["3"]])
    for user, (team,) in zip([ann, ben, cat], expected, strict=True):
        assert _rating(user).mu == pytest.approx(team.mu) and _rating(user).sigma == pytest.approx(team.sigma)
    assert _rating(ann).games == 8


def test_tied_places_are_ties(courses, players):
    """Seats 1 and 2 fall off in the same register and share 2nd place: they move alike, below the winner."""
    ann, ben, cat = players[:3]
    game = played(users=[ann, ben, cat], course=courses["tiny-yard"], losers=(1, 2))
    assert game.state["places"] == {"1": 2, "2": 2, "3": 1}
    assert _rating(ann).mu == pytest.approx(_rating(ben).mu) and _rating(cat).mu > DEFAULT_MU > _rating(ann).mu
    assert _rating(ann).sigma == pytest.approx(_rating(ben).sigma)
    assert [c.place for c in RatingChange.objects.filter(game=game).order_by("user_id")] == [2, 2, 1]


def test_a_game_everyone_ties_moves_nobodys_mu(courses, players):
    """All three fall at once: all share 1st place; the model only grows surer (sigma down)."""
    game = played(users=players[:3], course=courses["tiny-yard"], losers=(1, 2, 3))
    assert set(game.state["places"].values()) == {1}
    for user in players[:3]:
        assert _rating(user).mu == pytest.approx(DEFAULT_MU) and _rating(user).sigma < DEFAULT_SIGMA


def test_a_second_call_for_the_same_game_changes_nothing(courses, players):
    ann, ben = players[:2]
    game = played(users=[ann, ben], course=courses["tiny-yard"])
    before = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games"))
    state = engine.state_from_dict(game.state, engine.parse_course(game.course_data))
    assert rating.rate_finished(game=game, outcome=state) == []
    turns.resolve_turn(game_id=game.pk, turn=1)  # a redelivered turn task: nothing more either
    assert list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "games")) == before
    assert RatingChange.objects.filter(game=game).count() == 2


def test_the_unique_constraint_backs_exactly_once(courses, players):
    """Even if the service's check were skipped, the database refuses a second change for the same player and
    game."""
    from django.db import IntegrityError, transaction

    ann, ben = players[:2]
    game = played(users=[ann, ben], course=courses["tiny-yard"])

    change = RatingChange.objects.get(game=game, user=ann)
    change.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        change.save()


def test_ratings_accumulate_over_games(courses, players):
    ann, ben = players[:2]
    played(users=[ann, ben], course=courses["tiny-yard"])
    first = _rating(ben).mu
    played(users=[ann, ben], course=courses["tiny-yard"])
    assert _rating(ben).mu > first and _rating(ben).games == 2
    history = rating_history(user=ben, kind="roboracer")
    assert len(history) == 2 and history[0]["rating"] < history[1]["rating"]


def test_the_creator_may_mark_a_game_unrated(courses, players):
    ann, ben = players[:2]
    game = played(users=[ann, ben], course=courses["tiny-yard"], rated=False)
    assert game.status == Game.Status.FINISHED and not rated.is_rated(game=game)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_games_on_development_courses_are_unrated(courses, players):
    dev = course_copy(courses["tiny-yard"], slug="dev-yard", state=Course.State.DEVELOPMENT)
    game = played(users=players[:2], course=dev)
    assert game.status == Game.Status.FINISHED and not rated.is_rated(game=game)
    assert not RatingChange.objects.exists()


def test_test_drives_are_unrated(courses, players):
    ann, ben = players[:2]
    game = lobby.create_game(user=ann, course=courses["tiny-yard"], max_seats=2, lives=1, test_drive=True)
    lobby.join_game(user=ben, game_id=game.pk)
    game = finish(Game.objects.get(pk=game.pk))
    assert game.status == Game.Status.FINISHED and not rated.is_rated(game=game)
    assert not RatingChange.objects.exists()


def test_puzzles_are_unrated_even_on_a_stable_course(courses, players):
    block = {"goal": {"type": "checkpoint", "number": 2}, "turn_limit": 1, "players": 2}  # over after turn 1
    puzzle = course_copy(courses["tiny-yard"], slug="puzzle-yard", state=Course.State.STABLE, mode="puzzle", puzzle=block)
    # A puzzle is played from the lobby (tournaments and the Pyramid refuse puzzle courses: games/setup.py).
    game = played(users=players[:2], course=puzzle, use=setup.LOBBY)
    assert game.status == Game.Status.FINISHED and game.course_data["mode"] == "puzzle"
    assert game.state["outcome"] == "failed"
    assert not rated.is_rated(game=game) and not RatingChange.objects.exists()


def test_a_mode_not_known_yet_is_unrated(courses, players):
    game = lobby.create_game(user=players[0], course=courses["tiny-yard"])
    assert rated.is_rated(game=game)
    game.course_data = {**game.course_data, "mode": "team"}
    assert not rated.is_rated(game=game)
    game.course_data = {**game.course_data, "mode": "arena"}
    assert rated.is_rated(game=game)


def test_play_again_keeps_the_creators_choice(courses, players):
    ann, ben = players[:2]
    game = played(users=[ann, ben], course=courses["tiny-yard"], rated=False)
    new, _ = rematch.play_again(user=ben, game_id=game.pk)
    assert new.rated is False


def test_a_failing_rating_leaves_the_game_finished_and_unrated(courses, players, monkeypatch):
    """Rating runs in a savepoint: an error there is logged and the finishing turn still commits."""
    class Broken:
        rating = rating_services.MODEL.rating

        def rate(self, *args, **kwargs):
            raise RuntimeError("boom")

    monkeypatch.setattr(rating_services, "MODEL", Broken())
    game = played(users=players[:2], course=courses["tiny-yard"])
    assert game.status == Game.Status.FINISHED and game.winner is not None
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(games__gt=0).exists()
