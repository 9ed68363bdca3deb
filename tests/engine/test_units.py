"""Units answer for themselves (issue 36): outside an element's own file nothing asks whether an element is of
its class, and outside a module's own file nothing compares a module's name. The rules ask the unit (its
attributes, methods and hooks) instead, so that a new element or module is one file."""

import ast
import inspect
import re
from pathlib import Path

from engine.elements import ELEMENT_TYPES
from engine.modules import MODULE_NAMES

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
# Element class name -> the file that defines it.
ELEMENT_FILES = {spec.cls.__name__: Path(inspect.getfile(spec.cls)).resolve() for spec in ELEMENT_TYPES.values()}
# An expression naming a module or a list of them: `module`, `bot.module`, `activation.module`, `module.name`,
# `cls.name`, `game.modules`...
NAMES_A_MODULE = re.compile(r"(^|\.)modules?(\.name)?$|^(cls|self)\.name$")
# The site's Python (games/ and roboracer/, not their migrations) asks the units too.
SITE = [ROOT / "games", ROOT / "roboracer"]


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for item in node.elts for s in _strings(item)]
    return []


def problems(path: Path, source: str) -> list[str]:
    """Where `source` (the file at `path`) asks an element's class or compares a module's name outside the
    unit's own file."""
    found = []
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
            named = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            named |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
            for cls in sorted(named & set(ELEMENT_FILES)):
                if ELEMENT_FILES[cls] != path.resolve():
                    found.append(f"{where}:{node.lineno}: isinstance(..., {cls}) outside {ELEMENT_FILES[cls].name}")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for side in sides:
                modules = [s for s in _strings(side) if s in MODULE_NAMES]
                others = [ast.unparse(other) for other in sides if other is not side]
                if modules and any(NAMES_A_MODULE.search(other) for other in others):
                    if not (path.parent == ENGINE / "modules" and path.stem in modules):
                        found.append(f"{where}:{node.lineno}: compares a module name: {ast.unparse(node)}")
    return found


def test_no_unit_is_asked_its_class_or_name_outside_its_own_file():
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        found += problems(path, path.read_text())
    assert not found, "ask the unit instead (an attribute, a method or a hook):\n" + "\n".join(found)


def test_the_site_asks_the_units_too():
    found = []
    for top in SITE:
        for path in sorted(top.rglob("*.py")):
            if "migrations" not in path.parts:
                found += problems(path, path.read_text())
    assert not found, "ask the unit instead (engine.modules.scanning, an attribute, a method):\n" + "\n".join(found)


def test_the_check_finds_what_it_looks_for():
    rules = ENGINE / "rulesets" / "example.py"
    source = (
        "if isinstance(tile, Belt): pass\n"
        "if isinstance(cover, (ForceField, Mirror)): pass\n"
        "if bot.module == 'scanner': pass\n"
        "if module in ('clamp', 'turbo'): pass\n"
        "if activation.module != 'storage': pass\n"
        "if 'scanner' in game.modules: pass\n"
    )
    assert len(problems(rules, source)) == 7  # ForceField and Mirror each
    assert len(problems(ROOT / "games" / "kinds" / "example.py", "if bot.module != 'scanner': pass\n")) == 1
    assert problems(ENGINE / "modules" / "scanner.py", "if bot.module == 'scanner': pass\n") == []
    assert problems(ENGINE / "elements" / "belts.py", "if isinstance(tile, Belt): pass\n") == []
    harmless = "if element.type == 'repair': pass\nif 'crab_legs' in bot.upgrades: pass\nif isinstance(x, int): pass\n"
    assert problems(rules, harmless) == []
