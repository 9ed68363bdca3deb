"""Every read of a game, one module per question (docs/architecture.md "Where to find what"): `access` (who may
see a game), `lobby`, `seats`, `snapshots`, `chat`, `rematch`, `turns` (replays), `competitions`, `puzzles`,
`rated`, `history` (a player's finished games). RoboRacer's own view is `games.kinds.roboracer.selectors`.

Import the module that answers the question (`from games.selectors import snapshots`). The names below are a
temporary bridge for the files being rewritten elsewhere (games/services.py, games/consumers.py): resolved on
first use, so that this package imports nothing at load time.
"""

from importlib import import_module

_BRIDGE = {
    # games/services.py
    "COMPUTER_MODES": "games.selectors.seats",
    "chat_message": "games.selectors.chat",
    "competition": "games.selectors.competitions",
    "game_snapshots": "games.selectors.snapshots",
    "invite_matches": "games.selectors.access",
    "may_test_drive": "games.selectors.access",
    "public_actions": "games.kinds.roboracer.selectors",
    "rematch_notice": "games.selectors.rematch",
    "seats_of": "games.selectors.seats",
    "start_minimum": "games.selectors.seats",
    "visible_games": "games.selectors.access",
    # games/consumers.py
    "can_view": "games.selectors.access",
    "game_snapshot": "games.selectors.snapshots",
    "get_game": "games.selectors.access",
    "seat_of": "games.selectors.seats",
}


def __getattr__(name: str):
    module = _BRIDGE.get(name)
    if module is None:
        raise AttributeError(f"module 'games.selectors' has no attribute {name!r}")
    return getattr(import_module(module), name)
