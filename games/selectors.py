"""Every read of a game, shaped per viewer: a viewer sees their own hand and program and nobody else's."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.urls import reverse
from django.utils import timezone

import engine
from engine.state import board_from_dict
from games import clocks, kinds, signals
from games.models import ChatMessage, Game, Hand, Program, Scan, Seat, Turn
from roboracer import compiled
from roboracer.accounts.selectors import player_name, vacation
from roboracer.ratings import selectors as ratings

COMPUTER_MODES = ("race", "arena")  # where computer players play (a puzzle is solved alone)
COMPUTER_COUNT = Count("seats", filter=Q(seats__computer__gt=""))  # a lobby entry's computer seats

CHAT_IN_SNAPSHOT = 100


def open_games() -> QuerySet[Game]:
    """Public games waiting for players (private ones are reached only through their invite link)."""
    return (
        Game.objects.filter(status=Game.Status.LOBBY, visibility=Game.Visibility.PUBLIC)
        .select_related("course", "creator")
        .annotate(seated=Count("seats"), computers=COMPUTER_COUNT, **ratings.lobby_annotations())
    )


def games_of(*, user, archived: bool = False) -> QuerySet[Game]:
    """The user's games; those they archived (!archive) only when asked for."""
    # Filter through a subquery: filtering on the seats join would make Count("seats") count only mine.
    wanted = Q(pk__in=Seat.objects.filter(user=user, archived=archived).values("game_id"))
    if not archived:
        wanted |= Q(pk__in=invitations(user=user).values("pk"))  # "play again" lobbies I was invited to
    return (
        Game.objects.filter(wanted)
        .exclude(status=Game.Status.CANCELLED)
        .select_related("course")
        .annotate(seated=Count("seats"), computers=COMPUTER_COUNT, **ratings.lobby_annotations())
    )


def invitations(*, user) -> QuerySet[Game]:
    """Lobbies made with "play again" from a game the user played, where the user has no seat yet."""
    return Game.objects.filter(status=Game.Status.LOBBY, rematch_of__seats__user=user).exclude(seats__user=user)


def is_invited(*, user, game: Game) -> bool:
    """The user played the finished game this lobby was made from with "play again"."""
    if not (user and user.is_authenticated) or game.status != Game.Status.LOBBY:
        return False
    return Seat.objects.filter(game__rematch=game, user=user).exists()


def may_test_drive(*, user, course_id: int | None) -> bool:
    """Who may test-drive a course, and so play a test drive again: its author and staff (issue 33 item 12;
    roboracer.courses.services.start_test_drive)."""
    from roboracer.courses import selectors as course_selectors
    from roboracer.courses.models import Course

    course = Course.objects.filter(pk=course_id).only("author_id").first()
    return course is not None and course_selectors.may_write(user=user, course=course)


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
        "rated": ratings.is_rated(game=game),
        "aborted": game.aborted,  # finished with fewer than two seats that moved: unrated (docs/ratings.md)
        "creator_rating": ratings.creator_rating(game=game),
    }


def lobby_game(*, game_id: int) -> Game | None:
    """One game read for the lobby (what `game_summary` needs), whatever its status."""
    game = (
        Game.objects.filter(pk=game_id)
        .select_related("course", "creator")
        .defer("course__data", "course_data", "state")
        .annotate(seated=Count("seats"), computers=COMPUTER_COUNT, **ratings.lobby_annotations())
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
    my_move = awaiting_my_move(user=user, games=mine) if mine else set()
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


def get_game(*, game_id: int) -> Game | None:
    """The game whoever asks (the caller checks who may see it; views use `visible_game`)."""
    # Not the course's layout: a game plays on its own copy (course_data), and the row is read for its name
    # and player limits.
    return Game.objects.select_related("course", "creator").defer("course__data").filter(pk=game_id).first()


def visible_games(*, user, games: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """`games` (default: all) narrowed to those `user` may see: public games, private ones they have a
    seat in or were invited to with "play again"; staff see every game, anonymous users none. One WHERE clause, so a private game a stranger asks
    for is looked up exactly like a missing id (docs/site.md, "Hidden existence")."""
    games = Game.objects.all() if games is None else games
    if not (user and user.is_authenticated):
        return games.none()
    if user.is_staff:
        return games
    seated = Seat.objects.filter(game=OuterRef("pk"), user=user)
    # A lobby made with "play again" is visible to the players of the game it was made from (invited).
    invited = Seat.objects.filter(game__rematch=OuterRef("pk"), user=user)
    return games.filter(Q(visibility=Game.Visibility.PUBLIC) | Q(Exists(seated))
                        | Q(status=Game.Status.LOBBY) & Q(Exists(invited)))


def visible_game(*, game_id: int, user) -> Game | None:
    """The game if `user` may see it, else None, whether it is private or missing: one query either way."""
    games = Game.objects.select_related("course", "creator").defer("course__data")
    return visible_games(user=user, games=games).filter(pk=game_id).first()


def can_view(*, user, game: Game) -> bool:
    """Any signed-in user may watch a public game; a private game only its players and staff."""
    if not (user and user.is_authenticated):
        return False
    if game.visibility == Game.Visibility.PUBLIC or user.is_staff:
        return True
    return game.seats.filter(user=user).exists() or is_invited(user=user, game=game)


def start_minimum(game: Game) -> int:
    """How many seated players the creator may start the game with: a course builder's test drive starts with
    whoever is seated (docs/course-builder.md "Test drive"), any other game needs its course's minimum."""
    return 1 if game.test_drive else kinds.of(game).min_players(game)


def invite_matches(*, game: Game, code: str) -> bool:
    """Whether `code` is this private game's invite code, compared in constant time. As bytes: any text may
    come in (a URL, a JSON body), and `compare_digest` refuses str with non-ASCII characters."""
    if game.visibility != Game.Visibility.PRIVATE or not code or not game.invite_code:
        return False
    return secrets.compare_digest(code.encode("utf-8", "surrogatepass"), game.invite_code.encode())


def invited_game(*, game_id: int, code: str) -> Game | None:
    """A private game, found through its invite code (None if the code is wrong or the game missing: the same
    one query either way)."""
    game = get_game(game_id=game_id)
    if game is None or not invite_matches(game=game, code=code):
        return None
    return game


def chat_message(*, message: ChatMessage) -> dict:
    """A chat line as every viewer sees it (plain text; the browser never renders it as HTML)."""
    return {
        "id": message.pk,
        "seat": message.seat_number,
        "user": message.user.get_username() if message.user else None,
        "display_name": player_name(user=message.user) if message.user else None,
        "text": message.text,
        "at": message.created_at.isoformat(),
        "system": message.system,
        "team": message.team or None,  # team chat: only that team ever receives it
    }


_recent_chat = compiled.Compiled(lambda limit, *, game_id: ChatMessage.objects.filter(game_id=game_id).select_related(
    "user", "user__profile").order_by("-id")[:limit])


def recent_chat(
    *, game: Game, limit: int = CHAT_IN_SNAPSHOT, before: int | None = None, reader=None, teams: bool = False
) -> list[dict]:
    """The last `limit` messages (before message id `before`, if given), oldest first, that `reader` may read:
    messages to everyone, and the team lines said in their team while they were in it (they are among the
    line's readers; a spectator, staff and anonymous users read none). `teams`: every message, each with its
    team, for the caller to filter per viewer (`team_chat_readers`, `visible_chat`)."""
    if before is None and teams:  # a snapshot's (every snapshot, every deal): its SQL built once
        return [chat_message(message=m) for m in _recent_chat.run(limit, game_id=game.pk)[::-1]]
    messages = game.chat.select_related("user", "user__profile").order_by("-id")
    if before is not None:
        messages = messages.filter(id__lt=before)
    if not teams:
        if reader is not None and reader.is_authenticated:
            messages = messages.filter(Q(team="") | Q(Exists(ChatMessage.readers.through.objects.filter(
                chatmessage_id=OuterRef("pk"), user_id=reader.pk))))
        else:
            messages = messages.filter(team="")
    return [chat_message(message=m) for m in list(messages[:limit])[::-1]]


def team_chat_readers(*, chat: list[dict]) -> dict[int, set[int]]:
    """{team line id: the ids of the users who may read it} for the team lines among `chat` (one query, none
    when there are no team lines)."""
    ids = [line["id"] for line in chat if line["team"]]
    readers: dict[int, set[int]] = {line_id: set() for line_id in ids}
    if ids:
        rows = ChatMessage.readers.through.objects.filter(chatmessage_id__in=ids)
        for line_id, user_id in rows.values_list("chatmessage_id", "user_id"):
            readers[line_id].add(user_id)
    return readers


def viewer_team(*, game: Game, user) -> str:
    """The team whose chat `user` may read in this game: their seat's, or "" (a spectator, staff)."""
    if not game.teams or not (user and user.is_authenticated):
        return ""
    return game.seats.filter(user=user).values_list("team", flat=True).first() or ""


def visible_chat(*, chat: list[dict], readers: dict[int, set[int]], user) -> list[dict]:
    """Of the recent lines (with their teams), those `user` may read: a team line only if they were in that team
    when it was said (`readers`: `team_chat_readers`); team chat is hidden from the other team, from spectators
    and from whoever joins the team later (docs/modes.md "Team chat")."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    return [line for line in chat
            if line["team"] is None or (user_id is not None and user_id in readers.get(line["id"], ()))
            ][-CHAT_IN_SNAPSHOT:]


def seat_of(*, user, game: Game) -> Seat | None:
    if not user or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


# Bot modules are public: 003 shows every bot's module, charges and battery in the status panel. Never the
# stored chip nor scan_due (the owner's `me` has them).
SNAPSHOT_BOT_FIELDS = (
    "id", "at", "dir", "damage", "lives", "next_checkpoint", "virtual", "rebooting", "battery", "module", "drone_of",
)
MODE_BOT_FIELDS = ("team", "target",  # game modes (issue 16): only on the bots that have them
                   "powered_down", "power_down_next", "upgrades", "upgrade_state")  # classic (issue 19)


def game_snapshot(*, game: Game, user) -> dict:
    """The whole game as `user` may see it, with the version of the last event it includes."""
    return game_snapshots(game=game, users=[user])[0][1]


def _game_seats(with_users: bool, *, game_id: int) -> QuerySet:
    seats = Seat.objects.filter(game_id=game_id).order_by("number")
    return seats.select_related("user", "user__profile") if with_users else seats


_compiled_seats = compiled.Compiled(_game_seats)


def seats_of(*, game: Game, with_users: bool = False) -> list[Seat]:
    """`list(game.seats.all())` (with each seat's user and profile if `with_users`), in seat order and each
    seat's `game` the one given, its SQL built once per process: every deal and every snapshot reads them."""
    seats = _compiled_seats.run(with_users, game_id=game.pk)
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    return seats


def game_snapshots(*, game: Game, users: list | None = None, last_turn: dict | None = None,
                   dealt: dict | None = None) -> list[tuple]:
    """(user, `game_snapshot`) for each of `users`, or for every player whose bot was not ejected, reading
    the shared part once (what a deal pushes to every player). `last_turn` ({"number", "events"}: the turn
    the caller has just stored) and `dealt` (a RoboRacer deal's {"hands": {seat id: chips}, "programs":
    {seat id: Program}}, all of the turn's) save reading them back."""
    now = timezone.now()
    seats = seats_of(game=game, with_users=True)
    if users is None:
        users = [seat.user for seat in seats if seat.ejected_at is None]
    programs = dealt["programs"] if dealt is not None else {
        program.seat_id: program for program in Program.objects.filter(seat__game=game, turn=game.turn)}
    state = game.state or {}
    in_lobby = game.status == Game.Status.LOBBY
    seated = {seat.user_id: seat for seat in seats}
    mine_ids = [seated[user.pk].pk for user in users if user and user.pk in seated]
    kind = kinds.of(game)
    private = kind.private_context(game=game, state=state, seat_ids=mine_ids,  # read once for every viewer
                                   **({"hands": dealt["hands"]} if dealt is not None else {}))
    last = last_turn or game.turns.order_by("-number").values("number", "events").first()
    shown_ratings = ratings.shown_ratings_of(users=[seat.user_id for seat in seats])
    rating_changes = ratings.rating_changes_of(game=game) if game.status == Game.Status.FINISHED else {}
    chat_lines = recent_chat(game=game, teams=True)  # filtered per viewer below (team chat)
    chat_readers = team_chat_readers(chat=chat_lines)
    shared = {
        "id": game.pk,
        "status": game.status,
        "turn": game.turn,
        "version": game.version,
        "kind": kind.name,
        "course": game.course_data if kind.takes_chips else None,
        "creator": _creator(game, seats).get_username(),
        "max_seats": game.max_seats,
        "visibility": game.visibility,
        "rated": ratings.is_rated(game=game),
        "aborted": game.aborted,  # finished with fewer than two seats that moved: unrated (docs/ratings.md)
        "timers": {
            "preset": game.timer_preset,
            "move": game.move_time,
            "game": game.game_time,
            "policy": game.timeout_policy,
        },
        "server_time": now.isoformat(),
        "seats": [
            {
                "number": seat.number,
                "user": seat.user.get_username(),
                "display_name": player_name(user=seat.user),
                "rating": None if seat.computer else shown_ratings[seat.user_id],  # computers are unrated
                "rating_change": rating_changes.get(seat.user_id),
                "vacation": vacation(user=seat.user, now=now),
                "bot": seat.bot_id,
                "color": seat.color,
                "ready": seat.pk in programs,
                "team": seat.team or None,
                "ejected": seat.ejected_at is not None,
                "computer": seat.computer or None,  # a computer player's strength (docs/computer-players.md)
                "autopilot": seat.autopilot,  # a computer plays this person's seat (timeout policy "computer")
                **{key: value for key, value in clocks.public(seat, now).items() if key != "number"},
            }
            for seat in seats
        ],
        **kind.public_fields(game=game, state=state, seats=seats),
        "last_turn": {"turn": last["number"], "events": last["events"]} if last else None,
        "rematch": _rematch(game),
        # A finished game's tournament (or other competition), if it is a table of one: no query while it runs.
        "competition": competition(game=game) if game.status == Game.Status.FINISHED else None,
    }
    snapshots = []
    for user in users:
        mine = seated.get(user.pk) if user else None
        me = None
        if mine is not None:
            program = programs.get(mine.pk)
            me = {
                "seat": mine.number,
                "bot": mine.bot_id,
                "archived": mine.archived,
                "team": mine.team or None,
                "ejected": mine.ejected_at is not None,
                "autopilot": mine.autopilot,
                **kind.private_fields(game=game, state=state, seat=mine, program=program, context=private),
            }
        snapshots.append((user, {
            **shared,
            **kind.viewer_fields(game=game, state=state, seat=mine),
            "invite_url": (
                reverse("game-invite", args=[game.pk, game.invite_code])
                # Only while seats can be taken: a running or finished game has nothing to invite to.
                if game.visibility == Game.Visibility.PRIVATE and in_lobby and (mine is not None or _is_staff(user))
                else None
            ),
            "me": me,
            "can_join": bool(
                in_lobby and mine is None and len(seats) < game.max_seats and user and user.is_authenticated
            ),
            "can_start": bool(
                in_lobby and user and game.creator_id == user.pk and len(seats) >= start_minimum(game)
            ),
            "can_leave": bool(
                mine is not None
                and mine.ejected_at is None
                and (
                    (in_lobby and game.creator_id != user.pk)
                    or game.status in (Game.Status.PROGRAMMING, Game.Status.RESOLVING)
                )
            ),
            "can_cancel": bool(in_lobby and user and game.creator_id == user.pk),
            "can_add_computer": bool(
                in_lobby and user and game.creator_id == user.pk and len(seats) < game.max_seats
                and kind.computers_play(game)
            ),
            "computer_strengths": list(engine.players.STRENGTHS),
            "can_balance": bool(in_lobby and game.teams and user and game.creator_id == user.pk),
            "chat": visible_chat(chat=chat_lines, readers=chat_readers, user=user),
            "can_chat": mine is not None or _is_staff(user),
            "can_play_again": bool(mine is not None and game.status == Game.Status.FINISHED
                                   and shared["competition"] is None  # its competition seats the next game
                                   and (not game.test_drive or may_test_drive(user=user, course_id=game.course_id))),
        }))
    return snapshots


def roboracer_private_context(*, game: Game, state: dict, seat_ids: list[int], hands: dict | None = None) -> dict:
    """What RoboRacer snapshots read once for all their viewers: their hands (unless the caller has them: a
    deal's), scans and bots."""
    if hands is None:
        hands = {hand.seat_id: hand.chips for hand in Hand.objects.filter(seat_id__in=seat_ids, turn=game.turn)}
    else:
        hands = {seat_id: chips for seat_id, chips in hands.items() if seat_id in seat_ids}
    # A Scanner's results, each for its owner alone; read only when the game has Scanners (one query).
    scans = (
        {scan.seat_id: scan for scan in Scan.objects.filter(seat_id__in=seat_ids, turn=game.turn)}
        if seat_ids and "scanner" in game.modules and game.status == Game.Status.PROGRAMMING else {}
    )
    bots = {bot["id"]: bot for bot in state.get("bots", [])} if seat_ids else {}
    return {"hands": hands, "scans": scans, "bots": bots}


def roboracer_public_fields(*, game: Game, state: dict, seats: list) -> dict:
    """The RoboRacer part of every viewer's snapshot: the bots, the board, the modules, the modes."""
    return {
        "lives": game.lives,
        "bots": _public_bots(state),
        "board": _public_board(state),
        "priority": state.get("priority", []),
        "radiation": state.get("radiation", []),
        "winner": state.get("winner"),
        "places": state.get("places"),
        "modules": list(game.modules),
        "prices": dict(state.get("prices") or {}),
        **modes_snapshot(game=game, state=state, seats=seats),  # game modes (issue 16; docs/modes.md)
    }


def roboracer_private_fields(*, game: Game, state: dict, seat: Seat, program: Program | None, context: dict) -> dict:
    """The RoboRacer part of a player's own `me`: the hand, the program, the frozen registers, the modules."""
    bot = context["bots"].get(seat.bot_id, {})
    return {
        "hand": context["hands"].get(seat.pk, []),
        "program": program.chips if program else None,
        "reboot": program.reboot if program else False,
        "frozen": _frozen(state, seat.bot_id),
        **_private_modules(bot, program, context["scans"].get(seat.pk)),
        **_private_classic(bot, program),
    }


def _private_modules(bot: dict, program: Program | None, scan: Scan | None) -> dict:
    """The module part of a player's own `me`: the action sent with this turn's program (after a scan, the
    Scanner's activation even before a program is sent), the stored chip, whether a Scanner's charge is due,
    and the latest scan of this turn. Never in anyone else's snapshot."""
    action = program.action if program is not None else None
    if scan is not None and action is None:
        action = {"activate": {}}
    return {
        "action": action,
        "stored_chip": bot.get("stored_chip"),
        "scan_due": bool(bot.get("scan_due", False)),
        "scan": {"turn": scan.turn, "programs": scan.programs} if scan is not None else None,
    }


def competition(*, game: Game) -> dict | None:
    """The competition another app runs this game in (a tournament's table): `{"kind", "name", "url"}`, or None
    (games.signals.competition)."""
    for _receiver, answer in signals.competition.send(sender=Game, game=game):
        if answer:
            return answer
    return None


def viewer_notes(*, game: Game, user) -> list[str]:
    """What other apps tell this viewer about this game (games.signals.viewer_notes): "You were replaced by ..."."""
    if not (user and user.is_authenticated):
        return []
    return [answer for _receiver, answer in signals.viewer_notes.send(sender=Game, game=game, user=user) if answer]


def _rematch(game: Game) -> dict | None:
    """The "play again" game made from this one: its id and where to open it (a private one's invite link goes
    only to those who may see this game's snapshot: its players and staff)."""
    if game.rematch_id is None:
        return None
    rematch = Game.objects.only("pk", "visibility", "invite_code").get(pk=game.rematch_id)
    return {"id": rematch.pk, "url": rematch_link(game=rematch)}


def _creator(game: Game, seats: list[Seat]):
    """The game's creator, from the seats read with their users if they are seated (saves a query when the
    game was read without its creator)."""
    return next((seat.user for seat in seats if seat.user_id == game.creator_id), None) or game.creator


def _is_staff(user) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)


def _private_classic(bot: dict, program) -> dict:
    """classic (000): the owner's own upgrade switches, the instruction its flywheel saved (it is in the hand:
    hidden from the others) and the power down it asked for with this turn's program."""
    if "upgrade_use" not in bot:
        return {}
    action = (program.action or {}) if program else {}
    return {"upgrade_use": bot.get("upgrade_use", {}), "saved_chip": bot.get("saved_chip"),
            "power_down": bool(action.get("power_down"))}  # fmt: skip


def _public_bots(state: dict) -> list[dict]:
    """The bots as anyone may see them (SNAPSHOT_BOT_FIELDS): position, facing, damage, lives, progress, and
    whether the bot sits this turn out rebooting (asked for with last turn's program, revealed when it ran)."""
    return [
        {**{key: bot.get(key) for key in SNAPSHOT_BOT_FIELDS}, **{key: bot[key] for key in MODE_BOT_FIELDS if key in bot}}
        for bot in (state or {}).get("bots", [])
    ]


def resolved_turn(*, game: Game, number: int) -> dict | None:
    """A resolved turn for replay, public to every viewer, as the game's kind shows it. None when that turn has
    not been resolved."""
    turn = game.turns.filter(number=number).first()
    if turn is None:
        return None
    return kinds.of(game).public_turn(game=game, turn=turn)


def roboracer_turn(*, game: Game, turn: Turn) -> dict:
    """A resolved RoboRacer turn: the bots before and after, the events, and the programs (revealed once the
    turn ran)."""
    return {
        "turn": turn.number,
        "events": turn.events,
        "programs": turn.programs,
        "reboots": turn.reboots,
        "actions": public_actions(ruleset=game.ruleset, actions=turn.actions),
        "before": _public_state(turn.state_before),
        "after": _public_state(turn.state_after),
        "report": _turn_report(game, turn),
    }


def public_actions(*, ruleset: str, actions: dict | None) -> dict:
    """A resolved turn's actions as every viewer sees them ({bot id: action}): what every player saw happen, never
    what only the owner may see (classic's flywheel instruction, circuit breaker threshold: docs/api.md)."""
    shown = engine.rulesets.get(ruleset).public_action
    if shown is None:
        return dict(actions or {})
    public = {bot_id: shown(action) for bot_id, action in (actions or {}).items()}
    return {bot_id: action for bot_id, action in public.items() if action is not None}


def _turn_report(game: Game, turn) -> Any:
    """The rule document's own report of the turn (001's per-stage table, 000's register report), a view of the
    public events; None for the rulesets without one (docs/rulesets.md)."""
    rules = engine.rulesets.get(game.ruleset)
    if rules.report is None:
        return None
    state = engine.state_from_dict(turn.state_before, engine.parse_course(game.course_data))
    return rules.report(state, turn.events)


def _public_state(state: dict) -> dict:
    return {
        "bots": _public_bots(state),
        "board": _public_board(state),
        "priority": state.get("priority", []),
        "radiation": state.get("radiation", []),
        "places": state.get("places"),
        "remains": state.get("remains", []),
        "winning_team": state.get("winning_team"),
        "outcome": state.get("outcome"),
    }


def _public_board(state: dict) -> dict:
    """What the elements remember (broken tiles, downed force fields...), with only the revealed part of the
    teleporter loop (engine.public_board)."""
    return engine.public_board(board_from_dict((state or {}).get("board", {})))


def _frozen(state: dict, bot_id: str) -> list[dict]:
    for bot in state.get("bots", []):
        if bot["id"] == bot_id:
            ruleset = state.get("ruleset", engine.rulesets.DEFAULT)
            frozen = engine.frozen_registers(engine.bot_from_dict(bot, ruleset=ruleset), ruleset)
            return [{"register": index, "chip": chip} for index, chip in sorted(frozen.items())]
    return []


def awaiting_my_move(*, user, games) -> set[int]:
    """Ids of the given games where it is the user's move: programming, my clock running (so I have a hand
    and no program in yet)."""
    ids = [game.pk for game in games if game.status == Game.Status.PROGRAMMING]
    return set(
        Seat.objects.filter(game_id__in=ids, user=user, clock_started_at__isnull=False).values_list(
            "game_id", flat=True
        )
    )


MODE_TEXT = {"race": "Race", "arena": "Arena: last bot alive wins", "puzzle": "Puzzle"}


def ruleset_snapshot(*, game: Game) -> dict:
    """What the game screen needs to know of the game's rules (docs/rulesets.md): its name and title, the rule
    document, whether cards carry numbers, the damage that destroys a bot and whether anything damages one at
    all, whether a destruction costs a robot,
    and the game's options."""
    rules = engine.rulesets.get(game.ruleset)
    return {
        "name": rules.name, "title": rules.title, "document": rules.document, "numbered": rules.numbered,
        "max_damage": rules.max_damage, "damage": rules.damage, "counts_lives": rules.counts_lives,
        "modules": rules.modules,
        "options": {**rules.options, **(game.options or {})},
    }  # fmt: skip


def modes_snapshot(*, game: Game, state: dict, seats: list) -> dict:
    """The game mode's part of the snapshot (docs/modes.md): the mode, team play, arena remains, the puzzle and
    its outcome, whether reboots exist, the game's ruleset, and once the game is over the mode's standings."""
    rules = engine.rulesets.get(game.ruleset)
    course = game.course_data or {}
    mode = course.get("mode", "race")
    puzzle = course.get("puzzle") if mode == "puzzle" else None
    out = {
        "mode": mode,
        "mode_text": MODE_TEXT.get(mode, mode),
        "teams": game.teams,
        "remains": state.get("remains", []),
        "winning_team": state.get("winning_team"),
        "outcome": state.get("outcome"),
        "can_reboot": mode != "arena" and rules.reboots,
        "ruleset": ruleset_snapshot(game=game),
        "puzzle": None if puzzle is None else {
            "goal": puzzle.get("goal"),
            "goal_text": puzzle_goal_text(puzzle),
            "turn_limit": puzzle.get("turn_limit"),
            "players": puzzle.get("players", 1),
            "description": puzzle.get("description", ""),
            "targets": [target["id"] for target in puzzle.get("targets", [])],
            "turns_used": max(0, (state.get("turn") or 1) - 1) if state else 0,
        },
        "standings": None,
        "standings_summary": None,
    }
    if game.status == Game.Status.FINISHED and state:
        out["standings"], out["standings_summary"] = standings(game=game, state=state, seats=seats, mode=mode)
        if rules.awards:  # 000's end-of-race awards, from the whole race's turn log (docs/rulesets.md)
            names = {seat.bot_id: seat.user.username if seat.user_id else seat.bot_id for seat in seats}
            turns = [turn.events for turn in game.turns.order_by("number")]
            out["awards"] = [
                {**entry, "players": [names.get(bot_id, bot_id) for bot_id in entry["bots"]]}
                for entry in engine.reports.awards([seat.bot_id for seat in seats], turns)
            ]
    return out


def puzzle_goal_text(puzzle: dict) -> str:
    goal = puzzle.get("goal") or {}
    kind = goal.get("type")
    limit = puzzle.get("turn_limit")
    within = f" within {limit} turn{'s' if limit != 1 else ''}" if limit else ""
    if kind == "checkpoint":
        return f"Reach check point {goal.get('number')}{within}"
    if kind == "survive":
        return f"Survive {goal.get('turns')} turns with no bot destroyed"
    if kind == "destroy":
        return f"Destroy {', '.join(goal.get('targets', []))}{within}"
    return ""


def standings(*, game: Game, state: dict, seats: list, mode: str) -> tuple[list[dict], str]:
    """The results of a finished game as its mode ranks them: races by final place, arenas by survival (last
    alive first, then the reverse order of going out), team games with the winning team first, puzzles by the
    outcome and the turns used."""
    by_bot = {seat.bot_id: seat for seat in seats}
    bots = [bot for bot in state.get("bots", []) if not bot.get("drone_of") and not bot.get("target")]
    places = state.get("places") or {}
    turns_used = max(0, (state.get("turn") or 1) - 1)
    winner = state.get("winner")
    winning_team = state.get("winning_team")

    def row(bot, place, detail):
        seat = by_bot.get(bot["id"])
        return {
            "place": place, "bot": bot["id"], "seat": seat.number if seat else None,
            "user": seat.user.get_username() if seat else None, "team": bot.get("team"), "detail": detail,
        }  # fmt: skip

    if mode == "puzzle":
        outcome = state.get("outcome")
        limit = ((game.course_data or {}).get("puzzle") or {}).get("turn_limit")
        text = (f"Solved in {turns_used} of {limit} turns" if outcome == "solved"
                else f"Failed after {turns_used} turn{'s' if turns_used != 1 else ''}")  # fmt: skip
        rows = [row(bot, 1, text.lower()) for bot in bots]
        return rows, text

    if mode == "arena":
        ordered = sorted(bots, key=lambda bot: (bot["id"] != winner, places.get(bot["id"], 99)))
        rows = []
        for bot in ordered:
            out = bot.get("out")
            if bot["id"] == winner:
                detail = "last bot alive"
            elif out is None:
                detail = "still standing"
            else:
                detail = f"out in turn {out[0]}" + (", ejected" if bot.get("ejected") else "")
            rows.append(row(bot, places.get(bot["id"]), detail))
    else:
        ordered = sorted(bots, key=lambda bot: places.get(bot["id"], 99))
        rows = [
            row(bot, places.get(bot["id"]), "completed the course" if bot["id"] == winner
                else f"{max(0, bot.get('next_checkpoint', 1) - 1)} check point(s)")
            for bot in ordered
        ]  # fmt: skip
    if state.get("winning_team") is not None or any(bot.get("team") for bot in bots):
        rows.sort(key=lambda r: (r["team"] != winning_team, r["place"] or 99))
        summary = f"{winning_team.capitalize()} team wins" if winning_team else "No team won"
        return rows, summary
    if winner is not None:
        seat = by_bot.get(winner)
        name = seat.user.get_username() if seat else winner
        return rows, f"{name} wins" + (" (last bot alive)" if mode == "arena" else "")
    return rows, "No winner"


def puzzle_list(*, user) -> list[dict]:
    """Every playable puzzle course with how many players tried it, how many solved it, the fewest turns a
    solution took, and `user`'s own solved games (for replays): a fixed number of queries, however many
    puzzles and games (docs/modes.md "Puzzle pages")."""
    from django.db.models import Count

    from roboracer.courses import selectors as course_selectors

    courses = [c for c in course_selectors.playable_courses().order_by("name") if (c.data or {}).get("mode") == "puzzle"]
    ids = [course.pk for course in courses]
    played = Seat.objects.filter(game__course_id__in=ids).exclude(game__status__in=[Game.Status.LOBBY, Game.Status.CANCELLED])
    tried = dict(played.values("game__course_id").annotate(n=Count("user_id", distinct=True)).values_list("game__course_id", "n"))
    solved_seats = played.filter(game__status=Game.Status.FINISHED, game__state__outcome="solved")
    solved = dict(solved_seats.values("game__course_id").annotate(n=Count("user_id", distinct=True))
                  .values_list("game__course_id", "n"))  # fmt: skip
    best: dict[int, int] = {}
    for course_id, turn in Game.objects.filter(course_id__in=ids, status=Game.Status.FINISHED,
                                               state__outcome="solved").values_list("course_id", "state__turn"):
        if isinstance(turn, int):
            best[course_id] = min(best.get(course_id, 99), turn - 1)
    mine: dict[int, list[dict]] = {}
    if user is not None and user.is_authenticated:
        for game_id, course_id, turn in (solved_seats.filter(user=user).order_by("-game__finished_at", "-game_id")
                                         .values_list("game_id", "game__course_id", "game__state__turn")):  # fmt: skip
            mine.setdefault(course_id, []).append({"game": game_id, "turns": turn - 1 if isinstance(turn, int) else None,
                                                   "url": reverse("game", args=[game_id])})  # fmt: skip
    return [
        {
            "slug": course.slug, "name": course.name, "course_id": course.pk,
            "description": (course.data.get("puzzle") or {}).get("description", ""),
            "goal": puzzle_goal_text(course.data.get("puzzle") or {}),
            "players": (course.data.get("puzzle") or {}).get("players", course.min_players),
            "turn_limit": (course.data.get("puzzle") or {}).get("turn_limit"),
            "tried": tried.get(course.pk, 0), "solved": solved.get(course.pk, 0), "best_turns": best.get(course.pk),
            "mine": mine.get(course.pk, []),
        }  # fmt: skip
        for course in courses
    ]
