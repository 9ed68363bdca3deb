"""The engine's catalog (issue 36): each unit carries its own display name and help in its own file, and the
catalog is the one place the site and the browser read them from (roboracer/common/catalog.py;
tests/games/test_catalog_pages.py checks the pages show them, and that no copy of them is left outside engine/)."""

import json
from pathlib import Path

from engine import rulesets
from engine.__main__ import main
from engine.catalog import catalog
from engine.elements import ELEMENT_TYPES
from engine.modules import MODULE_NAMES, MODULES
from engine.modules.economy import BASE_PRICES

ROOT = Path(__file__).resolve().parents[2]


def test_every_element_carries_its_name_and_help():
    found = {entry["type"]: entry for entry in catalog()["elements"]}
    assert list(found) == list(ELEMENT_TYPES)
    for kind, entry in found.items():
        assert entry["name"] == ELEMENT_TYPES[kind].cls.title and entry["name"].strip(), kind
        assert entry["help"] == ELEMENT_TYPES[kind].cls.help and entry["help"].endswith("."), kind
    assert len({entry["name"] for entry in found.values()}) == len(found), "two elements share a name"


def test_every_module_carries_its_name_help_and_base_price():
    found = {entry["type"]: entry for entry in catalog()["modules"]}
    assert list(found) == list(MODULE_NAMES)
    for name, entry in found.items():
        assert entry["name"] == MODULES[name].title and entry["help"] == MODULES[name].help, name
        assert entry["base_price"] == BASE_PRICES[name] == MODULES[name].base_price > 0, name
    assert found["crab_legs"]["name"] == "Crab Legs"
    assert len({entry["name"] for entry in found.values()}) == len(found), "two modules share a name"


def test_every_ruleset_carries_its_lobby_words():
    found = {entry["name"]: entry for entry in catalog()["rulesets"]}
    assert list(found) == list(rulesets.available())
    for name, entry in found.items():
        assert entry["label"] == f"{entry['title']}: {entry['help']}", name
    assert found["classic"]["label"] == "Classic: 10 instructions, power down, upgrades"


def test_the_command_prints_the_catalog(capsys):
    assert main(["catalog"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(catalog()))


def test_the_browsers_part_is_the_catalogs_own(capsys):
    """What the build writes for the browser (`python -m engine catalog --browser` into
    frontend/src/generated/catalog.json, which `make build` and `make test-fast` make first): the legend lines
    and the modules' names, short help and activation, exactly as the units carry them."""
    from engine.catalog import browser_catalog

    assert main(["catalog", "--browser"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == browser_catalog()
    assert list(printed["modules"]) == list(MODULE_NAMES)
    assert printed["modules"]["crab_legs"] == "Crab Legs" and printed["module_shapes"]["turbo"] == "phase spare"
    assert printed["module_hints"]["shield"] == MODULES["shield"].short
    assert set(printed["legend"]) == set(ELEMENT_TYPES) - {"floor"}
    built = ROOT / "frontend" / "src" / "generated" / "catalog.json"
    assert built.exists(), "run make build: it writes the browser's catalog"
    assert json.loads(built.read_text()) == printed, "the built catalog is stale: run make build"
