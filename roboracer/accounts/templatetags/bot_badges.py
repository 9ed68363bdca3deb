"""`{% load bot_badges %}{% bot_badge flag %}`: the BOT badge after a bot account's name (issue 41, docs/bot-api.md),
the one markup of every page's badge (frontend/src/botaccounts.ts botBadge draws the same on the game screen and
the lobby's live rows). Nothing when `flag` is false."""

from django import template
from django.utils.html import format_html

register = template.Library()

TITLE = "A bot account: a program plays it"  # botaccounts.ts says the same


@register.simple_tag
def bot_badge(flag) -> str:
    """' <span class="badge bot-badge" title="...">BOT</span>' (its leading space included) if `flag` is true."""
    return format_html(' <span class="badge bot-badge" title="{}">BOT</span>', TITLE) if flag else ""
