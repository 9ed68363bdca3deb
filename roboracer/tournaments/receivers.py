"""The tournament's listeners on games (games.signals): record a tournament table's places when its game finishes;
name the tournament a finished table's game belongs to (no "play again" there: the tournament seats the next
games); tell a replaced player, on the game's page, who took their seat."""

from django.dispatch import receiver

from games.signals import competition, game_finished, viewer_notes
from roboracer.tournaments import selectors
from roboracer.tournaments.services import results


@receiver(game_finished, dispatch_uid="tournaments.record_table")
def _record_table(sender, game, state, **kwargs) -> None:
    results.record_table(game=game, state=state)


@receiver(competition, dispatch_uid="tournaments.competition")
def _competition(sender, game, **kwargs) -> dict | None:
    return selectors.competition_of(game=game)


@receiver(viewer_notes, dispatch_uid="tournaments.replaced")
def _replaced(sender, game, user, **kwargs) -> str | None:
    replaced = selectors.replacement_of(user=user, game=game)
    if replaced is None:
        return None
    return (f"You were replaced by {replaced['by']} in this tournament ({replaced['tournament']}): "
            "they play your seat now. You can still watch the game.")
