"""The site's forms in Chromium, on a phone: the create form hides the custom timer fields unless the custom
preset is chosen and shows the course preview before its button; sign-up errors are red, not grey."""

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import PHONE, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_create_form_on_a_phone(live_stack, courses, new_page):
    base = live_stack.base_url
    page, _ = new_page("ada", PHONE)
    sign_up(page, base, "ada")
    page.wait_for_selector(".create-game .course-preview svg.rr-board")
    assert not page.is_visible("#id_move_minutes") and not page.is_visible("#id_game_minutes")
    page.select_option("#id_timer_preset", "custom")
    assert page.is_visible("#id_move_minutes") and page.is_visible("#id_game_minutes")
    preview = page.locator(".create-game .course-preview").bounding_box()
    button = page.locator("#create-game-submit").bounding_box()
    assert preview["y"] + preview["height"] <= button["y"], (preview, button)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "create-form-phone.png"), full_page=True)
    page.goto(f"{base}/profile/")  # colours by name with a swatch; no address, so no e-mail box ticked
    assert page.locator("label:has(.swatch)").count() == 8 and page.is_visible("label:has-text('red')")
    assert not page.is_checked("#id_e_mail_turns")
    page.screenshot(path=str(ARTIFACTS / "profile-phone.png"), full_page=True)


def test_sign_up_errors_are_red_and_say_what_is_wrong(live_stack, courses, new_page):
    base = live_stack.base_url
    page, _ = new_page("ben", PHONE)
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", "Ben<x")
    page.fill("#id_password1", "a much longer password 7")
    page.fill("#id_password2", "a much longer password 7")
    page.click("#signup-submit")
    error = page.locator("#id_username_error")
    assert error.inner_text().startswith("'<' is not allowed; use letters a-z")
    assert error.evaluate("e => getComputedStyle(e).color") == "rgb(185, 28, 28)"
    help_colour = page.locator("#id_username_helptext").evaluate("e => getComputedStyle(e).color")
    assert help_colour != "rgb(185, 28, 28)"
    page.screenshot(path=str(ARTIFACTS / "signup-error-phone.png"), full_page=True)
