"""Helpers for games with bot modules: a started game whose state and hands a test prepares."""

from games.models import Game, Hand
from games.services import lobby
from tests.helpers import client_for  # noqa: F401 - the shared one, for the tests that import it from here

FULL_HAND = ["1", "2", "3", "L", "R", "U", "B", "1", "2"]


def module_game(*, users, course, modules, lives=3) -> Game:
    game = lobby.create_game(user=users[0], course=course, max_seats=len(users), lives=lives, modules=modules)
    for user in users[1:]:
        lobby.join_game(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game


def set_bot(game: Game, bot_id: str, **fields) -> None:
    """Change a bot of the game's stored state (battery, module, stored chip...), as a test prepares it."""
    game.refresh_from_db()
    state = game.state
    for bot in state["bots"]:
        if bot["id"] == bot_id:
            bot.update(fields)
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()


def set_prices(game: Game, prices: dict) -> None:
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(state={**game.state, "prices": dict(sorted(prices.items()))})
    game.refresh_from_db()


def set_hand(game: Game, user, chips) -> None:
    Hand.objects.filter(seat__game=game, seat__user=user, turn=game.turn).update(chips=list(chips))
