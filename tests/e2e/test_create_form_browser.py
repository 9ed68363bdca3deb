"""The create form shows only what applies (issue 37, item 14), on a phone and a desktop: RoboRace hides lives,
modules and team play (and sends none), the course list marks arenas and puzzles, the phone's selects and
checkboxes are full size, and the course links go with RoboRacer's form only.
Screenshots: var/test-artifacts/create-form-*.png."""

import pytest

from games.models import Game
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
HIDDEN_IN_ROBORACE = ("lives", "all_modules", "modules", "teams")


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1440, "height": 900}],
                         ids=["phone", "desktop"])
def test_the_create_form_follows_the_ruleset(live_stack, courses, new_page, viewport):
    base = live_stack.base_url
    name = "phone" if viewport["width"] < 500 else "desktop"
    page, console = new_page("creator", viewport)
    sign_up(page, base, f"maker{viewport['width']}")
    page.wait_for_selector("#create-game")
    row = "el => (el.closest('p') || el).hidden"
    for field in HIDDEN_IN_ROBORACE:
        assert page.eval_on_selector(f"#id_{field}", row) is False, field
    labels = page.eval_on_selector_all("#id_course option", "os => os.map(o => o.textContent)")
    assert any(label.endswith("(arena)") for label in labels), labels
    assert not any("(race)" in label for label in labels)
    if name == "phone":
        for selector in ("#id_ruleset", "#id_course", "#id_timer_preset"):
            width, height = page.eval_on_selector(selector, "s => [s.getBoundingClientRect().width, s.getBoundingClientRect().height]")
            form_width = page.eval_on_selector(".create-fields", "f => f.getBoundingClientRect().width")
            assert width >= form_width - 2 and height >= 44, (selector, width, height, form_width)
        box = page.eval_on_selector("#id_teams", "b => b.getBoundingClientRect().width")
        assert box >= 20, box
    page.check("#id_teams")
    page.check("#id_modules_0")
    page.select_option("#id_ruleset", "roborace")
    for field in HIDDEN_IN_ROBORACE:
        assert page.eval_on_selector(f"#id_{field}", row) is True, field
    assert not page.is_checked("#id_teams") and not page.is_checked("#id_modules_0")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"create-form-roborace-{name}.png"), full_page=True)
    # The links to the courses go with RoboRacer's form, not with RAMbots'.
    assert page.is_visible("#create-course-links")
    page.check("input[name=create-kind][value=rambots]")
    assert page.is_hidden("#create-course-links")
    page.check("input[name=create-kind][value=roboracer]")
    # A RoboRace game is made without the hidden fields' values.
    page.select_option("#id_course", label=page.eval_on_selector(
        "#id_course", "s => [...s.options].find(o => !o.disabled).textContent"))
    page.click("#create-game-submit")
    page.wait_for_url(f"{base}/games/*/")
    game = Game.objects.order_by("-pk").first()
    assert game.ruleset == "roborace" and not game.modules and not game.teams
    assert not console.errors, console.errors
