"""Every write to a tournament (docs/tournaments.md), one module per concern; callers import the module they need.
Keyword-only; one transaction each.

- `common`: the organisers group, the tournament's row lock, its log, a player leaving their running game;
- `creation`: creating a tournament, its settings checked;
- `registration`: registering and withdrawing;
- `rounds`: seating a round's tables and dealing their games, advancing to the next round or finishing;
- `results`: a table's places when its game finishes;
- `sweeping`: the beat task's sweep (due registrations, missed results and advances, stalled tournaments);
- `organising`: the organiser's actions (start now, pause, resume, disqualify, extend, end);
- `substitutions`: replacing a player before their first move (invite, accept, decline, cancel).

Lock order, everywhere: the tournament row first, then a game row (games.services locks games). The
game_finished receiver, which runs inside the finishing game's transaction, locks no tournament row: it
records its own table's places and schedules `advance` after the commit, which locks the tournament and
creates the next round exactly once (a conditional UPDATE of the round's status, and a unique round number).
Tournaments never write games' rows: an organiser's action on a game goes through games' services.
"""
