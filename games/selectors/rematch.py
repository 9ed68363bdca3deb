"""Play again: where a rematch is opened from and the notice the other players get."""

from __future__ import annotations

from django.urls import reverse

from games import kinds
from games.models import Game
from roboracer.accounts.selectors import player_name


def rematch_link(*, game: Game) -> str:
    """Where a "play again" game is opened from: its page, or for a private game its invite link."""
    if game.visibility == Game.Visibility.PRIVATE:
        return reverse("game-invite", args=[game.pk, game.invite_code])
    return reverse("game", args=[game.pk])


def rematch_notice(*, old: Game, new: Game, by) -> dict:
    """The notice each other player of a finished game gets when someone presses "play again"."""
    return {
        "type": "rematch",
        "game": new.pk,
        "from_game": old.pk,
        "course": kinds.of(new).board_name(new),
        "by": player_name(user=by),
        "url": rematch_link(game=new),
    }


def rematch_of(game: Game) -> dict | None:
    """The "play again" game made from this one: its id and where to open it (a private one's invite link goes
    only to those who may see this game's snapshot: its players and staff)."""
    if game.rematch_id is None:
        return None
    rematch = Game.objects.only("pk", "visibility", "invite_code").get(pk=game.rematch_id)
    return {"id": rematch.pk, "url": rematch_link(game=rematch)}
