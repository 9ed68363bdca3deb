"""The bot's loop: read the account's events; accept challenges; play every game that starts, each in a thread
of its own, with a strategy; stop after a number of games if asked."""

from __future__ import annotations

import logging
import threading

from .client import ApiError, Client

log = logging.getLogger("roboracer_bot")


def play_game(client: Client, game_id: int, strategy, *, max_turns: int | None = None) -> dict:
    """Play one game to its end: a program whenever my snapshot asks for one; resign once the turn passes
    `max_turns` (a short game for a test or a demo). Returns the finished game's snapshot."""
    for message in client.game(game_id):
        if message["type"] == "error":
            log.warning("game %s: %s", game_id, message.get("detail"))
            break
        if message["type"] != "snapshot" or not client.my_move(message["game"]):
            continue
        game = message["game"]
        try:
            if max_turns is not None and game["turn"] > max_turns:
                log.info("game %s: turn %s is past the turn limit %s: resigning", game_id, game["turn"], max_turns)
                client.resign(game_id)
                continue
            chips = strategy(game)
            client.send_program(game, chips)
            log.info("game %s turn %s: %s", game_id, game["turn"], " ".join(chips))
        except ApiError as error:  # the turn moved on, the game ended meanwhile: the stream says what next
            log.info("game %s: %s", game_id, error)
    return client.game_state(game_id)


def run(client: Client, strategy, *, accept: bool = True, games: int | None = None, max_turns: int | None = None,
        since: int = 0) -> int:
    """Answer my account's events until `games` games have finished (None: forever). Returns the last event id."""
    me, playing, finished, last = client.me(), {}, set(), since
    log.info("signed in as %s at %s: waiting for challenges and games", me, client.base_url)
    for event in client.events(since):
        last = event.get("id", last)
        kind = event["type"]
        if kind == "error":
            raise ApiError(401, event.get("detail", "the stream stopped"))
        if kind == "challenge" and event["challenge"]["challenged"] == me and event["challenge"]["status"] == "pending":
            challenge = event["challenge"]
            try:
                client.accept(challenge["id"]) if accept else client.decline(challenge["id"])
            except ApiError as error:  # answered or cancelled meanwhile
                log.info("challenge %s: %s", challenge["id"], error)
            else:
                log.info("challenge %s from %s on %s: %s", challenge["id"], challenge.get("challenger"),
                         challenge.get("board"), "accepted" if accept else "declined")
        elif kind == "game_start" and event["game"]["id"] not in playing:
            game_id = event["game"]["id"]
            thread = threading.Thread(target=play_game, args=(client, game_id, strategy), daemon=True,
                                      kwargs={"max_turns": max_turns}, name=f"game-{game_id}")
            playing[game_id] = thread
            thread.start()
        elif kind == "game_finish" and event["game"]["id"] in playing:
            playing[event["game"]["id"]].join(timeout=60)
            finished.add(event["game"]["id"])
            log.info("game %s is over", event["game"]["id"])
            if games is not None and len(finished) >= games:
                break
    return last
