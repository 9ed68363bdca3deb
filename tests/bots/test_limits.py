"""The Bot API's limits (issue 41, docs/bot-api.md "Limits"): requests and moves per token (django-ratelimit in the
shared Redis), each token counted on its own; a bot's clock is the game's own."""

import pytest

from games.models import Game
from games.services import lobby
from tests.bots.helpers import bearer, make_bot, token_for
from tests.games.factories import legal_program

pytestmark = pytest.mark.django_db(transaction=True)


def test_requests_per_token_are_limited_with_retry_after(make_user, settings):
    settings.BOT_REQUEST_RATE = "3/m"
    robo, token = make_bot(make_user, "robo")
    client = bearer(token)
    assert [client.get("/api/games/").status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get("/api/games/")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "at most 3/m" in refused.json()["detail"]
    assert bearer(token_for(robo)).get("/api/games/").status_code == 200  # another token: its own count


def test_moves_per_token_are_limited_and_a_bots_clock_is_the_games_own(make_user, courses, settings):
    settings.BOT_MOVE_RATE = "2/m"
    robo, token = make_bot(make_user, "robo")
    ann = make_user("ann")
    game_id = bearer(token).post("/api/games/", {"course": "tiny-yard", "max_seats": 2}, format="json").json()["id"]
    lobby.join_game(user=ann, game_id=game_id)
    game = Game.objects.get(pk=game_id)
    seats = {seat.user.username: seat for seat in game.seats.all()}
    assert (seats["robo"].move_left, seats["robo"].game_left) == (seats["ann"].move_left, seats["ann"].game_left) \
        == (game.move_time, game.game_time)
    program = {"turn": 1, "chips": legal_program(game, robo)}
    client = bearer(token)
    assert [client.post(f"/api/games/{game_id}/program/", program, format="json").status_code
            for _ in range(2)] == [200, 200]
    refused = client.post(f"/api/games/{game_id}/program/", program, format="json")
    assert refused.status_code == 429 and "Retry-After" in refused
    assert client.get(f"/api/games/{game_id}/").status_code == 200  # reads are not moves
