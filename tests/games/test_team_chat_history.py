"""Issue 33 security item 13: team chat in a team game's lobby shows a player only what was said in their team
while they were in it: a player moved to the other team does not read what that team said before, and a
player who joins a team late does not read its earlier lines (snapshot and the chat API alike)."""

import pytest
from rest_framework.test import APIClient

from games.selectors import snapshots
from games.services import chat, lobby, team_play


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def texts_seen(game, user) -> tuple[list[str], list[str]]:
    """(the chat in user's snapshot, the chat the API's history gives them)."""
    game.refresh_from_db()
    snapshot = [line["text"] for line in snapshots.game_snapshot(game=game, user=user)["chat"]]
    answer = client_for(user).get(f"/api/games/{game.pk}/chat/", {"before": 10**9})
    assert answer.status_code == 200, answer.content
    return snapshot, [line["text"] for line in answer.json()["messages"]]


@pytest.mark.django_db
def test_team_chat_in_the_lobby_shows_only_what_was_said_in_the_team_while_one_was_in_it(courses, make_user):
    alice, bob, carol, dave, sam = (make_user(name) for name in ("alice", "bob", "carol", "dave", "sam"))
    game = lobby.create_game(user=alice, course=courses["twin-lanes"], max_seats=4, teams=True)
    lobby.join_game(user=bob, game_id=game.pk)
    lobby.join_game(user=carol, game_id=game.pk)
    team_play.choose_team(user=alice, game_id=game.pk, team="blue")
    team_play.choose_team(user=bob, game_id=game.pk, team="blue")
    team_play.choose_team(user=carol, game_id=game.pk, team="orange")
    chat.post_chat(user=alice, game_id=game.pk, text="blue plan: rush the left lane")
    chat.post_chat(user=carol, game_id=game.pk, text="orange plan: wait at the pit")
    chat.post_chat(user=bob, game_id=game.pk, text="@all good luck everyone")

    # carol moves to blue: she reads what blue says from now on, never blue's earlier plan; she keeps orange's
    # line (said in her team while she was in it).
    team_play.choose_team(user=carol, game_id=game.pk, team="blue")
    # dave joins late, on orange: nothing orange said before him.
    lobby.join_game(user=dave, game_id=game.pk)
    team_play.choose_team(user=dave, game_id=game.pk, team="orange")
    chat.post_chat(user=bob, game_id=game.pk, text="blue, now with carol")

    expected = {
        alice: ["blue plan: rush the left lane", "good luck everyone", "blue, now with carol"],
        bob: ["blue plan: rush the left lane", "good luck everyone", "blue, now with carol"],
        carol: ["orange plan: wait at the pit", "good luck everyone", "blue, now with carol"],
        dave: ["good luck everyone"],
        sam: ["good luck everyone"],  # a spectator reads no team's chat
    }
    for user, lines in expected.items():
        snapshot, history = texts_seen(game, user)
        assert snapshot == lines, user.username
        assert history == lines, user.username
