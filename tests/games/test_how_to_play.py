"""The how-to-play page: open to everyone and linked from every page; an anchor `element-<type>` for every
element type the engine registers (what the boards' legends link to), each with an example board that is a
legal course fragment by the engine's own parser; and the rules sections the legend and the page link to."""

import re
from pathlib import Path

import pytest
from django.test import Client

import engine
from engine.elements import ELEMENT_TYPES
from roboracer.common import how_to_play
from tests.games.test_pages import json_scripts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def page(db) -> str:
    response = Client().get("/how-to-play/")
    assert response.status_code == 200
    return response.content.decode()


def anchors(html: str) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', html))


def test_every_registered_element_type_has_an_anchor_and_an_example_board(page):
    ids = anchors(page)
    examples = json_scripts(page)["howto-examples"]
    for kind in ELEMENT_TYPES:
        assert f"element-{kind}" in ids, f"no anchor for {kind}"
        section = page.split(f'id="element-{kind}"')[1].split("</section>")[0]
        assert f'data-howto-board="{kind}"' in section and "<h3" in section
        assert examples[kind]["elements"], kind
        assert any(e["type"] == kind for e in examples[kind]["elements"]), f"the {kind} example lacks a {kind}"


@pytest.mark.parametrize("kind", sorted(how_to_play.examples()))
def test_each_example_board_is_a_legal_course_fragment(kind):
    """With a start and a check point added in a row of their own (a course needs both), the engine accepts
    the example: the page never shows a layout the game could not have."""
    example = how_to_play.examples()[kind]
    width, height = example["width"], example["height"]
    elements = list(example["elements"])
    if not any(e["type"] == "start" for e in elements):
        elements.append({"type": "start", "at": [0, height], "number": 1, "dir": "N"})
    if not any(e["type"] == "checkpoint" for e in elements):
        elements.append({"type": "checkpoint", "at": [width - 1, height], "number": 1})
    engine.parse_course({"format": "roboracer-course/1", "name": kind, "width": width, "height": height + 1,
                         "mode": "race", "players": [1, 1], "elements": elements})
    for bot in example["bots"]:
        assert 0 <= bot["at"][0] < width and 0 <= bot["at"][1] < height and bot["dir"] in "NESW"
    for square in example["path"]:
        assert 0 <= square[0] < width and 0 <= square[1] < height


def test_every_legend_link_of_the_board_finds_its_anchor(page):
    """frontend/src/legend.ts (the board's legend) links each legend line to /how-to-play/#element-<type> (types
    from the engine's catalog, which the build writes for the browser: elements.ts's LEGEND) and the robot line
    to #robots: each of those ids is on the page."""
    from engine.catalog import browser_catalog

    legend_source = (ROOT / "frontend" / "src" / "legend.ts").read_text()
    assert ('HOW_TO_PLAY = "/how-to-play/"' in legend_source and "`element-${type}`" in legend_source
            and '"robots");' in legend_source)
    assert "export const LEGEND: Record<string, string> = legend;" in (ROOT / "frontend" / "src" / "catalog.ts").read_text()
    types = set(browser_catalog()["legend"])
    assert len(types) == len(ELEMENT_TYPES) - 1  # every element but the floor has its legend line
    assert {f"element-{t}" for t in types} | {"robots"} <= anchors(page)


def test_the_rules_sections_are_there(page):
    ids = anchors(page)
    for section in ("winning", "programming", "phases", "priority", "damage", "robots", "virtual", "rebooting",
                    "timers", "chat", "elements"):
        assert section in ids and f'href="#{section}"' in page, section
    for command in ("!eject", "!archive"):
        assert f"<code>{command}</code>" in page
    # Team chat is a box to tick now; the page no longer teaches the "@all" prefix.
    assert "@all" not in page
    assert 'src="/static/dist/howto.js"' in page


def test_every_page_links_to_how_to_play(courses, make_user):
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    game = client.post("/", {"course": courses["tiny-yard"].pk, "max_seats": 2, "lives": 3, "visibility": "public",
                             "timer_preset": "realtime", "timeout_policy": "wait"})
    assert game.status_code == 302
    for url in ("/", "/courses/", "/courses/tiny-yard/", game["Location"], "/accounts/profile/", "/how-to-play/",
                "/no-such-page/"):
        response = client.get(url)
        assert '<a href="/how-to-play/">How to play</a>' in response.content.decode(), url
    assert '<a href="/how-to-play/">' in Client().get("/accounts/login/").content.decode()


def test_the_modules_section_lists_every_module_and_a_worked_economy_example(page):
    from engine.modules import MODULE_NAMES
    from engine.modules.economy import charge_cost

    ids = anchors(page)
    assert {"modules", "modules-actions", "modules-battery", "modules-economy"} <= ids
    assert {f"module-{name}" for name in MODULE_NAMES} <= ids
    assert [entry["type"] for entry in how_to_play.module_entries()] == list(MODULE_NAMES)
    # The worked example is the engine's own arithmetic: three Shield charges one after another.
    example = how_to_play.economy_example()
    prices = {name.lower(): price for name, price in example["start"].items()}
    total, after = charge_cost(prices, "shield", 3)
    assert example["steps"][-1]["total"] == total == 558
    assert {name.lower(): price for name, price in example["steps"][-1]["after"].items()} == after
    assert f"+3 Charge ({total})" in page
    assert "Turbo +2 250" in page


def test_every_control_the_page_names_is_on_the_screen(page):
    """The page names the game's controls (`<strong class="control">`) by the words the screens show: each is
    the label of a control in the browser's code (frontend/src) or a page template, so that renaming a button
    fails here until the page says the new name (it once said "Press Reboot" for a checkbox)."""
    named = [" ".join(text.split()) for text in re.findall(r'<strong class="control">(.*?)</strong>', page, re.S)]
    assert len(named) >= 8 and {"Reboot this turn", "Submit program", "To everyone"} <= set(named)
    lines = [line for folder in ("frontend/src", "games/templates") for path in (ROOT / folder).rglob("*")
             if path.suffix in {".ts", ".html"} and path.name != "how_to_play.html"
             for line in path.read_text().splitlines()]
    labels = {label for line in lines for label in re.findall(r'"\s*([^"<>]+?)\s*"', line)}
    labels |= {label for line in lines for label in re.findall(r">\s*([^<>]+?)\s*<", line)}
    missing = [name for name in named if not any(label == name or label.startswith(f"{name} (") for label in labels)]
    assert not missing, f"the page names controls the screens don't have: {missing}"
    assert "Reboot" not in labels and "Press Reboot" not in labels  # the old wording would have failed
