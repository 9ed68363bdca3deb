"""Reads of ratings: whether a game is rated, a player's rating as shown, their history and finished games."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import F, OuterRef, QuerySet, Subquery, TextField, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce

from games import kinds
from roboracer import compiled
from roboracer.accounts import selectors as account_selectors
from roboracer.courses.models import Course
from roboracer.ratings.models import DEFAULT_MU, DEFAULT_SIGMA, Rating, RatingChange, ordinal

# The modes a game may be rated in (docs/ratings.md "Which games are rated"). Team mode joins when it exists;
# until then a mode not listed here (puzzle, and any the engine adds later) is unrated.
RATED_MODES = ("race", "arena")
# The shown rating: 1000 + SCALE x the ordinal (mu - 3 sigma), so a new player shows 1000 (docs/ratings.md).
SHOWN_BASE = 1000
SHOWN_SCALE = 40
GAMES_PER_PAGE = 20
LEADERBOARD_SIZE = 100


def shown(mu: float, sigma: float) -> int:
    """The rating players read: a whole number, 1000 for a new player, never below 0."""
    return max(0, round(SHOWN_BASE + SHOWN_SCALE * ordinal(mu, sigma)))


DEFAULT_SHOWN = shown(DEFAULT_MU, DEFAULT_SIGMA)


def points(mu_before: float, sigma_before: float, mu_after: float, sigma_after: float) -> int:
    """A game's change to the shown rating (what the results and the player page print as +12 or -7)."""
    return shown(mu_after, sigma_after) - shown(mu_before, sigma_before)


def ratings_of(*, users) -> dict[int, float]:
    """{user id: ordinal} for these users (users or ids); a player never rated has the default ordinal."""
    ids = [getattr(user, "pk", user) for user in users]
    found = {pk: ordinal(mu, sigma) for pk, mu, sigma in Rating.objects.filter(user_id__in=ids).values_list(
        "user_id", "mu", "sigma")}
    default = ordinal(DEFAULT_MU, DEFAULT_SIGMA)
    return {pk: found.get(pk, default) for pk in ids}


# Every snapshot reads its players' ratings: the SQL is built once per number of players.
_ratings_of = compiled.Compiled(lambda _variant, *, ids: Rating.objects.filter(user_id__in=ids).values_list(
    "user_id", "mu", "sigma"))


def shown_ratings_of(*, users) -> dict[int, int]:
    """{user id: shown rating} for these users (users or ids), in one query; the default for the unrated."""
    ids = [getattr(user, "pk", user) for user in users]
    found = {pk: shown(mu, sigma) for pk, mu, sigma in _ratings_of.run(ids=ids)} if ids else {}
    return {pk: found.get(pk, DEFAULT_SHOWN) for pk in ids}


def lobby_annotations() -> dict:
    """What a lobby query annotates so that `is_rated` and `creator_rating` need no query per game: the mode
    from the game's copy of the course (which the lobby does not read whole) and the creator's rating."""
    creator = Rating.objects.filter(user=OuterRef("creator_id"))
    return {
        "course_mode": Coalesce(KT("course_data__mode"), Value("race"), output_field=TextField()),
        "creator_mu": Subquery(creator.values("mu")[:1]),
        "creator_sigma": Subquery(creator.values("sigma")[:1]),
    }


def creator_rating(*, game) -> int:
    """The shown rating of the game's creator (from `lobby_annotations` when the query made them)."""
    if hasattr(game, "creator_mu"):
        if game.creator_mu is None:
            return DEFAULT_SHOWN
        return shown(game.creator_mu, game.creator_sigma)
    return shown_ratings_of(users=[game.creator_id])[game.creator_id]


def rating_changes_of(*, game) -> dict[int, int]:
    """{user id: shown points won or lost} in this game; empty for a game not (yet) rated."""
    return {
        user_id: points(*values)
        for user_id, *values in RatingChange.objects.filter(game=game)
        .values_list("user_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
    }


def game_mode(*, game) -> str:
    """The game's mode, from its own copy of the course (a lobby query may annotate it as `course_mode`
    instead of reading the whole layout)."""
    mode = getattr(game, "course_mode", None)
    if mode is None:
        mode = (game.course_data or {}).get("mode", "race")
    return mode


def is_rated(*, game) -> bool:
    """Whether a finished `game` changes its players' ratings (docs/ratings.md "Which games are rated"): the
    creator left it rated, it is not a course builder's test drive, its course is stable and its mode is race
    or arena (team mode when it comes; puzzles never). Games with computer players are never rated: seating one
    (games.services.add_computer, practice_game, a tournament table filled with computers) clears the game's
    `rated`, so this check needs no query of the seats (docs/computer-players.md). A game of one seat is never
    rated: one created for one player, or one its creator started alone (starting closes the empty seats, so
    `max_seats` is then the number seated)."""
    if not game.rated or game.test_drive or game.aborted:  # aborted: fewer than two seats moved
        return False
    if game.max_seats < 2:  # a solo game: nobody to compare with
        return False
    if not kinds.of(game).rated:  # a kind with no rating pool of its own yet (docs/game-kinds.md)
        return False
    if type(game).course.is_cached(game):
        stable = game.course.state == Course.State.STABLE
    else:  # only the column asked about: not the course's layout, on every pushed snapshot
        stable = Course.objects.filter(pk=game.course_id, state=Course.State.STABLE).exists()
    if not stable:
        return False
    return game_mode(game=game) in RATED_MODES


def moved_seat_ids(*, game) -> set[int]:
    """The ids of the game's seats that moved: sent at least one program (docs/ratings.md "Aborted games").
    A program the autopilot or a computer player sent for the seat counts; a seat ejected or resigned before
    its first program never moved."""
    from games.models import Program

    return set(Program.objects.filter(seat__game=game).values_list("seat_id", flat=True).distinct())


def rating_of(*, user) -> dict:
    """A player's rating as the player page shows it."""
    rating = Rating.objects.filter(user=user).first()
    mu, sigma, games = (rating.mu, rating.sigma, rating.games) if rating else (DEFAULT_MU, DEFAULT_SIGMA, 0)
    return {
        "rating": shown(mu, sigma),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "rated_games": games,
    }


def history_of(*, user) -> list[dict]:
    """Every rated game's change to the player's rating, oldest first: the chart's points. A point that a
    private game caused names no game and no time finer than its day (docs/ratings.md "The history names no
    private game"): its `game` is null and its `at` is the day's start, 00:00 UTC."""
    from games.models import Game

    changes = RatingChange.objects.filter(user=user).order_by("created_at", "id").values_list(
        "game_id", "game__visibility", "created_at", "mu_after", "sigma_after")
    return [
        {"game": None, "at": day_of(at).isoformat(), "rating": shown(mu, sigma)}
        if visibility != Game.Visibility.PUBLIC else
        {"game": game_id, "at": at.isoformat(), "rating": shown(mu, sigma)}
        for game_id, visibility, at, mu, sigma in changes
    ]


def day_of(at):
    """The start (00:00 UTC) of the day of the aware datetime `at`: all a public history tells of a private
    game's time."""
    return at.astimezone(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def finished_games_of(*, user, viewer) -> QuerySet:
    """The player's finished games that `viewer` may see (public ones, and private ones the viewer played in;
    staff all: games.selectors.visible_games), newest first."""
    from games import selectors as game_selectors
    from games.models import Game, Seat

    visible = game_selectors.visible_games(user=viewer, games=Game.objects.filter(status=Game.Status.FINISHED))
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
    from games.models import Game, Seat

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
            "rated": change is not None,
            "aborted": game.aborted,  # fewer than two players moved: rated for nobody (docs/ratings.md)
            "rating_change": points(change.mu_before, change.sigma_before, change.mu_after, change.sigma_after)
            if change else None,
        })
    return page_obj, rows


def _place(places, seat) -> int | None:
    """A seat's final place in an unrated game, from the game's state's `places`."""
    place = places.get(seat.bot_id) if isinstance(places, dict) else None
    return place if isinstance(place, int) else None


def player(*, username: str):
    """The active user of that exact username (case-insensitive, as log-in matches it), or None: a missing
    and an inactive user look the same."""
    if not isinstance(username, str) or not username or len(username) > 150 or not username.isprintable():
        return None  # no username is that long or holds a control character (PostgreSQL refuses NUL in text)
    return get_user_model().objects.filter(username__iexact=username, is_active=True).select_related(
        "profile").first()


def leaderboard(*, limit: int = LEADERBOARD_SIZE) -> list[dict]:
    """The top ratings, best first: players with at least one rated game."""

    ranked = (
        Rating.objects.filter(games__gt=0, user__is_active=True)
        .select_related("user", "user__profile")
        .annotate(score=F("mu") - 3 * F("sigma"))
        .order_by("-score", "user__username")[:limit]
    )
    return [
        {"username": r.user.get_username(), "name": account_selectors.player_name(user=r.user),
         "rating": shown(r.mu, r.sigma), "games": r.games}
        for r in ranked
    ]


def player_page(*, user, viewer, page: int | str | None = 1) -> dict:
    """Everything the player page and GET /api/players/<username>/ show: who, the rating, its history (no game
    ids: a private game's id is not to be learnt here) and one page of finished games."""

    page_obj, games = finished_games_page(user=user, viewer=viewer, page=page)
    return {
        "username": user.get_username(),
        "display_name": account_selectors.player_name(user=user),
        **rating_of(user=user),
        "history": [{"at": point["at"], "rating": point["rating"]} for point in history_of(user=user)],
        "games": {
            "count": page_obj.paginator.count,
            "page": page_obj.number,
            "pages": page_obj.paginator.num_pages,
            "results": games,
        },
        "page_obj": page_obj,
    }
