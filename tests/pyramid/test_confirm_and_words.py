"""The Pyramid's confirmation before a challenge spends points, and its words (issue 38 items 12 and 13): an open
place is "open", never "free" (which is a challenge's price); no "refunded 0 point(s)"."""

import pytest
from django.test import Client

from roboracer.pyramid import services
from roboracer.pyramid.models import Challenge, Entry
from roboracer.pyramid.selectors import _history_text
from tests.pyramid.factories import place, pyramid

pytestmark = pytest.mark.django_db


@pytest.fixture
def pyr(courses):
    return pyramid(courses=courses)


def browser_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_confirmation_says_the_cost_and_what_is_left_and_spends_nothing(pyr, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    place(pyr, ann, 2, 1, points=5)
    place(pyr, ben, 1, 1)
    page = browser_for(ann).get(f"/pyramid/{pyr.slug}/challenge/confirm/?player=ben")
    assert page.status_code == 200
    text = " ".join(page.content.decode().split())
    assert "costs <strong>1 point</strong>: you have 5, <strong id=\"points-left\">4</strong> left after it" in text
    assert 'name="player" value="ben"' in text and "Challenge for 1 point" in text
    assert not Challenge.objects.exists()
    # Whom one may not challenge, a stranger to the pyramid, a missing player, a NUL: back to the page, nothing.
    for query in ("player=ann", "player=nobody", "player=%00"):
        answer = browser_for(ann).get(f"/pyramid/{pyr.slug}/challenge/confirm/?{query}")
        assert answer.status_code == 302 and answer["Location"] == f"/pyramid/{pyr.slug}/"
    stranger = make_user("cat")
    assert browser_for(stranger).get(f"/pyramid/{pyr.slug}/challenge/confirm/?player=ben").status_code == 302
    assert browser_for(ann).get("/pyramid/nope/challenge/confirm/?player=ben").status_code == 404
    assert Client().get(f"/pyramid/{pyr.slug}/challenge/confirm/?player=ben").status_code == 302  # log in first
    assert not Challenge.objects.exists()


def test_an_open_place_is_called_open_and_a_revoke_never_refunds_zero(pyr, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    place(pyr, ann, 2, 1, points=5)
    place(pyr, ben, 1, 1)  # row 2's second place is nobody's
    page = " ".join(browser_for(ann).get(f"/pyramid/{pyr.slug}/").content.decode().split())
    assert page.count('class="pyramid-card empty"') == 1
    assert 'aria-label="an open place: nobody holds it yet">open</li>' in page and ">free</li>" not in page
    challenge = services.create_challenge(user=ann, slug=pyr.slug, player="ben")  # 1 point; half back is 0
    answer = browser_for(ann).post(f"/pyramid/{pyr.slug}/challenges/{challenge.pk}/revoke/", follow=True)
    text = answer.content.decode()
    assert "Challenge revoked; no points back" in text and "refunded 0" not in text
    entry = Entry.objects.filter(kind=Entry.Kind.REVOKED).get()
    assert _history_text(entry) == "ann revoked the challenge of ben (no points back)."


def test_a_defender_is_told_what_they_defend_not_to_challenge_above(pyr, make_user):
    """The walkthrough: bob at the top with two challenges waiting read "press Challenge on a player above you"."""
    ann, ben, bob = make_user("ann"), make_user("ben"), make_user("bob")
    place(pyr, bob, 1, 1)
    place(pyr, ann, 2, 1, points=5)
    place(pyr, ben, 2, 2, points=5)
    top = " ".join(browser_for(bob).get(f"/pyramid/{pyr.slug}/").content.decode().split())
    assert "you are at the top; others challenge you" in top and "player above you" not in top
    for user in (ann, ben):
        services.create_challenge(user=user, slug=pyr.slug, player="bob")
    page = " ".join(browser_for(bob).get(f"/pyramid/{pyr.slug}/").content.decode().split())
    assert "You are defending 2 challenges:" in page and "No open challenge of yours" not in page
    games = list(Challenge.objects.order_by("pk").values_list("game_id", flat=True))
    assert all(f'href="/games/{game}/"' in page for game in games)


def test_the_rules_name_the_games_timers_and_what_a_time_out_does(pyr, make_user):
    """The walkthrough: the confirmation says "with the pyramid's timers" and the rules named none."""
    page = " ".join(browser_for(make_user("ann")).get(f"/pyramid/{pyr.slug}/").content.decode().split())
    assert ("Timers: 3 days a move, 15 days game time; when a player's time runs out: eject the player at once."
            in page)
