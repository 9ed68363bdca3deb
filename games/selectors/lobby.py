"""The lobby's lists: the open public games a page at a time, a user's own and archived games, each as a
summary."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, Q, QuerySet

from games import kinds
from games.models import Game, Seat
from games.selectors import access, rated, seats
from roboracer.accounts import selectors as account_selectors
from roboracer.accounts.selectors import player_name
from roboracer.ratings import selectors as ratings

COMPUTER_COUNT = Count("seats", filter=Q(seats__computer__gt=""))  # a lobby entry's computer seats


def summary_annotations() -> dict:
    """What a lobby query annotates for `game_summary`: the seats taken, the computer seats, and what `is_rated`
    and `creator_rating` read (the mode, the creator's rating), so that a summary needs no query of its own."""
    return {"seated": Count("seats"), "computers": COMPUTER_COUNT,
            "creator_bot": account_selectors.bot_annotation("creator_id"),  # the BOT badge (docs/bot-api.md)
            **rated.annotations(), **ratings.lobby_annotations()}


def open_games() -> QuerySet[Game]:
    """Public games waiting for players (private ones are reached only through their invite link)."""
    return (
        Game.objects.filter(status=Game.Status.LOBBY, visibility=Game.Visibility.PUBLIC)
        .select_related("course", "creator")
        .annotate(**summary_annotations())
    )


def games_of(*, user, archived: bool = False) -> QuerySet[Game]:
    """The user's games; those they archived (!archive) only when asked for."""
    # Filter through a subquery: filtering on the seats join would make Count("seats") count only mine.
    wanted = Q(pk__in=Seat.objects.filter(user=user, archived=archived).values("game_id"))
    if not archived:
        wanted |= Q(pk__in=access.invitations(user=user).values("pk"))  # "play again" lobbies I was invited to
    return (
        Game.objects.filter(wanted)
        .exclude(status=Game.Status.CANCELLED)
        .select_related("course")
        .annotate(**summary_annotations())
    )


def with_winner_names(games) -> list[Game]:
    """The games as a list, each finished one with `winner_name` set: the winning player's display name ("won
    by NAME" in the lobby's lists), None for the others or a finished game without a winner."""
    games = list(games)
    winners = {
        seat.pk: player_name(user=seat.user)
        for seat in Seat.objects.filter(pk__in=[g.winner_id for g in games if g.winner_id]).select_related(
            "user", "user__profile")
    }
    for game in games:
        game.winner_name = winners.get(game.winner_id) if game.status == Game.Status.FINISHED else None
    return games


def game_summary(*, game: Game) -> dict:
    """A game as the lobby lists it (GET /api/games/ and the lobby socket): public facts only, never a hand,
    a program or an invite code. `game` comes from `open_games`, `games_of` or `lobby_game` (annotated with
    `seated`) and went through `with_winner_names`."""
    return {
        "id": game.pk,
        **kinds.of(game).summary(game),  # "kind", and the course ("course", "course_id", "course_name")
        "creator": game.creator.get_username(),
        "creator_bot": bool(getattr(game, "creator_bot", False)),  # a bot account: its BOT badge (docs/bot-api.md)
        "status": game.status,
        "turn": game.turn,
        "version": game.version,
        "max_seats": game.max_seats,
        "seated": game.seated,
        "computers": getattr(game, "computers", 0),  # seats played by computer players (docs/computer-players.md)
        "lives": game.lives,
        "visibility": game.visibility,
        "timer_preset": game.timer_preset,
        "move_time": game.move_time,
        "game_time": game.game_time,
        "timeout_policy": game.timeout_policy,
        "winner": getattr(game, "winner_name", None),
        "modules": list(game.modules),
        "rated": rated.is_rated(game=game),
        "aborted": game.aborted,  # finished with fewer than two seats that moved: unrated (docs/ratings.md)
        "creator_rating": ratings.creator_rating(game=game),
    }


def lobby_game(*, game_id: int) -> Game | None:
    """One game read for the lobby (what `game_summary` needs), whatever its status."""
    game = (
        Game.objects.filter(pk=game_id)
        .select_related("course", "creator")
        .defer("course__data", "course_data", "state")
        .annotate(**summary_annotations())
        .first()
    )
    return with_winner_names([game])[0] if game else None


def lobby_page_number(text: str | None) -> int | None:
    """A lobby page's number from `?page=` (ASCII digits, 1 to a million, as GET /api/games/ takes it), None if it
    is no such number. The lobby page answers 404 to one, the API 400, the socket takes the first page."""
    if text is None:
        return 1
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 10**6):
        return None
    return int(text)


def open_games_count() -> int:
    """How many public games wait for players (one COUNT; no annotations)."""
    return Game.objects.filter(status=Game.Status.LOBBY, visibility=Game.Visibility.PUBLIC).count()


def open_games_page(*, page: int = 1, defer: tuple[str, ...] = ()) -> tuple[list[Game], int, bool]:
    """One page of the open public games, newest first, LOBBY_PAGE_SIZE a page: the games, how many open games
    there are in all, and whether a later page holds more. Bounded however many games others create."""
    size = settings.LOBBY_PAGE_SIZE
    page = max(1, page)
    games = open_games().defer(*defer).order_by("-created_at", "-pk")
    total = open_games_count()  # the same games, counted without the summaries' annotations
    shown = list(games[(page - 1) * size: page * size])
    return with_winner_names(shown), total, page * size < total


def lobby_state(*, user, page: int = 1) -> dict:
    """The lobby as `user` sees it: one page of the open public games (`open_total`, `open_next`: the next
    page's number or null), their own games (with `my_move`) and their archived ones. What GET /api/games/
    answers and the lobby socket sends on connect and on sync (page 1)."""
    signed_in = bool(user and user.is_authenticated)
    # Not the layouts nor the game states: a summary needs none of them, and they are most of a game's bytes.
    light = ("course__data", "course_data", "state")
    mine = with_winner_names(games_of(user=user).select_related("creator").defer(*light)) if signed_in else []
    my_move = seats.awaiting_my_move(user=user, games=mine) if mine else set()
    archived = (
        with_winner_names(games_of(user=user, archived=True).select_related("creator").defer(*light))
        if signed_in else []
    )
    shown, total, more = open_games_page(page=page, defer=light)
    return {
        "open": [game_summary(game=game) for game in shown],
        "open_total": total,
        "open_next": page + 1 if more else None,
        "mine": [{**game_summary(game=game), "my_move": game.pk in my_move} for game in mine],
        "archived": [game_summary(game=game) for game in archived],
    }


# Live games to watch (issue 37, item 8): the lobby promises that any signed-in player may watch a public game,
# so it lists the running ones and features one, as lichess TV does.
LIVE_CANDIDATES = 200  # the most recently active running public games considered (bounded per request)
WATCH_LIST_SIZE = 10


def live_games(*, user=None) -> dict:
    """{"featured": the running public game with the highest sum of its players' shown ratings (computers count
    none; ties: the newer game) among those a person still plays (None if none), "watch": up to WATCH_LIST_SIZE running public games by that sum, without the
    ones `user` plays in (those are under "My games")}. Each entry: {"game", "players": [{"name", "rating",
    "computer"}], "rating_sum"}. Public facts only: names, ratings, course, turn."""
    running = list(
        Game.objects.filter(status__in=[Game.Status.PROGRAMMING, Game.Status.RESOLVING],
                            visibility=Game.Visibility.PUBLIC)
        .select_related("course")
        .defer("course__data", "course_data", "state")
        .order_by("-updated_at", "-pk")[:LIVE_CANDIDATES]
    )
    if not running:
        return {"featured": None, "watch": []}
    seated = list(Seat.objects.filter(game__in=running, ejected_at__isnull=True)
                  .select_related("user", "user__profile").order_by("game_id", "number"))
    kind_of = {game.pk: game.kind for game in running}
    rated_users: dict[tuple[str, int], int] = {}  # (kind, user id): each game shows its own kind's ratings
    for kind in sorted(set(kind_of.values())):
        users = [seat.user_id for seat in seated if not seat.computer and kind_of[seat.game_id] == kind]
        rated_users.update({(kind, pk): value for pk, value in ratings.shown_ratings_of(users=users, kind=kind).items()})
    players: dict[int, list[dict]] = {}
    # A game to feature has a person still playing: not only computers, or people whose time ran out or whose
    # robot a computer plays for them (an abandoned game is not one to show off; it still lists to watch).
    attended = {seat.game_id for seat in seated if not seat.computer and not seat.expired and not seat.autopilot}
    for seat in seated:
        rating = None if seat.computer else rated_users.get((kind_of[seat.game_id], seat.user_id))
        players.setdefault(seat.game_id, []).append(
            {"name": player_name(user=seat.user), "rating": rating, "computer": bool(seat.computer)})
    entries = [{"game": game, "players": players.get(game.pk, []),
                "rating_sum": sum(p["rating"] or 0 for p in players.get(game.pk, []))} for game in running]
    entries.sort(key=lambda entry: (entry["rating_sum"], entry["game"].pk), reverse=True)
    mine = set()
    if user is not None and getattr(user, "is_authenticated", False):
        mine = set(Seat.objects.filter(user=user, game__in=running).values_list("game_id", flat=True))
    featured = next((entry for entry in entries if entry["game"].pk in attended), None)
    return {"featured": featured, "watch": [e for e in entries if e["game"].pk not in mine][:WATCH_LIST_SIZE]}
