"""A player's own notices for the bell (games/services/notices.py): never anyone else's."""

from __future__ import annotations

from games.models import Notice

PAGE = 50


def unread_count(*, user) -> int:
    if not (user and user.is_authenticated):
        return 0
    return Notice.objects.filter(user=user, read_at__isnull=True).count()


def notice_dict(notice: Notice) -> dict:
    return {"id": notice.pk, "kind": notice.kind, "text": notice.text, "link": notice.link, "source": notice.source,
            "created": notice.created_at.isoformat(), "read": notice.read_at is not None}


def recent(*, user, unread_only: bool = False, limit: int = PAGE) -> list[dict]:
    """The user's newest notices, newest first."""
    notices = Notice.objects.filter(user=user)
    if unread_only:
        notices = notices.filter(read_at__isnull=True)
    return [notice_dict(notice) for notice in notices.order_by("-created_at", "-pk")[:limit]]
