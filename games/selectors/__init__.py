"""Every read of a game, one module per question (docs/architecture.md "Where to find what"): `access` (who may
see a game), `lobby`, `seats`, `snapshots`, `chat`, `rematch`, `turns` (replays), `competitions`, `puzzles`,
`rated`, `history` (a player's finished games). RoboRacer's own view is `games.kinds.roboracer.selectors`.

Import the module that answers the question (`from games.selectors import snapshots`).
"""
