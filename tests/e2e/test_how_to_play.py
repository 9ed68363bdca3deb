"""The how-to-play page in Chromium: every example board is drawn by the real board renderer (robots, paths
and all), every link of a course's legend (Element Expo uses every element) leads to an anchor on the page,
and following one scrolls to that element. Screenshots, desktop and phone; no sideways scrolling on the
phone; no console errors."""

import pytest

from engine.elements import ELEMENT_TYPES
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import DESKTOP, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_examples_are_drawn_and_every_legend_link_lands_on_its_element(live_stack, courses, new_page):
    base = live_stack.base_url
    page, console = new_page("visitor", DESKTOP)

    page.goto(f"{base}/courses/element-expo/")
    page.wait_for_selector(".rr-legend[open] li a")
    items = page.locator(".rr-legend li").count()
    hrefs = page.eval_on_selector_all(".rr-legend li a", "els => els.map(a => a.getAttribute('href'))")
    assert len(hrefs) == items and items >= 30  # every element type Element Expo shows, and the robot
    assert all(h.startswith("/how-to-play/#") for h in hrefs), hrefs
    page.click(".rr-legend li a[href='/how-to-play/#element-belt']")
    page.wait_for_url(f"{base}/how-to-play/#element-belt")
    page.wait_for_selector("#howto-root[data-drawn='1']")
    assert page.evaluate("() => document.querySelector(':target')?.id") == "element-belt"
    box = page.locator("#element-belt").bounding_box()
    assert 0 <= box["y"] < DESKTOP["height"]  # scrolled to it
    missing = page.evaluate("ids => ids.filter(id => !document.getElementById(id))", [h.split("#")[1] for h in hrefs])
    assert missing == []

    # Every placeholder has its board, every element its section, the robots and chips their pictures.
    boards = page.locator("[data-howto-board]")
    assert boards.count() == page.locator("[data-howto-board] svg.rr-board").count() >= len(ELEMENT_TYPES) + 2
    assert page.locator(".howto-element").count() == len(ELEMENT_TYPES)
    assert page.locator("#element-belt g.bot").count() == 2  # robot 1 and where it ends up
    assert page.locator("#element-belt .howto-path polyline").count() == 1
    assert page.locator("#robots .fx-shot").count() == 1
    assert page.locator(".chip-sample svg.chip-icon").count() == 4
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{base}/how-to-play/")
    page.wait_for_selector("#howto-root[data-drawn='1']")
    page.screenshot(path=str(ARTIFACTS / "how-to-play-desktop.png"), full_page=True)

    phone, phone_console = new_page("phone", PHONE)
    phone.goto(f"{base}/how-to-play/")
    phone.wait_for_selector("#howto-root[data-drawn='1']")
    phone.screenshot(path=str(ARTIFACTS / "how-to-play-phone.png"), full_page=True)
    wide = phone.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map(e => `${e.tagName}#${e.id}.${e.className}`).slice(0, 8)""")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], wide
    assert console.errors == [] and phone_console.errors == []
