"""A client for RoboRacer's Bot API (docs/bot-api.md): `Client` wraps the event stream, the game streams (which
resume from their version when a connection drops) and the calls a bot makes; `play` runs a strategy in every
game the account starts; `strategies` has two examples (`random`, and `lookahead`, which needs the engine)."""

from .client import ApiError, Client
from .play import play_game, run

__all__ = ["ApiError", "Client", "play_game", "run"]
