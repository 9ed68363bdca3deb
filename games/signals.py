"""Signals other apps listen to, so that games need not know them (ratings, tournaments, the pyramid).

`competition` is asked about a finished game (its snapshot, play again): `sender=Game, game=<Game>`. A receiver
answers `{"kind", "name", "url"}` when the game is one its app runs as part of a competition (a tournament's
table), else None. Such a game is not played again (its competition seats the next games); the results screen
links back to the competition instead.

`viewer_notes` is asked by the game page for a signed-in viewer: `sender=Game, game=<Game>, user=<User>`. A
receiver answers a sentence about that viewer and this game that only its app knows ("You were replaced by bob in
this tournament ..."), or None. The page shows the notes above the board, and the program panel says the first
one instead of "You are watching this game."

`game_finished` is sent inside the transaction that finishes the game, with the game row locked, once per
game: `sender=Game, game=<Game>, state=<engine.State>`. `game.winner` and `state.places` (the final place of
every bot, docs/formats.md) are set. A receiver that writes must do it in that same transaction (and so be
quick), or schedule its work with `transaction.on_commit`; an exception in a receiver rolls the turn back.
"""

from django.dispatch import Signal

game_finished = Signal()
competition = Signal()
viewer_notes = Signal()
