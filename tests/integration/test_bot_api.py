"""The Bot API on the live stack (issue 41, docs/bot-api.md): uvicorn, a Celery worker and Redis as subprocesses.

- A game stream read by the client (clients/python/roboracer_bot) survives a web server restart: killed while
  the turn is played, started again, the client connects again from its version and gets every event it missed,
  once, in order, then its own new snapshot.
- The client's whole loop: a challenge on the event stream accepted, a game played with the lookahead strategy
  against a person's programs to the end (the client resigns past its turn limit), the event stream's numbered
  events as they happened."""

import threading

import pytest
from roboracer_bot import Client, play_game, run
from roboracer_bot.strategies import strategy

from games.models import AccountEvent, DirectChallenge, Game, Turn
from games.services import challenges, lobby, moves
from tests.bots.helpers import make_bot
from tests.games.factories import hand_of, legal_program
from tests.helpers import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_game_stream_survives_a_web_server_restart(live_stack, courses, make_user):
    robo, token = make_bot(make_user, "robo")
    ann = make_user("ann")
    client = Client(live_stack.base_url, token, timeout=20)
    game_id = client.call("POST", "/api/games/", {"course": "tiny-yard", "max_seats": 2})["id"]
    lobby.join_game(user=ann, game_id=game_id)
    stream = client.game(game_id)
    first = next(stream)
    assert first["type"] == "snapshot" and first["game"]["turn"] == 1
    version = first["version"]

    live_stack.kill("web")  # the connection is gone with it
    game = Game.objects.get(pk=game_id)
    for user in (ann, robo):
        moves.submit_program(user=user, game_id=game_id, turn=1, chips=legal_program(game, user))
    wait_until(lambda: Turn.objects.filter(game_id=game_id, number=1).exists(), "the worker resolves turn 1",
               output=live_stack.logs)
    live_stack.spawn("web")  # on the same port; the client keeps trying meanwhile

    seen = []
    for message in stream:
        seen.append(message)
        if message["type"] == "snapshot":
            break
    events = [m for m in seen if m["type"] == "event"]
    stored = Game.objects.get(pk=game_id).version
    assert [m["version"] for m in events] == list(range(version + 1, events[-1]["version"] + 1))
    assert {"seat_ready", "turn_executing", "turn_resolved", "turn_dealt"} <= {m["kind"] for m in events}
    assert seen[-1]["game"]["turn"] == 2 and seen[-1]["pushed"] is True and seen[-1]["version"] <= stored
    # Its own new hand, exactly as dealt (9 cards less the damage turn 1 did: the deal's seed is the game's).
    assert seen[-1]["game"]["me"]["seat"] == 1
    assert seen[-1]["game"]["me"]["hand"] == hand_of(Game.objects.get(pk=game_id), robo)
    stream.close()


def test_the_client_accepts_a_challenge_and_plays_a_whole_game(live_stack, courses, make_user):
    robo, token = make_bot(make_user, "robo")
    ann = make_user("ann")
    client = Client(live_stack.base_url, token, timeout=20)
    done = {}
    bot = threading.Thread(target=lambda: done.setdefault("last", run(client, strategy("lookahead"), games=1,
                                                                      max_turns=2)), daemon=True)
    bot.start()
    challenge = challenges.send_challenge(user=ann, username="robo", settings={"course": "tiny-yard", "lives": 3})
    wait_until(lambda: DirectChallenge.objects.get(pk=challenge.pk).game_id, "the bot accepts the challenge",
               output=live_stack.logs)
    game = DirectChallenge.objects.get(pk=challenge.pk).game
    for turn in (1, 2):
        game.refresh_from_db()
        moves.submit_program(user=ann, game_id=game.pk, turn=turn, chips=legal_program(game, ann))
        wait_until(lambda turn=turn: Turn.objects.filter(game=game, number=turn).exists(),
                   f"the bot's program and turn {turn} resolved", output=live_stack.logs)
    bot.join(timeout=60)
    assert not bot.is_alive(), "the client stops after its one game"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user == ann  # the bot resigned on turn 3
    assert all("1" in Turn.objects.get(game=game, number=n).programs for n in (1, 2))  # its programs played
    kinds = list(AccountEvent.objects.filter(user=robo).order_by("number").values_list("kind", flat=True))
    assert kinds == ["challenge", "game_start", "challenge_accepted", "game_finish"] and done["last"] == 4
    # The same game's stream, read again from the start by play_game: its end, and the finished snapshot.
    assert play_game(client, game.pk, strategy("random"))["status"] == "finished"
