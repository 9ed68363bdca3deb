"""Ratings in server-rendered pages: `{{ game|creator_rating }}` (`rated_word` is games': games/templatetags/rated.py)."""

from django import template

from roboracer.ratings import selectors

register = template.Library()


@register.filter
def creator_rating(game) -> int:
    return selectors.creator_rating(game=game)
