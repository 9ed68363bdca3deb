"""The engine's catalog (issue 36): each unit carries its own display name and help, in the words the site
uses today (roboracer/common/how_to_play.py for elements and modules, games/views/forms.py for rulesets), so that the site can
read them from the engine later without a word changing."""

import ast
import json
from pathlib import Path

from engine import rulesets
from engine.__main__ import main
from engine.catalog import catalog
from engine.elements import ELEMENT_TYPES
from engine.modules import MODULE_NAMES
from engine.modules.economy import BASE_PRICES
from roboracer.common import how_to_play

ROOT = Path(__file__).resolve().parents[2]


def _ruleset_words() -> dict[str, str]:
    """games/views/forms.py's RULESET_WORDS, read without importing Django."""
    tree = ast.parse((ROOT / "games" / "views" / "forms.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "RULESET_WORDS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("games/views/forms.py has no RULESET_WORDS")


def test_every_element_carries_the_how_to_play_words():
    found = {entry["type"]: entry for entry in catalog()["elements"]}
    assert set(found) == set(ELEMENT_TYPES)
    page = {kind: (name, text) for kind, name, text, _ in how_to_play.ELEMENTS}
    assert set(page) == set(found)
    for kind, (name, text) in page.items():
        assert (found[kind]["name"], found[kind]["help"]) == (name, text), kind


def test_every_module_carries_the_how_to_play_words_and_its_base_price():
    found = {entry["type"]: entry for entry in catalog()["modules"]}
    assert list(found) == list(MODULE_NAMES)
    entries = {entry["type"]: entry for entry in how_to_play.module_entries()}
    assert set(entries) == set(found)
    for name, entry in entries.items():
        assert found[name]["name"] == entry["name"], name
        assert found[name]["help"] == entry["text"], name
        assert found[name]["base_price"] == entry["base_price"] == BASE_PRICES[name], name


def test_every_ruleset_carries_the_lobby_words():
    words = _ruleset_words()
    found = {entry["name"]: entry for entry in catalog()["rulesets"]}
    assert set(found) == set(rulesets.available()) == set(words)
    for name, label in words.items():
        assert found[name]["label"] == label == f"{found[name]['title']}: {found[name]['help']}", name


def test_the_command_prints_the_catalog(capsys):
    assert main(["catalog"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(catalog()))


def test_every_module_name_is_the_game_screens_label():
    """frontend/src/modules.ts's LABELS (the screen's module names) are the catalog's names."""
    import re

    text = (ROOT / "frontend" / "src" / "modules.ts").read_text()
    block = re.search(r"const LABELS: Record<string, string> = \{(.*?)\};", text, re.S)
    assert block, "frontend/src/modules.ts lost its LABELS"
    labels = dict(re.findall(r"(\w+): \"([^\"]+)\"", block.group(1)))
    assert labels == {entry["type"]: entry["name"] for entry in catalog()["modules"]}
