"""The engine's kinds registry (engine/kinds/__init__.py, issue 35): the command line picks a scenario's kind by
its "format" from the registry, so a third kind is its package plus one line in `_PACKAGES`."""

from __future__ import annotations

import json
import sys
import types

import pytest

from engine import kinds
from engine.errors import InputError
from engine.kinds import rambots
from tests.engine.cli import run_cli


def test_the_registry_finds_rambots_by_its_format():
    assert kinds.packages() == (rambots,)
    assert kinds.by_format("rambots-scenario/1") is rambots
    for other in ("roboracer-scenario/1", None, ["rambots-scenario/1"], {"format": "rambots-scenario/1"}):
        assert kinds.by_format(other) is None
    assert kinds.named_in('{"format": "rambots-scenario/1", "x": [[[') is rambots
    assert kinds.named_in('{"format": "roboracer-scenario/1"}') is None


@pytest.fixture
def coin(monkeypatch):
    """A made-up third kind, registered as a real one is: a package under engine.kinds and its name in
    `_PACKAGES`."""
    package = types.ModuleType("engine.kinds.coin")
    package.FORMAT = "coin-scenario/1"

    def parse_scenario(data: dict) -> dict:
        if not isinstance(data.get("side"), str):
            raise InputError("side: heads or tails")
        return data

    package.parse_scenario = parse_scenario
    package.simulate = lambda data: {"events": [{"type": "flipped", "side": parse_scenario(data)["side"]}]}
    monkeypatch.setitem(sys.modules, "engine.kinds.coin", package)
    monkeypatch.setattr(kinds, "_PACKAGES", (*kinds._PACKAGES, "coin"))
    return package


def test_a_third_kind_registered_in_one_line_goes_through_the_command_line(coin, tmp_path):
    path = tmp_path / "flip.json"
    path.write_text(json.dumps({"format": "coin-scenario/1", "side": "heads"}))
    run = run_cli("simulate", str(path))
    assert (run.returncode, run.stderr) == (0, "")
    assert json.loads(run.stdout) == {"events": [{"type": "flipped", "side": "heads"}]}
    run = run_cli("validate", str(path))
    assert (run.returncode, run.stdout) == (0, f"{path}: valid scenario (coin-scenario/1)\n")
    run = run_cli("report", str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"{path}: 'report' is for RoboRacer scenarios; use 'simulate' for coin-scenario/1\n"
    path.write_text(json.dumps({"format": "coin-scenario/1", "side": 1}))
    run = run_cli("simulate", str(path))
    assert (run.returncode, run.stdout, run.stderr) == (2, "", f"{path}: side: heads or tails\n")
