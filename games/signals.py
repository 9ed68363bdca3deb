"""Signals other apps listen to, so that games need not know them (ratings, tournaments, the pyramid).

`game_finished` is sent inside the transaction that finishes the game, with the game row locked, once per
game: `sender=Game, game=<Game>, state=<engine.State>`. `game.winner` and `state.places` (the final place of
every bot, docs/formats.md) are set. A receiver that writes must do it in that same transaction (and so be
quick), or schedule its work with `transaction.on_commit`; an exception in a receiver rolls the turn back.
"""

from django.dispatch import Signal

game_finished = Signal()
