"""Games played, as the pages of the layers below games show them (docs/architecture.md "Layers"): a player's
finished games and rating history (the player page), the games on a course (its page). A public history names
no private game (docs/ratings.md "The history names no private game")."""

from __future__ import annotations

import datetime as dt

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from games import kinds
from games.models import Game, Seat
from games.selectors import access
from roboracer.accounts import selectors as account_selectors
from roboracer.ratings import selectors as ratings
from roboracer.ratings.models import RatingChange

GAMES_PER_PAGE = 20


def day_of(at: dt.datetime) -> dt.datetime:
    """The start (00:00 UTC) of the day of the aware datetime `at`: all a public history tells of a private
    game's time."""
    return at.astimezone(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def rating_history(*, user, kind: str) -> list[dict]:
    """Every rated game's change to the player's `kind` rating, oldest first: the chart's points. A point that a
    private game caused names no game and no time finer than its day (docs/ratings.md "The history names no
    private game"): its `game` is null and its `at` is the day's start, 00:00 UTC."""
    changes = RatingChange.objects.filter(user=user, kind=kind).order_by("created_at", "id").values_list(
        "game_id", "game__visibility", "created_at", "mu_after", "sigma_after")
    return [
        {"game": None, "at": day_of(at).isoformat(), "rating": ratings.shown(mu, sigma)}
        if visibility != Game.Visibility.PUBLIC else
        {"game": game_id, "at": at.isoformat(), "rating": ratings.shown(mu, sigma)}
        for game_id, visibility, at, mu, sigma in changes
    ]


def finished_games_of(*, user, viewer) -> QuerySet:
    """The player's finished games that `viewer` may see (public ones, and private ones the viewer played in;
    staff all: games.selectors.access.visible_games), newest first."""
    visible = access.visible_games(user=viewer, games=Game.objects.filter(status=Game.Status.FINISHED))
    return (
        Seat.objects.filter(user=user, game__in=visible.values("pk"))
        .select_related("game", "game__course")
        .defer("game__course__data", "game__course_data", "game__state")
        .order_by("-game__finished_at", "-game_id")
    )


def finished_games_page(*, user, viewer, page: int | str | None = 1) -> tuple[Page, list[dict]]:
    """One page of the player's finished games, each {game, course, course_name, finished_at, place, players,
    rated, aborted, rating_change (shown points, or null for an unrated game)}; a page out of range is the last
    one."""
    page_obj = Paginator(finished_games_of(user=user, viewer=viewer), GAMES_PER_PAGE).get_page(page)
    seats = list(page_obj.object_list)
    game_ids = [seat.game_id for seat in seats]
    changes = {
        change.game_id: change for change in RatingChange.objects.filter(user=user, game_id__in=game_ids)
    }
    places = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "state__places"))
    counts: dict[int, int] = {}
    for game_id in Seat.objects.filter(game_id__in=game_ids).values_list("game_id", flat=True):
        counts[game_id] = counts.get(game_id, 0) + 1
    rows = []
    for seat in seats:
        game = seat.game
        change = changes.get(game.pk)
        rows.append({
            "game": game.pk,
            "course": game.course.slug if game.course_id else None,
            "course_name": str(game.course) if game.course_id else kinds.of(game).board_name(game),
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
            "finished": game.finished_at,
            "place": change.place if change else _place(places.get(game.pk), seat),
            "players": counts.get(game.pk, 0),
            "kind": game.kind or kinds.DEFAULT,  # the rating a rated game changed is its kind's
            "rated": change is not None,
            "aborted": game.aborted,  # fewer than two players moved: rated for nobody (docs/ratings.md)
            "rating_change": ratings.points(change.mu_before, change.sigma_before, change.mu_after, change.sigma_after)
            if change else None,
        })
    return page_obj, rows


def _place(places, seat) -> int | None:
    """A seat's final place in an unrated game, from the game's state's `places`."""
    place = places.get(seat.bot_id) if isinstance(places, dict) else None
    return place if isinstance(place, int) else None


def player_page(*, user, viewer, page: int | str | None = 1) -> dict:
    """Everything the player page and GET /api/players/<username>/ show: who, the ratings, their histories (no
    game ids: a private game's id is not to be learnt here) and one page of finished games.

    `rating`, `mu`, `sigma`, `rated_games` and `history` are the RoboRacer rating's, as before there was a
    rating per kind; `ratings` holds every kind's ({kind: ratings.selectors.ratings_by_kind's figures and its
    `history`}; docs/ratings.md "One rating per kind")."""

    page_obj, games = finished_games_page(user=user, viewer=viewer, page=page)
    by_kind = ratings.ratings_by_kind(user=user)
    for kind, figures in by_kind.items():
        figures["history"] = [{"at": point["at"], "rating": point["rating"]}
                              for point in rating_history(user=user, kind=kind)]
    roboracer = by_kind[ratings.DEFAULT_KIND]
    return {
        "username": user.get_username(),
        "display_name": account_selectors.player_name(user=user),
        "bot_account": account_selectors.is_bot(user=user),  # its BOT badge (docs/bot-api.md)
        **ratings.rating_of(user=user, kind=ratings.DEFAULT_KIND),
        "history": roboracer["history"],
        "ratings": by_kind,
        "games": {
            "count": page_obj.paginator.count,
            "page": page_obj.number,
            "pages": page_obj.paginator.num_pages,
            "results": games,
        },
        "page_obj": page_obj,
    }


def course_games(*, course, user, limit: int = 20) -> list[Game]:
    """The games played on this course (this version) that `user` may see, newest first: shown to its author
    and staff on the course page (roboracer.courses.signals.course_games)."""
    games = Game.objects.filter(course=course).select_related("creator")
    return list(access.visible_games(user=user, games=games).order_by("-created_at")[:limit])
