"""The header's bell: how many of the signed-in player's notices are unread (one COUNT, only when a page
shows the header)."""

from django.utils.functional import SimpleLazyObject

from games.selectors import notices


def bell(request):
    user = getattr(request, "user", None)
    return {"unread_notices": SimpleLazyObject(lambda: notices.unread_count(user=user))}
