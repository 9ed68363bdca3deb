"""What ratings asks about a finished game, answered by the app that plays games (games/receivers.py connects
the receivers), so that ratings imports nothing above it (docs/architecture.md "Layers").

Both are asked by `services.rate_game` with `sender=<the game's model>, game=<Game>`; exactly one receiver
answers each:
- `is_rated`: whether the finished game changes its players' ratings (games.selectors.rated.is_rated).
- `moved_seat_ids`: the ids of the game's seats that moved, that is sent at least one program.
"""

from django.dispatch import Signal

is_rated = Signal()
moved_seat_ids = Signal()


def ask(signal: Signal, *, game):
    """The one answer to `signal` about `game`; an error when no app answers it (games is not installed)."""
    answers = [answer for _receiver, answer in signal.send(sender=type(game), game=game)]
    if len(answers) != 1:
        raise RuntimeError(f"ratings expects one answer about game {game.pk}, got {len(answers)}")
    return answers[0]
