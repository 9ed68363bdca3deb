"""Step plans (issue 36): every ruleset declares its turn as a plan of named steps, played by one runner."""

import re
from pathlib import Path

import pytest

from engine import rulesets
from engine.plans import Plan, plan_table_markdown, plans, play

ROOT = Path(__file__).resolve().parents[2]


def test_architecture_doc_shows_the_plan_table_of_the_code():
    text = (ROOT / "docs" / "architecture.md").read_text()
    found = re.search(r"<!-- plans:begin -->\n(.*?)\n<!-- plans:end -->", text, re.S)
    assert found, "docs/architecture.md lost its plan table markers (python -m engine plans --markdown)"
    assert found.group(1).strip() == plan_table_markdown().strip(), "regenerate: python -m engine plans --markdown"


@pytest.mark.parametrize("name", rulesets.available())
def test_every_ruleset_declares_a_plan_and_resolves_with_the_one_runner(name):
    rules = rulesets.get(name)
    assert isinstance(rules.plan, Plan) and rules.plan.ruleset == name
    assert rules.resolve is rules.plan and Plan.__call__.__code__.co_names.count("play") == 1
    assert play.__module__ == "engine.plans"


@pytest.mark.parametrize("name", rulesets.available())
def test_the_respawn_comes_before_the_winning_check_in_every_plan(name):
    plan = plans()[name]
    order = [step.name for step in (*plan.begin, *plan.phase_steps(), *plan.end) if step.runners]
    respawn = "revitalize" if name == "roborace" else "respawn"
    assert respawn in order
    if name != "roborace":  # 004: nobody wins by being the last robot alive
        assert order.index(respawn) < order.index("winning")
