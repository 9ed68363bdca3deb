"""Who may see a game: the visibility rule every read of a game goes through, invitations and invite codes."""

from __future__ import annotations

import secrets

from django.db.models import Exists, OuterRef, Q, QuerySet

from games.models import Game, Seat
from roboracer.courses import selectors as course_selectors
from roboracer.courses.models import Course


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


def is_invited(*, user, game: Game) -> bool:
    """The user played the finished game this lobby was made from with "play again"."""
    if not (user and user.is_authenticated) or game.status != Game.Status.LOBBY:
        return False
    return Seat.objects.filter(game__rematch=game, user=user).exists()


def invitations(*, user) -> QuerySet[Game]:
    """Lobbies made with "play again" from a game the user played, where the user has no seat yet."""
    return Game.objects.filter(status=Game.Status.LOBBY, rematch_of__seats__user=user).exclude(seats__user=user)


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


def may_test_drive(*, user, course_id: int | None) -> bool:
    """Who may test-drive a course, and so play a test drive again: its author and staff (issue 33 item 12;
    games.test_drive.start_test_drive)."""
    course = Course.objects.filter(pk=course_id).only("author_id").first()
    return course is not None and course_selectors.may_write(user=user, course=course)
