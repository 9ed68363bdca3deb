"""The BOT badge wherever a bot account's name appears (issue 41, docs/bot-api.md "Bot accounts"): one template
tag for the pages (bot_badges.bot_badge), the `bot_account` flags the game screen's TypeScript draws it from."""

import pytest
from django.template import Context, Template

from roboracer.accounts.templatetags.bot_badges import TITLE

pytestmark = pytest.mark.django_db(transaction=True)

BADGE = f' <span class="badge bot-badge" title="{TITLE}">BOT</span>'


def badge_after(html: str, name: str) -> bool:
    """The page shows `name` followed at once by the badge."""
    return f"{name}{BADGE}" in html or f"{name}</a>{BADGE}" in html


def test_the_template_tag_is_the_badge_for_a_true_flag_only():
    template = Template("{% load bot_badges %}robo{% bot_badge flag %}|")
    assert template.render(Context({"flag": True})) == f"robo{BADGE}|"
    for flag in (False, None, "", 0):
        assert template.render(Context({"flag": flag})) == "robo|"
    assert template.render(Context({})) == "robo|"
