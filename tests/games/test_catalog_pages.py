"""The catalog is the one source of names (issue 36): the pages show each unit's own words from engine/ (its
file's `title`, `help`, `base_price`), and no copy of those words is left in the site's code or the browser's."""

import ast
import html
from pathlib import Path

import pytest
from django.test import Client

import engine
from engine.catalog import catalog
from engine.elements import ELEMENT_TYPES

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def howto(db) -> str:
    response = Client().get("/how-to-play/")
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_how_to_play_shows_each_elements_and_modules_own_words(howto):
    for entry in catalog()["elements"]:
        section = howto.split(f'id="element-{entry["type"]}"')[1].split("</section>")[0]
        assert entry["name"] in section and entry["help"] in section, entry["type"]
    for entry in catalog()["modules"]:
        section = howto.split(f'id="module-{entry["type"]}"')[1]
        section = section[: section.index('id="module-', 1) if 'id="module-' in section else len(section)]
        assert entry["name"] in section and entry["help"] in section, entry["type"]
        assert str(entry["base_price"]) in section, entry["type"]


def test_the_create_form_names_rulesets_and_modules_by_the_catalog(courses, make_user):
    client = Client()
    client.force_login(make_user("alice"))
    page = html.unescape(client.get("/").content.decode())
    for entry in catalog()["rulesets"]:
        if entry["site"]:
            assert f">{entry['label']}<" in page, entry["name"]
    for entry in catalog()["modules"]:
        assert f'value="{entry["type"]}"' in page and f" {entry['name']}</label>" in page, entry["type"]


def test_the_gallery_counts_elements_by_their_own_names(db):
    from roboracer.courses import selectors

    data = {"elements": [{"type": "damaged_tile"}, {"type": "damaged_tile"}, {"type": "belt"}, {"type": "rail"},
                         {"type": "floor"}, {"type": "no_such_thing"}]}
    assert selectors.element_summary(data=data) == ["1 conveyor belt", "2 damaged tiles", "1 rail", "1 no such thing"]


def _sources() -> list[Path]:
    found = []
    for top in ("games", "roboracer", "frontend/src", "static", "tests/games", "tests/e2e"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in {".py", ".html", ".ts", ".js"} and "dist" not in path.parts and path.is_file():
                found.append(path)
    return found


def _texts(path: Path) -> list[str]:
    """A file's text as its words are written: a Python file's string constants (implicitly joined ones as one),
    any other file with its runs of white space made one space."""
    source = path.read_text(errors="replace")
    if path.suffix == ".py":
        return [node.value for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    return [" ".join(source.split())]


def test_no_copy_of_a_units_words_is_left_outside_the_engine():
    """No unit's help text, short help (the legend's and the module menu's lines) or ruleset label of the catalog
    appears in a source file of the site, its templates or the browser's code: they read it from the catalog
    (the browser from the JSON the build writes, frontend/src/generated/catalog.json, not scanned here)."""
    words = [entry["help"] for part in ("elements", "modules") for entry in catalog()[part]]
    words += [entry["short"] for part in ("elements", "modules") for entry in catalog()[part] if entry["short"]]
    words += [entry["label"] for entry in catalog()["rulesets"]]
    assert len(words) == 2 * len(ELEMENT_TYPES) - 1 + 2 * len(engine.MODULE_NAMES) + len(engine.rulesets.available())
    found = [f"{path.relative_to(ROOT)}: {text[:50]!r}" for path in _sources() for seen in _texts(path)
             for text in words if text in seen]
    assert not found, "read these from engine.catalog instead:\n" + "\n".join(found)


def test_the_copy_check_finds_a_copy(tmp_path):
    entry = catalog()["modules"][0]
    copy = tmp_path / "copy.py"
    copy.write_text(f"WORDS = (\n    {entry['help'][:30]!r}\n    {entry['help'][30:]!r}\n)\n")
    assert any(entry["help"] in seen for seen in _texts(copy))


def test_no_list_of_module_names_is_left_in_the_browsers_code():
    """A list of the modules (three or more of their names in one literal) lives only in the engine: the browser's
    MODULE_NAMES come from the catalog."""
    import re

    names = set(engine.MODULE_NAMES)
    found = []
    for path in sorted((ROOT / "frontend" / "src").rglob("*.ts")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            named = set(re.findall(r'"([a-z_]+)"', line)) & names
            if len(named) >= 3:
                found.append(f"{path.relative_to(ROOT)}:{number}: {sorted(named)}")
    assert not found, "the browser reads the modules from the catalog:\n" + "\n".join(found)
