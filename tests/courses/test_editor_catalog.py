"""The editor's unit tests and dev harness read frontend/dev/catalog.json: it must be the engine's own
catalogue, or the editor is tested against a shape the site never sends (issue 17: a sides field's `choices`
once became a belt's `curves_from: "N"` in the browser only)."""

import json
from pathlib import Path

import engine

DEV_CATALOG = Path(__file__).resolve().parents[2] / "frontend" / "dev" / "catalog.json"


def test_the_editor_fixture_is_the_engines_catalog():
    fixture = json.loads(DEV_CATALOG.read_text())
    assert fixture == engine.element_catalog(), (
        "regenerate it: python -c 'import engine, json; print(json.dumps(engine.element_catalog(), indent=1))' "
        "> frontend/dev/catalog.json")
