"""The extension mechanism: course elements take part in a turn only through named hooks and steps."""

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import engine
from engine.elements import ELEMENT_TYPES, Element, register
from engine.hooks import hook_table_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_architecture_doc_shows_the_hook_table_of_the_code():
    text = (ROOT / "docs" / "architecture.md").read_text()
    found = re.search(r"<!-- hooks:begin -->\n(.*?)\n<!-- hooks:end -->", text, re.S)
    assert found, "docs/architecture.md lost its hook table markers"
    assert found.group(1).strip() == hook_table_markdown().strip()


def test_the_core_never_asks_what_kind_of_element_lies_on_a_square():
    element_classes = {spec.cls.__name__ for spec in ELEMENT_TYPES.values()}
    for name in ("turn.py", "resolve.py"):
        tree = ast.parse((ROOT / "engine" / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
                checked = ast.unparse(node.args[1])
                assert not any(cls in checked for cls in element_classes), f"{name}: isinstance(..., {checked})"
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("elements."):
                imported = {alias.name for alias in node.names}
                assert not imported & element_classes, f"{name} imports element classes {imported & element_classes}"


@dataclass(frozen=True)
class Glue(Element):
    """A test element: a bot can't leave it except by a belt."""

    type: ClassVar[str] = "test_glue"

    def leave(self, turn, bot, heading, mode):
        return heading, (None if mode == "belt" else "glue")


def test_a_new_element_is_one_class_and_one_registration():
    register(Glue, layer="tile", fields={})
    try:
        course = engine.parse_course({
            "format": "roboracer-course/1", "name": "Glue", "width": 3, "height": 3, "players": [1, 1],
            "elements": [
                {"type": "start", "at": [1, 2], "number": 1, "dir": "N"},
                {"type": "test_glue", "at": [1, 2]},
                {"type": "checkpoint", "at": [1, 0], "number": 1},
            ],
        })  # fmt: skip
        state = engine.new_game(course, ["a"])
        _, events = engine.resolve_turn(state, {"a": ["1", "L", "1", "B", "2"]}, seed=1)
        blocked = [e for e in events if e["type"] == "blocked"]
        assert [e["by"] for e in blocked] == ["glue", "glue", "glue", "glue"]
        assert not any(e["type"] == "moved" for e in events)
        assert [e["type"] for e in events if e["phase"] == 2 and e["type"] in ("chip", "rotated", "blocked")] == [
            "chip", "rotated"
        ]
    finally:
        del ELEMENT_TYPES["test_glue"]
