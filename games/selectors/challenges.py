"""Direct challenges as their two players see them (docs/bot-api.md "Challenges"); nobody else sees one."""

from __future__ import annotations

from games import kinds
from games.models import DirectChallenge
from roboracer.accounts.selectors import is_bot, player_name
from roboracer.courses.models import Course


def _board(settings: dict) -> str:
    """What the game would be played on, as pages name it: the course's name, or the kind's board."""
    kind = kinds.get(settings.get("kind", kinds.DEFAULT))
    if not kind.uses_courses:
        return kind.title
    name = Course.objects.filter(slug=settings.get("course")).values_list("name", flat=True).first()
    return name or str(settings.get("course", ""))


def challenge_dict(challenge: DirectChallenge) -> dict:
    challenger, challenged = challenge.challenger, challenge.challenged
    return {
        "id": challenge.pk,
        "challenger": challenger.get_username(), "challenger_name": player_name(user=challenger),
        "challenger_bot": is_bot(user=challenger),
        "challenged": challenged.get_username(), "challenged_name": player_name(user=challenged),
        "challenged_bot": is_bot(user=challenged),
        "settings": challenge.settings, "board": _board(challenge.settings), "status": challenge.status,
        "reason": challenge.reason, "game": challenge.game_id,
        "url": f"/games/{challenge.game_id}/" if challenge.game_id else None,
        "created_at": challenge.created_at.isoformat(),
    }


def challenges_of(*, user) -> dict:
    """The user's pending challenges: to them (`incoming`) and from them (`outgoing`), oldest first."""
    related = DirectChallenge.objects.select_related("challenger__profile", "challenged__profile").order_by("pk")
    waiting = related.filter(status=DirectChallenge.Status.PENDING)
    return {"incoming": [challenge_dict(c) for c in waiting.filter(challenged=user)],
            "outgoing": [challenge_dict(c) for c in waiting.filter(challenger=user)]}
