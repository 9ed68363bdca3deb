"""The tournament's listener on games (games.signals.game_finished): record a tournament table's places."""

from django.dispatch import receiver

from games.signals import game_finished


@receiver(game_finished, dispatch_uid="tournaments.record_table")
def _record_table(sender, game, state, **kwargs) -> None:
    from roboracer.tournaments import services

    services.record_table(game=game, state=state)
