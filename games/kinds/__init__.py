"""The kinds of game the site plays, in one registry (docs/game-kinds.md).

A kind is a pure engine package (`engine/` for RoboRacer, `engine.kinds.rambots` for RAMbots) plus one adapter
here that the lobby, the services, the timers, the tasks, the consumers and the API call: they ask
`kinds.of(game)` and never compare a game's kind to a name.

An adapter (`GameKind`) answers for its kind:
- the lobby: `title`, `seats_allowed`, `board_name`, `summary`, `create_game`, `recreate` (play again);
- a game's life: `start`, `in_game`, `submit_move`, `resolve`, `eject`, `play_random`, `computer_move`;
- what viewers see: `public_fields` (the shared part of a snapshot), `private_fields` (a player's own `me`),
  `public_turn` (a resolved turn for replays), `rated`.
"""

from __future__ import annotations

from importlib import import_module

DEFAULT = "roboracer"
# name -> module of its adapter; imported on first use (the adapters import games.services).
_MODULES = {"roboracer": "games.kinds.roboracer", "rambots": "games.kinds.rambots"}
_loaded: dict = {}


def names() -> tuple[str, ...]:
    return tuple(_MODULES)


def get(name: str):
    """The adapter of the kind `name`; KeyError for an unknown kind."""
    kind = _loaded.get(name)
    if kind is None:
        kind = _loaded[name] = import_module(_MODULES[name]).KIND
    return kind


def of(game):
    """The adapter of `game`'s kind."""
    return get(game.kind or DEFAULT)
