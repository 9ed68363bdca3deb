"""The organiser's page: an action that cannot be undone has its "I am sure" tick right before its own button,
in a box of its own, not between two forms' buttons."""

import re

import pytest

from tests.tournaments.factories import open_tournament, organiser

pytestmark = pytest.mark.django_db


def test_each_i_am_sure_tick_sits_with_its_own_button(make_user, courses, client):
    olga = organiser(make_user)
    tournament = open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]])
    client.force_login(make_user("ann"))
    client.post(f"/tournaments/{tournament.pk}/register/")
    client.force_login(olga)
    page = client.get(f"/tournaments/{tournament.pk}/organise/").content.decode()
    for action in ("end", "disqualify"):  # each button's id is its action's name
        form = re.search(rf'<form method="post" class="t-confirm">(?:(?!</form>).)*?value="{action}">(.*?)</form>',
                         page, re.S)
        assert form, (action, page)
        assert re.search(rf'<span class="t-confirm-pair"><label><input type="checkbox" name="confirm" value="yes" '
                         rf'required id="{action}-confirm"> I am sure</label> <button type="submit" id="{action}">',
                         form.group(1)), form.group(1)
    assert page.count("I am sure") == 2
