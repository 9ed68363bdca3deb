"""A signed-in player's pending invitations to replace a tournament player, for the notice every page shows
(base.html; docs/tournaments.md "Replace"). Lazy: read only by a page that shows the notice (one query when
there is none)."""

from django.utils.functional import SimpleLazyObject

from roboracer.tournaments import substitution_selectors


def invitations(request) -> dict:
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated):
        return {}
    return {"tournament_invitations": SimpleLazyObject(lambda: substitution_selectors.invitations(user=user))}
