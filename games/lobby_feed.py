"""What lobby pages hear: after a transaction that created a game, took or freed a seat, started, finished or
cancelled it commits, the game's lobby summary goes to the public lobby group (public games only) and to the
own lobby group of each of its players (private games too, with `my_move` and `archived`), and of a player
who just left it (with `mine: false`). Strangers never hear of a private game.

At most once, like every channel-layer message: a lobby page that reconnects gets the whole lobby again
(`lobby.lobby_state`), and each summary carries the game's `version` so an older one never overwrites a
newer one.
"""

from __future__ import annotations

from django.db import transaction

from games import broadcast
from games.models import Game, Seat
from games.selectors import lobby

LOBBY_GROUP = "lobby"
# The game events after which the lobby's lists change.
KINDS = frozenset({"game_created", "seat_joined", "seat_left", "game_started", "game_finished", "game_cancelled"})


def user_group_name(user_id: int) -> str:
    """A user's own lobby sockets: their games' summaries, private ones included."""
    return f"lobby-user-{user_id}"


def changed(*, game: Game, left: tuple[int, ...] = (), kind: str = "") -> None:
    """Announce the game to the lobbies once the current transaction commits (once per transaction, however
    many of its events change the lobby). `left`: ids of users who gave their seat up in it; `kind`: the
    event (a transaction that created the game announces it as new)."""
    pending = getattr(game, "lobby_feed_pending", None)
    if pending is None:
        pending = game.lobby_feed_pending = {"left": set(), "created": False}
        game_id = game.pk

        def send() -> None:
            game.__dict__.pop("lobby_feed_pending", None)
            announce(game_id=game_id, left=pending["left"], created=pending["created"])

        # robust: with Redis down the write stands; lobby pages resync when their socket comes back.
        transaction.on_commit(send, robust=True)
    pending["left"].update(left)
    pending["created"] = pending["created"] or kind == "game_created"


def announce(*, game_id: int, left: set[int] | frozenset[int] = frozenset(), created: bool = False) -> None:
    """Send the game's summary as committed now (call it after commit). The public group's message also says
    whether this transaction created the game (`new`: newer than any game a lobby page has listed) and how
    many public games are open now (`open_total`), so every page's "Showing ... of N open games" follows."""
    game = lobby.lobby_game(game_id=game_id)
    if game is None:
        return
    summary = lobby.game_summary(game=game)
    messages = []
    if game.visibility == Game.Visibility.PUBLIC:
        messages.append((LOBBY_GROUP, {
            "type": "lobby_game", "game": summary, "new": created, "open_total": lobby.open_games_count(),
        }))
    seats = Seat.objects.filter(game_id=game_id).values_list("user_id", "archived", "clock_started_at")
    seated = set()
    for user_id, archived, clock_started_at in seats:
        seated.add(user_id)
        my_move = game.status == Game.Status.PROGRAMMING and clock_started_at is not None
        messages.append((user_group_name(user_id), {
            "type": "lobby_game", "game": {**summary, "my_move": my_move, "archived": archived}, "mine": True,
        }))
    for user_id in sorted(set(left) - seated):
        messages.append((user_group_name(user_id), {"type": "lobby_game", "game": summary, "mine": False}))
    for group, message in messages:
        broadcast.group_send(group, {"type": "lobby.event", "text": broadcast.encode(message)})
