"""The tournament's listeners on games (games.signals): record a tournament table's places when its game finishes;
name the tournament a finished table's game belongs to (no "play again" there: the tournament seats the next
games); tell a replaced player, on the game's page, who took their seat. And the live tournament page (live.py): a saved
or deleted row of a tournament tells its pages once the transaction commits (bulk updates in the services always
come with a saved row of the same tournament: a table, a round, the log)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from games.signals import competition, game_finished, viewer_notes
from roboracer.tournaments import live, selectors, substitution_selectors
from roboracer.tournaments.models import Action, Entry, Round, Substitution, Table, TableSeat, Tournament
from roboracer.tournaments.services import results


@receiver(game_finished, dispatch_uid="tournaments.record_table")
def _record_table(sender, game, state, **kwargs) -> None:
    results.record_table(game=game, state=state)


@receiver(competition, dispatch_uid="tournaments.competition")
def _competition(sender, game, **kwargs) -> dict | None:
    return selectors.competition_of(game=game)


@receiver(viewer_notes, dispatch_uid="tournaments.replaced")
def _replaced(sender, game, user, **kwargs) -> str | None:
    replaced = substitution_selectors.replacement_of(user=user, game=game)
    if replaced is None:
        return None
    return (f"You were replaced by {replaced['by']} in this tournament ({replaced['tournament']}): "
            "they play your seat now. You can still watch the game.")


# Each model's way to its tournament's id, without a query.
_TOURNAMENT_OF = {
    Tournament: lambda row: row.pk,
    Entry: lambda row: row.tournament_id,
    Round: lambda row: row.tournament_id,
    Action: lambda row: row.tournament_id,
    Substitution: lambda row: row.tournament_id,
}


def _tournament_id(row) -> int | None:
    if isinstance(row, Table):
        return Round.objects.filter(pk=row.round_id).values_list("tournament_id", flat=True).first()
    if isinstance(row, TableSeat):
        return Entry.objects.filter(pk=row.entry_id).values_list("tournament_id", flat=True).first()
    return _TOURNAMENT_OF[type(row)](row)


def _changed(sender, instance, **kwargs) -> None:
    tournament_id = _tournament_id(instance)
    if tournament_id is not None:
        live.changed(tournament_id=tournament_id)


for _model in (Tournament, Entry, Round, Table, TableSeat, Action, Substitution):
    post_save.connect(_changed, sender=_model, dispatch_uid=f"tournaments.live.save.{_model.__name__}")
    post_delete.connect(_changed, sender=_model, dispatch_uid=f"tournaments.live.delete.{_model.__name__}")
