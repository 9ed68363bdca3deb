"""Ratings in server-rendered pages: `{{ game|rated_word }}`, `{{ game|creator_rating }}`."""

from django import template

from roboracer.ratings import selectors

register = template.Library()


@register.filter
def rated_word(game) -> str:
    """"rated" or "unrated", as the lobby's rows and the game snapshot's `rated` say."""
    return "rated" if selectors.is_rated(game=game) else "unrated"


@register.filter
def creator_rating(game) -> int:
    return selectors.creator_rating(game=game)
