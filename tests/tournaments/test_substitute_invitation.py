"""Issue 33 item 15: an organiser cannot put someone into a game unasked. Replacing an entry invites the
substitute; the seat changes hands only when they accept (docs/tournaments.md "Replace")."""

import pytest

from games.models import Game, Seat
from games.services import moves
from roboracer.tournaments import models as tournament_models
from roboracer.tournaments.models import Entry, TableSeat
from tests.games.factories import legal_program
from tests.helpers import client_for, many_players
from tests.tournaments.factories import current_tables, open_tournament, organiser, started, users_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting(make_user, courses):
    """A running 3-player table on turn 1, its organiser, the first seat's entry and a would-be substitute."""
    olga = organiser(make_user)
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=3),
                         many_players(make_user, 3))
    (table,) = current_tables(tournament)
    first = users_at(table)[0]
    return {"olga": olga, "tournament": tournament, "table": table, "first": first, "sub": make_user("sub"),
            "entry": Entry.objects.get(tournament=tournament, user=first)}


def invite(s):
    answer = client_for(s["olga"]).post(f"/api/tournaments/{s['tournament'].pk}/entries/{s['entry'].pk}/replace/",
                                        {"username": "sub"}, format="json")
    assert answer.status_code == 200, answer.content
    return answer


def seat_one(s):
    return Seat.objects.get(game_id=s["table"].game_id, number=1)


def unchanged(s):
    """The seat, the table seat and the entry are all still the old player's."""
    s["entry"].refresh_from_db()
    assert seat_one(s).user == s["first"]
    assert TableSeat.objects.get(table=s["table"], seat=1).entry == s["entry"]
    assert s["entry"].replaced_by is None and s["entry"].withdrawn_at is None
    assert not Entry.objects.filter(tournament=s["tournament"], user=s["sub"]).exists()


def test_replace_leaves_the_seat_with_the_old_player_until_the_invitee_accepts(setting):
    invite(setting)
    unchanged(setting)
    invitation = tournament_models.Substitution.objects.get()
    assert invitation.invitee == setting["sub"] and invitation.status == "pending"
    # the substitute sees it: in the list of their invitations, in the tournament's detail, on its page
    sub = client_for(setting["sub"])
    mine = sub.get("/api/tournaments/invitations/").json()["invitations"]
    assert [(i["id"], i["entry"], i["replacing"]) for i in mine] == [
        (invitation.pk, setting["entry"].pk, setting["first"].username)]
    assert [i["id"] for i in sub.get(f"/api/tournaments/{setting['tournament'].pk}/").json()["invitations"]] == [
        invitation.pk]
    sub.force_login(setting["sub"])
    page = sub.get(f"/tournaments/{setting['tournament'].pk}/").content.decode()
    assert f"You are invited to replace {setting['first'].username}" in page
    # nobody else sees it
    assert client_for(setting["first"]).get("/api/tournaments/invitations/").json()["invitations"] == []


def test_a_strangers_accept_is_a_404_and_changes_nothing(setting, make_user):
    invite(setting)
    invitation = tournament_models.Substitution.objects.get()
    missing = client_for(make_user("mallory")).post("/api/tournaments/invitations/999999/accept/")
    for user in (make_user("eve"), setting["first"], setting["olga"]):
        for action in ("accept", "decline"):
            answer = client_for(user).post(f"/api/tournaments/invitations/{invitation.pk}/{action}/")
            assert answer.status_code == 404, (user, action)
            assert answer.json()["detail"].replace(str(invitation.pk), "N") == \
                missing.json()["detail"].replace("999999", "N")
    assert client_for(setting["sub"]).post(f"/api/tournaments/invitations/{invitation.pk}/cancel/").status_code == 404
    unchanged(setting)
    invitation.refresh_from_db()
    assert invitation.status == "pending"


def test_accept_moves_the_seat(setting):
    invite(setting)
    invitation = tournament_models.Substitution.objects.get()
    sub = client_for(setting["sub"])
    answer = sub.post(f"/api/tournaments/invitations/{invitation.pk}/accept/")
    assert answer.status_code == 200, answer.content
    new = Entry.objects.get(tournament=setting["tournament"], user=setting["sub"])
    setting["entry"].refresh_from_db()
    assert seat_one(setting).user == setting["sub"]
    assert TableSeat.objects.get(table=setting["table"], seat=1).entry == new
    assert setting["entry"].replaced_by == new and setting["entry"].withdrawn_at is not None
    invitation.refresh_from_db()
    assert invitation.status == "accepted"
    # a second accept changes nothing more
    assert sub.post(f"/api/tournaments/invitations/{invitation.pk}/accept/").status_code == 409
    assert Entry.objects.filter(tournament=setting["tournament"], user=setting["sub"]).count() == 1
    # the substitute plays the seat's hand
    game = Game.objects.get(pk=setting["table"].game_id)
    moves.submit_program(user=setting["sub"], game_id=game.pk, turn=1,
                                 chips=legal_program(game, setting["sub"]))


def test_decline_leaves_the_seat(setting):
    invite(setting)
    invitation = tournament_models.Substitution.objects.get()
    sub = client_for(setting["sub"])
    assert sub.post(f"/api/tournaments/invitations/{invitation.pk}/decline/").status_code == 200
    invitation.refresh_from_db()
    assert invitation.status == "declined"
    assert sub.post(f"/api/tournaments/invitations/{invitation.pk}/accept/").status_code == 409
    unchanged(setting)


def test_the_organiser_cancels_and_the_invitation_is_gone(setting):
    invite(setting)
    invitation = tournament_models.Substitution.objects.get()
    detail = client_for(setting["olga"]).get(f"/api/tournaments/{setting['tournament'].pk}/").json()
    assert [i["id"] for i in detail["substitutions"]] == [invitation.pk]
    assert "substitutions" not in client_for(setting["sub"]).get(
        f"/api/tournaments/{setting['tournament'].pk}/").json()
    # one invitation per seat at a time
    again = client_for(setting["olga"]).post(
        f"/api/tournaments/{setting['tournament'].pk}/entries/{setting['entry'].pk}/replace/",
        {"username": "sub"}, format="json")
    assert again.status_code == 409
    assert client_for(setting["olga"]).post(f"/api/tournaments/invitations/{invitation.pk}/cancel/").status_code == 200
    assert client_for(setting["sub"]).get("/api/tournaments/invitations/").json()["invitations"] == []
    assert client_for(setting["sub"]).post(f"/api/tournaments/invitations/{invitation.pk}/accept/").status_code == 409
    unchanged(setting)


def test_accept_after_the_game_moved_on_is_refused_and_changes_nothing(setting):
    invite(setting)
    invitation = tournament_models.Substitution.objects.get()
    game = Game.objects.get(pk=setting["table"].game_id)
    moves.submit_program(user=setting["first"], game_id=game.pk, turn=1,
                                 chips=legal_program(game, setting["first"]))
    answer = client_for(setting["sub"]).post(f"/api/tournaments/invitations/{invitation.pk}/accept/")
    assert answer.status_code == 409 and "first move" in answer.json()["detail"]
    unchanged(setting)
    invitation.refresh_from_db()
    assert invitation.status == "pending"


def test_the_pages_invite_accept_and_cancel(setting, client):
    client.force_login(setting["olga"])
    answer = client.post(f"/tournaments/{setting['tournament'].pk}/organise/",
                         {"action": "replace", "entry": setting["entry"].pk, "username": "sub"}, follow=True)
    assert "Invitation sent" in answer.content.decode()
    unchanged(setting)
    invitation = tournament_models.Substitution.objects.get()
    assert f'id="cancel-invitation-{invitation.pk}"' in answer.content.decode()
    assert client.post(f"/tournaments/invitations/{invitation.pk}/", {"action": "accept"}).status_code == 404
    unchanged(setting)
    client.force_login(setting["sub"])
    assert client.post(f"/tournaments/invitations/{invitation.pk}/", {"action": "accept"}).status_code == 302
    assert seat_one(setting).user == setting["sub"]
