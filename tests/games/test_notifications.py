""""Your turn" e-mails: sent for slow games (an hour or more a move) to players with an address who have
not moved yet and have not turned them off; never for real-time games."""

import pytest
from django.core import mail

from games.services import lobby
from roboracer.accounts.services import update_profile
from roboracer.celery import app


@pytest.fixture
def eager_tasks():
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


PLAYERS = ("alice", "bob", "carol")  # the `players` fixture (tests/conftest.py)
PLAYER_EMAILS = True


def play_until_dealt(courses, players, preset, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = lobby.create_game(user=players[0], course=courses["bolt-bay"], max_seats=3, timer_preset=preset)
    for user in players[1:]:
        with django_capture_on_commit_callbacks(execute=True):
            lobby.join_game(user=user, game_id=game.pk)
    return game


def test_a_daily_game_e_mails_every_player_when_a_turn_is_dealt(courses, players, eager_tasks,
                                                                 django_capture_on_commit_callbacks):
    update_profile(user=players[2], e_mail_turns=False)
    game = play_until_dealt(courses, players, "daily", django_capture_on_commit_callbacks)
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    message = mail.outbox[0]
    assert f"game {game.pk}" in message.subject and f"/games/{game.pk}/" in message.body


def test_a_real_time_game_sends_no_e_mail(courses, players, eager_tasks, django_capture_on_commit_callbacks):
    play_until_dealt(courses, players, "realtime", django_capture_on_commit_callbacks)
    assert mail.outbox == []
