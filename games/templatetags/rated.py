"""`{{ game|rated_word }}` in server-rendered pages: whether a game is rated is games' policy
(games.selectors.rated)."""

from django import template

from games.selectors import rated

register = template.Library()


@register.filter
def rated_word(game) -> str:
    """"rated" or "unrated", as the lobby's rows and the game snapshot's `rated` say."""
    return "rated" if rated.is_rated(game=game) else "unrated"
