"""The kinds of game the site plays, in one registry (docs/game-kinds.md).

A kind is a pure engine package (`engine/` for RoboRacer, `engine.kinds.rambots` for RAMbots) plus one adapter
here. Every game runs through the one loop of `games.services.turns` and `games.services.moves` (boardgame.io's
master); the loop asks the game's kind (`kinds.of(game)`) the rules' questions and never compares a kind to a
name. The entry points (API, pages, sockets, tasks, tournaments) ask it too.

The interface an adapter answers (games/kinds/roboracer/ and games/kinds/rambots/ are the two; docs/game-kinds.md
"The interface" says each in a sentence):
- naming: `name`, `title`, `move_noun`, `takes_chips` (programs of chips at /program/, else moves at /move/),
  `rated`, `uses_courses`, `max_table`, `forfeit_words`, `resubmit_after_eject`;
- the lobby: `settings` (its own settings checked, as Game fields), `again` (play again's settings),
  `create_serializer` and `create_game` (its create form's fields), `seated_game` (a tournament's table),
  `board_name`, `min_players`, `summary`, `computers_play`;
- the loop: `load`/`dump` (its state from and to the game row), `begin` (the first state), `deal` (each moving
  seat's hand), `required_move`, `in_game`, `parse_move` (a /move/ body), `check_move`, `complete` (moves
  the rules enter for seats still missing), `resolve`, `after_resolution`, `finished`, `outcome`, `remove`
  (players out), `random_move` (timeout policy "random"), `think` (a computer player's move);
- what viewers see: `public_fields`, `viewer_fields`, `private_context`, `private_fields`, `public_turn`.

A third kind is its engine package, its adapter and its screen, plus one line in `_MODULES` below
(tests/games/test_third_kind.py plays one through the real services, sockets and API).
"""

from __future__ import annotations

from importlib import import_module

DEFAULT = "roboracer"
# name -> module of its adapter; imported on first use (the adapters import games.services, which ask this
# registry for a game's kind: the services sit below the kinds).
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


def register(name: str, module: str) -> None:
    """Add a kind whose adapter is `module`'s KIND (the one line a new kind adds is its entry in `_MODULES`;
    this is for a kind defined outside games/kinds/, as the tests' made-up third kind is)."""
    _MODULES[name] = module
    _loaded.pop(name, None)


def unregister(name: str) -> None:
    _MODULES.pop(name, None)
    _loaded.pop(name, None)
