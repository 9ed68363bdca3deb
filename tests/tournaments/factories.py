"""Tournaments built through the real services, and a table's result given as a finishing order."""

from datetime import timedelta
from types import SimpleNamespace

from django.utils import timezone

from games.models import Game
from roboracer.tournaments.models import Table, Tournament
from roboracer.tournaments.services import common, creation, registration, results, rounds


def organiser(make_user, name="olga"):
    user = make_user(name)
    common.grant_organiser(user=user)
    return user


def open_tournament(*, organiser, courses, **options):
    now = timezone.now()
    options.setdefault("registration_opens", now - timedelta(hours=1))
    options.setdefault("registration_closes", now + timedelta(hours=1))
    options.setdefault("name", "Spring Cup")
    return creation.create_tournament(organiser=organiser, courses=courses, **options)


def started(tournament, users):
    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now())
    assert rounds.close_registration(tournament_id=tournament.pk) == "started"
    tournament.refresh_from_db()
    return tournament


def finish_table(table: Table, order: list) -> None:
    """Record the table as if its game ended with `order` (users, first place first)."""
    seats = {ts.entry.user_id: ts.seat for ts in table.seats.select_related("entry")}
    places = {str(seats[user.pk]): place for place, user in enumerate(order, start=1)}
    Game.objects.filter(pk=table.game_id).update(status=Game.Status.FINISHED)
    results.record_table(game=table.game, state=SimpleNamespace(places=places))


def play_to_the_end(tournament):
    """Every table of every round finished in seat order (seat 1 first), round after round, until the tournament is
    over; the tournament refreshed."""
    while tournament.status != Tournament.Status.FINISHED:
        for table in current_tables(tournament):
            if not table.finished:
                finish_table(table, users_at(table))
        rounds.advance(tournament_id=tournament.pk)
        tournament.refresh_from_db()
    return tournament


def current_tables(tournament):
    round_ = tournament.rounds.order_by("-number").first()
    return list(round_.tables.order_by("number"))


def users_at(table):
    return [ts.entry.user for ts in table.seats.select_related("entry__user").order_by("seat")]
