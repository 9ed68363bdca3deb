"""A game that starts with one seat is unrated (docs/ratings.md "Which games are rated"): a lobby game on a course
that takes one player (Tiny Yard takes 1 to 4) which its creator starts alone says `rated: false` in the snapshot
and the lobby, and finishing it rates nobody, whatever the game's own `rated` wish says."""

from games.models import Game, GameEvent
from games.selectors import lobby, rated
from games.services import lobby as lobby_services
from games.services import rating, timeouts
from roboracer.ratings.models import Rating, RatingChange
from tests.ratings.helpers import finish

PLAYERS = ("ann", "ben")  # the `players` fixture (tests/conftest.py)


def test_a_lobby_game_started_with_its_creator_alone_is_unrated_and_rates_nobody(courses, players, client):
    ann, ben = players
    game = lobby_services.create_game(user=ann, course=courses["tiny-yard"], max_seats=3, lives=1)
    assert game.rated is True and rated.is_rated(game=game)  # in the lobby: rated once others join
    lobby_services.start_game(user=ann, game_id=game.pk)  # Tiny Yard's minimum is 1: ann starts alone
    game.refresh_from_db()
    assert (game.status, game.max_seats, game.rated) == (Game.Status.PROGRAMMING, 1, True)
    assert rated.is_rated(game=game) is False
    client.force_login(ann)
    assert client.get(f"/api/games/{game.pk}/").json()["rated"] is False
    assert [g["rated"] for g in lobby.lobby_state(user=ann)["mine"] if g["id"] == game.pk] == [False]
    assert lobby.game_summary(game=lobby.lobby_game(game_id=game.pk))["rated"] is False

    game = finish(game, losers=(1,))  # ann backs off the edge with her one life: the game is over
    assert game.status == Game.Status.FINISHED and game.aborted is False
    assert not RatingChange.objects.filter(game=game).exists() and not Rating.objects.filter(user=ann).exists()
    assert rating.rate_finished(game=game, outcome=None) == []  # asked again, directly: still nobody
    assert not RatingChange.objects.filter(user=ben).exists()


def test_a_one_seat_lobby_game_says_unrated_before_it_starts(courses, players):
    ann, _ = players
    game = lobby_services.create_game(user=ann, course=courses["tiny-yard"], max_seats=1)
    assert game.status == Game.Status.LOBBY and rated.is_rated(game=game) is False
    summary = lobby.game_summary(game=lobby.lobby_game(game_id=game.pk))
    assert summary["rated"] is False


def test_a_solo_player_out_of_game_time_is_not_told_that_others_may_eject_them(courses, players):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import ChatMessage, Seat

    ann, _ = players
    game = lobby_services.create_game(user=ann, course=courses["tiny-yard"], max_seats=2)
    lobby_services.start_game(user=ann, game_id=game.pk)
    Seat.objects.filter(game=game).update(deadline=timezone.now() - timedelta(seconds=1))
    assert timeouts.enforce_deadline(game_id=game.pk) == "expired"
    said = ChatMessage.objects.filter(game=game).order_by("pk").last().text
    assert "run out of game time" in said and "!eject" not in said and "Any player" not in said
    assert GameEvent.objects.filter(game=game, kind="timer_expired").count() == 1
