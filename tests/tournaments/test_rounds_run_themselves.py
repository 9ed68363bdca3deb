"""Rounds run themselves: a game's end sends the advance task after its commit, which seats the next round;
the seated players get the "your turn" notice and, with tournament timers, the e-mail."""

import pytest
from django.core import mail

from games import broadcast
from games.services import lobby
from roboracer.celery import app
from roboracer.tournaments.models import Round, TableSeat
from tests.tournaments.factories import current_tables, open_tournament, organiser, started, users_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager_tasks():
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


def test_the_last_game_of_a_round_deals_the_next_and_everyone_is_notified(
        make_user, courses, eager_tasks, monkeypatch, django_capture_on_commit_callbacks):
    notices = []
    monkeypatch.setattr(broadcast, "notify_users", lambda batch: notices.extend(batch))
    olga = organiser(make_user)
    field = [make_user(name, email=f"{name}@example.com") for name in ("ann", "ben", "cat", "dan")]
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started(open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2), field)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in field)
    assert sorted(user_id for user_id, notice in notices if notice["type"] == "your_turn") == sorted(
        u.pk for u in field)
    mail.outbox.clear()
    notices.clear()
    first, second = current_tables(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        lobby.leave_game(user=users_at(first)[1], game_id=first.game_id)
    assert Round.objects.filter(tournament=tournament).count() == 1  # the other table still plays
    with django_capture_on_commit_callbacks(execute=True):
        lobby.leave_game(user=users_at(second)[0], game_id=second.game_id)
    # The second game's end ran the advance task after its commit: round 2 is dealt to the two winners.
    assert Round.objects.filter(tournament=tournament).count() == 2
    winners = {users_at(first)[0].pk, users_at(second)[1].pk}
    (final,) = current_tables(tournament)
    assert {u.pk for u in users_at(final)} == winners
    assert TableSeat.objects.get(table=first, entry__user_id=users_at(first)[0].pk).place == 1
    # The finalists' "your turn" e-mails; the two who went out are told so (a notice e-mailed to them).
    out_mails = [m for m in mail.outbox if "You are out of" in m.subject + m.body]
    assert {m.to[0] for m in out_mails} == {u.email for u in field if u.pk not in winners}
    assert {m.to[0] for m in mail.outbox if m not in out_mails} == {u.email for u in field if u.pk in winners}
    assert {user_id for user_id, notice in notices if notice["type"] == "your_turn"} == winners
    # "Your game is ready" names the tournament, the round and the table, kept for each finalist's bell.
    ready = [notice for _, notice in notices if notice["type"] == "tournament_game_ready"]
    assert {user_id for user_id, notice in notices if notice["type"] == "tournament_game_ready"} == winners
    assert all(n["source"] == {"tournament": tournament.pk, "round": 2, "table": 1, "game": final.game_id}
               and n["text"] == f"Your game in {tournament.name}, round 2, table 1, is ready"
               and n["notice"]["id"] for n in ready)
    from games.models import Notice

    assert set(Notice.objects.filter(kind="tournament_game_ready", source__round=2).values_list("user_id", flat=True)) \
        == winners
