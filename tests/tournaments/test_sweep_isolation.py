"""One bad tournament never stops the sweep (issue 33, item 7): each tournament's step runs in its own
transaction; a failure marks that tournament, is logged once, and every other tournament advances."""

import logging

import pytest
from django.utils import timezone

from roboracer.tournaments.models import Round, Tournament
from roboracer.tournaments.services import registration, sweeping
from tests.tournaments.factories import open_tournament, organiser

pytestmark = pytest.mark.django_db


def _due(tournament, users):
    for user in users:
        registration.register(user=user, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now())


def test_a_failing_tournament_is_marked_and_the_others_still_start(make_user, courses, caplog):
    olga = organiser(make_user)
    players = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    # Swept first (the lower id): its data is broken, so closing its registration raises (an unknown kind).
    bad = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2, name="Broken Cup")
    good = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2, name="Good Cup")
    _due(bad, players[:2])
    _due(good, players[2:])
    Tournament.objects.filter(pk=bad.pk).update(kind="no-such-kind")

    with caplog.at_level(logging.ERROR, logger="roboracer.tournaments.services"):
        assert sweeping.sweep() == 1
        good.refresh_from_db()
        bad.refresh_from_db()
        assert good.status == Tournament.Status.RUNNING
        assert Round.objects.filter(tournament=good, number=1).exists()
        # The bad one's step was rolled back whole (no half-made round) and it is marked for staff.
        assert bad.status == Tournament.Status.REGISTRATION
        assert not Round.objects.filter(tournament=bad).exists()
        assert bad.stalled_at is not None
        assert "closing the registration" in bad.stalled_reason
        # A second sweep passes over the marked tournament: the failure is logged once.
        assert sweeping.sweep() == 0
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR and str(bad.pk) in r.getMessage()]
    assert len(failures) == 1


def test_the_organiser_sees_the_mark_and_staff_clearing_it_lets_the_sweep_move_it(make_user, courses, client):
    olga = organiser(make_user)
    players = [make_user(name) for name in ("ann", "ben")]
    bad = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2)
    _due(bad, players)
    Tournament.objects.filter(pk=bad.pk).update(kind="no-such-kind")
    sweeping.sweep()
    client.force_login(olga)
    page = client.get(f"/tournaments/{bad.pk}/organise/").content.decode()
    assert 'id="stalled"' in page and "closing the registration failed" in page
    client.force_login(players[0])
    assert 'id="stalled"' not in client.get(f"/tournaments/{bad.pk}/").content.decode()
    # Staff repair the data and clear the mark: the next sweep starts it.
    Tournament.objects.filter(pk=bad.pk).update(kind="roboracer", stalled_at=None, stalled_reason="")
    assert sweeping.sweep() == 1
    assert Tournament.objects.get(pk=bad.pk).status == Tournament.Status.RUNNING
