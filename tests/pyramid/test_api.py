"""The Pyramid's API and pages: the same actions, thin over the services; hostile input and strangers get 4xx
that reveal nothing."""

import json

import pytest

from games.models import Game
from roboracer.pyramid.models import Challenge, Place
from tests.pyramid.factories import place, play_out, pyramid


@pytest.fixture
def pyr(courses):
    return pyramid(courses=courses)


@pytest.fixture
def ann(make_user):
    return make_user("ann")


@pytest.fixture
def ben(make_user):
    return make_user("ben")


def client_for(client, user):
    client.force_login(user)
    return client


def post(client, url, data=None):
    return client.post(url, data=json.dumps(data) if data is not None else None, content_type="application/json")


def test_the_api_needs_a_signed_in_player(client, pyr):
    assert client.get("/api/pyramids/").status_code == 403
    assert client.get(f"/api/pyramids/{pyr.slug}/").status_code == 403
    assert post(client, f"/api/pyramids/{pyr.slug}/join/").status_code == 403
    assert not Place.objects.exists()


def test_join_challenge_and_revoke_through_the_api(client, pyr, ann, ben):
    c = client_for(client, ann)
    answer = post(c, f"/api/pyramids/{pyr.slug}/join/")
    assert answer.status_code == 201
    assert answer.json()["me"] == {"row": 1, "position": 1, "points": 2, "open_challenge": None, "defending": []}
    assert post(c, f"/api/pyramids/{pyr.slug}/join/").status_code == 409
    c.force_login(ben)
    assert post(c, f"/api/pyramids/{pyr.slug}/join/").status_code == 201
    state = c.get(f"/api/pyramids/{pyr.slug}/").json()
    assert [[p["username"] for p in row if p] for row in state["rows"]] == [["ann"], ["ben"]]
    assert state["rows"][0][0]["challenge_cost"] == 1 and state["rows"][0][0]["can_challenge"] is True
    made = post(c, f"/api/pyramids/{pyr.slug}/challenges/", {"player": "ann"})
    assert made.status_code == 201, made.json()
    challenge = made.json()
    assert (challenge["challenger"], challenge["defender"], challenge["cost"], challenge["pending"]) == (
        "ben", "ann", 1, True)
    assert Game.objects.get(pk=challenge["game"]).status == Game.Status.PROGRAMMING
    assert {"slug": pyr.slug, "name": pyr.name, "players": 2} in c.get("/api/pyramids/").json()
    revoked = post(c, f"/api/pyramids/{pyr.slug}/challenges/{challenge['id']}/revoke/")
    assert revoked.status_code == 200
    assert revoked.json() == {"id": challenge["id"], "status": "revoked", "game": challenge["game"], "cost": 1,
                              "points_change": 0}
    assert c.get(f"/api/pyramids/{pyr.slug}/").json()["me"]["points"] == 1


@pytest.mark.parametrize("body", [
    {}, {"player": ""}, {"player": ["ann"]}, {"player": {"a": {"b": {}}}}, {"player": "x" * 151},
    [1, 2], "ann", None,
])
def test_hostile_challenge_bodies_are_refused_with_a_400(client, pyr, ann, ben, body):
    place(pyr, ann, 1, 1)
    place(pyr, ben, 2, 1)
    c = client_for(client, ben)
    answer = c.post(f"/api/pyramids/{pyr.slug}/challenges/", data=json.dumps(body), content_type="application/json")
    assert answer.status_code == 400 and "detail" in answer.json()
    assert not Challenge.objects.exists()


def test_deeply_nested_and_binary_bodies_are_refused(client, pyr, ann, ben):
    place(pyr, ann, 1, 1)
    place(pyr, ben, 2, 1)
    c = client_for(client, ben)
    deep = "[" * 100_000 + "]" * 100_000
    url = f"/api/pyramids/{pyr.slug}/challenges/"
    assert c.post(url, data=deep, content_type="application/json").status_code == 400
    assert c.post(url, data=b"\xff\xfe\x00binary", content_type="application/json").status_code == 400
    for name, code in (("ann\u202e\U0001f916", 404), ("ann\x00", 400), ("\x00", 400)):  # DRF refuses NUL
        assert c.post(url, data=json.dumps({"player": name}), content_type="application/json").status_code == code
    assert c.post(f"/pyramid/{pyr.slug}/challenge/", {"player": "an\x00n"}, follow=True).status_code == 200
    assert not Challenge.objects.exists()


def test_strangers_and_missing_things_look_the_same(client, pyr, ann, ben, make_user):
    place(pyr, ann, 1, 1)
    place(pyr, ben, 2, 1)
    c = client_for(client, ben)
    challenge = post(c, f"/api/pyramids/{pyr.slug}/challenges/", {"player": "ann"}).json()
    c.force_login(make_user("eve"))
    theirs = post(c, f"/api/pyramids/{pyr.slug}/challenges/{challenge['id']}/revoke/")
    missing = post(c, f"/api/pyramids/{pyr.slug}/challenges/999999/revoke/")
    assert theirs.status_code == missing.status_code == 404
    assert theirs.json()["detail"].replace(str(challenge["id"]), "N") == missing.json()["detail"].replace("999999", "N")
    assert c.get("/api/pyramids/nope/").status_code == 404
    assert post(c, "/api/pyramids/nope/join/").status_code == 404
    # eve is not in the pyramid: she may not challenge (403), and the challenge is still open.
    assert post(c, f"/api/pyramids/{pyr.slug}/challenges/", {"player": "ann"}).status_code == 403
    assert Challenge.objects.get().status == Challenge.Status.OPEN


def test_the_page_offers_join_then_challenge_then_revoke_and_shows_the_swap(client, pyr, ann, ben):
    page = client.get(f"/pyramid/{pyr.slug}/")
    assert page.status_code == 200 and "Log in" in page.content.decode()
    place(pyr, ann, 1, 1)
    c = client_for(client, ben)
    html = c.get(f"/pyramid/{pyr.slug}/").content.decode()
    assert 'id="join-pyramid"' in html
    assert c.post(f"/pyramid/{pyr.slug}/join/").status_code == 302
    html = c.get(f"/pyramid/{pyr.slug}/").content.decode()
    assert "You joined the pyramid in row 2." in html and "<span>Challenge</span> · <span>1 pt</span>" in html
    c.post(f"/pyramid/{pyr.slug}/challenge/", {"player": "ann"})
    html = c.get(f"/pyramid/{pyr.slug}/").content.decode()
    challenge = Challenge.objects.get()
    assert f'href="/games/{challenge.game_id}/"' in html and 'id="revoke-challenge"' in html
    assert "ben challenged ann (1 point)." in html
    play_out(Game.objects.get(pk=challenge.game_id), winner=1)
    html = c.get(f"/pyramid/{pyr.slug}/").content.decode()
    assert "ben beat ann: they swapped places, ben is now in row 1." in html
    assert 'id="revoke-challenge"' not in html
    assert {p.user.username: p.rank for p in Place.objects.all()} == {"ben": (1, 1), "ann": (2, 1)}


def test_a_refused_form_is_a_flash_and_a_missing_pyramid_a_404(client, pyr, ann, ben):
    place(pyr, ann, 2, 1)
    place(pyr, ben, 1, 1)
    c = client_for(client, ann)
    answer = c.post(f"/pyramid/{pyr.slug}/challenge/", {"player": "ben" * 100}, follow=True)
    assert answer.status_code == 200 and "there is no player" in answer.content.decode()
    assert c.post("/pyramid/nope/challenge/", {"player": "ben"}).status_code == 404
    assert c.get("/pyramid/nope/").status_code == 404
    assert c.get(f"/pyramid/{pyr.slug}/challenge/").status_code == 405
    assert not Challenge.objects.exists()


def test_the_list_goes_straight_to_the_only_pyramid(client, pyr, courses):
    from roboracer.pyramid.models import Pyramid

    Pyramid.objects.exclude(pk=pyr.pk).delete()
    assert client.get("/pyramid/").url == f"/pyramid/{pyr.slug}/"
    pyramid(courses=courses, slug="second")
    assert "Pyramid second" in client.get("/pyramid/").content.decode()


def test_out_of_range_ids_are_missing_not_errors(client, pyr, ann):
    place(pyr, ann, 1, 1)
    c = client_for(client, ann)
    for number in (2**31, 2**63, 10**30):
        assert post(c, f"/api/pyramids/{pyr.slug}/challenges/{number}/revoke/").status_code == 404
        assert c.post(f"/pyramid/{pyr.slug}/challenges/{number}/revoke/").status_code == 302


def test_staff_see_pyramids_places_challenges_and_history_in_the_admin(client, pyr, ann, ben, make_user):
    place(pyr, ann, 1, 1)
    place(pyr, ben, 2, 1)
    c = client_for(client, ben)
    post(c, f"/api/pyramids/{pyr.slug}/challenges/", {"player": "ann"})
    c.force_login(make_user("root", is_staff=True, is_superuser=True))
    for model in ("pyramid", "place", "challenge", "entry"):
        listing = c.get(f"/admin/pyramid/{model}/")
        assert listing.status_code == 200, model
    assert c.get(f"/admin/pyramid/pyramid/{pyr.pk}/change/").status_code == 200
    assert c.get(f"/admin/pyramid/challenge/{Challenge.objects.get().pk}/change/").status_code == 200
    assert c.get("/admin/pyramid/pyramid/add/").status_code == 200


def test_the_pyramid_tells_nobody_a_hand_or_a_program(client, pyr, ann, ben, make_user):
    place(pyr, ann, 1, 1)
    place(pyr, ben, 2, 1)
    c = client_for(client, ben)
    challenge = post(c, f"/api/pyramids/{pyr.slug}/challenges/", {"player": "ann"}).json()
    game = Game.objects.get(pk=challenge["game"])
    from games.models import Hand
    from games.services import moves

    hand = Hand.objects.get(seat__game=game, seat__user=ben, turn=1).chips
    moves.submit_program(user=ben, game_id=game.pk, turn=1, chips=hand[:5])
    for viewer in (ann, ben, make_user("eve")):
        c.force_login(viewer)
        for text in (c.get(f"/api/pyramids/{pyr.slug}/").content.decode(),
                     c.get(f"/pyramid/{pyr.slug}/").content.decode()):
            assert '"chips"' not in text and '"hand"' not in text and "program\":" not in text
            assert json.dumps(hand) not in text and json.dumps(hand[:5]) not in text
