"""Arena remains are visible (issue 37 item 12): a piece of remains on Scrap Pit's plain floor is drawn at least
half a square wide and its heap's colour has a contrast of at least 3 against the floor's, on a phone (390x844)
and a desktop (1440x900). Screenshots of both."""


import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_modules import api
from tests.e2e.test_play_three_turns import sign_up
from tests.e2e.test_screen_bubbles import contrast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_remains_are_big_and_contrasted(live_stack, courses, new_page):
    from games.models import Game

    base = live_stack.base_url
    alice, _ = new_page("alice", {"width": 1440, "height": 900})
    bob, _ = new_page("bob", {"width": 390, "height": 844})
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)
    created = api(alice, "POST", "/api/games/", {"course": "scrap-pit", "max_seats": 2, "lives": 1})
    assert created["status"] == 201, created
    game_id = created["body"]["id"]
    assert api(bob, "POST", f"/api/games/{game_id}/join/")["status"] == 200
    game = Game.objects.get(pk=game_id)
    occupied = {tuple(e["at"]) for e in game.course_data["elements"] if e.get("at") and e["type"] != "floor"}
    occupied |= {tuple(bot["pos"]) for bot in game.state["bots"] if bot.get("pos")}
    square = next([x, y] for y in range(game.course_data["height"]) for x in range(game.course_data["width"])
                  if (x, y) not in occupied)
    game.state = {**game.state, "remains": [square]}
    game.save(update_fields=["state"])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    seen = []
    for page, name in ((alice, "desktop"), (bob, "phone")):
        page.goto(f"{base}/games/{game_id}/?speed=0")
        # The game starts once both are seated. The board may be drawn again when the socket's snapshot arrives,
        # so the remains are found, scrolled to and measured in one step, never through a handle a redraw detaches.
        page.wait_for_function("() => document.querySelector('#game-status')?.textContent"
                               ".includes('Turn 1 — programming')")
        page.wait_for_selector(".layer-remains g.remains")
        measured = page.evaluate("""() => {
            const g = document.querySelector('.layer-remains g.remains');
            g.scrollIntoView({block: 'center', inline: 'center'});
            const heap = g.querySelector('.remains-heap');
            const tile = document.querySelector('.tile');
            return {heap: heap.getBoundingClientRect().width, tile: tile.getBoundingClientRect().width,
                    fill: getComputedStyle(heap).fill, floor: getComputedStyle(tile).fill};
        }""")
        page.screenshot(path=str(ARTIFACTS / f"remains-{name}.png"))
        seen.append(measured)
    for measured in seen:  # both screenshots first, then the checks
        assert measured["heap"] >= 0.6 * measured["tile"], measured
        assert contrast(measured["fill"], measured["floor"]) >= 3, measured
