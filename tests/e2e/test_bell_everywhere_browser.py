"""The bell rings live on the Pyramid's and the tournaments' pages too (the organisers' walkthrough: bob, on the
Pyramid page, was challenged and his bell stayed at 0 until he opened the lobby). Phone and desktop."""

import pytest

from roboracer.pyramid.models import Pyramid
from roboracer.pyramid.services import create_challenge, join_pyramid
from tests.helpers import log_in
from tests.pyramid.factories import pyramid

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("path,viewport", [
    ("/pyramid/main/", {"width": 390, "height": 844}), ("/tournaments/", {"width": 1440, "height": 900})])
def test_a_challenge_rings_the_bell_on_pages_other_than_the_lobby(live_stack, courses, new_page, make_user, path,
                                                                   viewport):
    Pyramid.objects.all().delete()  # the site's own ("main"), if the migration's row is still there
    pyramid(courses=courses, slug="main")
    bob, cat = make_user("bob"), make_user("cat")
    for user in (bob, cat):
        join_pyramid(user=user, slug="main")
    page, console = new_page("bob", viewport)
    log_in(page, live_stack.base_url, "bob")
    page.goto(f"{live_stack.base_url}{path}")
    # The notices socket is open (its group joined) before cat challenges: a notice sent earlier is lost by design.
    page.wait_for_function("() => window.roboracerNotices?.socket?.ws?.readyState === 1")
    before = page.inner_text("#rr-bell-count") if page.is_visible("#rr-bell-count") else "0"
    page.evaluate("() => { window.notReloaded = true; }")
    create_challenge(user=cat, slug="main", player="bob")  # cat sits below bob: a challenge up
    page.wait_for_function("n => (document.querySelector('#rr-bell-count')?.textContent || '0') === String(n)",
                           arg=int(before or 0) + 1)
    assert page.evaluate("() => window.notReloaded === true")
    assert not console.errors, console.errors
