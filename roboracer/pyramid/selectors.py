"""Reads of the Pyramid: the rows, the open challenges, the history, and what a player may do.

Nothing here is hidden information: places, points, challenges and their games are public (the games are
public games; hands and programs stay in the games app, which shows them to their owner only).
"""

from __future__ import annotations

from django.urls import reverse

from games.models import Game, Program
from games.services import setup as game_setup
from roboracer.accounts.selectors import is_bot, player_name
from roboracer.courses.models import Course
from roboracer.pyramid.models import COSTS, MAX_ROWS_UP, Challenge, Entry, Place, Pyramid

HISTORY_LENGTH = 50


def pyramids():
    return Pyramid.objects.all()


def pyramid_by_slug(*, slug: str) -> Pyramid | None:
    return Pyramid.objects.filter(slug=slug).first()


def course_pool(*, pyramid: Pyramid) -> list[Course]:
    """The stable courses for 2 players a challenge's game is drawn from: the pyramid's own pool, or, if it
    names none, every stable course bundled with RoboRacer (docs/pyramid.md, "Courses")."""
    courses = pyramid.courses.all() if pyramid.courses.exists() else Course.objects.filter(bundled=True)
    courses = courses.filter(state=Course.State.STABLE, min_players__lte=2, max_players__gte=2).order_by("slug")
    # Only courses a challenge's game can be played on, as the one policy of a game's setting says
    # (games.services.setup): no puzzle, none of another ruleset. So a challenge never fails because of its course.
    return [course for course in courses if pool_fits(course=course)]


def pool_fits(*, course: Course) -> bool:
    """A challenge's game (2 players, the default ruleset) can be played on `course` (games.services.setup)."""
    return game_setup.fits(course_data=course.data, use=game_setup.PYRAMID, seats=2)


def rank_cost(*, challenger: Place, defender: Place) -> int | None:
    """The cost of the challenge by the places alone, or None if the places do not allow it."""
    if challenger.user_id == defender.user_id:
        return None
    rows_up = challenger.row - defender.row
    if rows_up < 0 or rows_up > MAX_ROWS_UP or (rows_up == 0 and defender.position > challenger.position):
        return None
    return COSTS[rows_up]


def _pending_games(challenges: list[Challenge]) -> set[int]:
    """The games of these open challenges in which the defender has not yet sent a program for turn 1."""
    games = {c.game_id: c.defender_id for c in challenges
             if c.game.status == Game.Status.PROGRAMMING and c.game.turn == 1}
    played = set(Program.objects.filter(seat__game_id__in=list(games), turn=1)
                 .values_list("seat__game_id", "seat__user_id")) if games else set()
    return {game for game, defender in games.items() if (game, defender) not in played}


def _challenge(challenge: Challenge, pending: set[int]) -> dict:
    return {
        "id": challenge.pk,
        "challenger": challenge.challenger.get_username(),
        "challenger_name": player_name(user=challenge.challenger),
        "challenger_bot": is_bot(user=challenge.challenger),  # a bot account: its BOT badge (docs/bot-api.md)
        "defender": challenge.defender.get_username(),
        "defender_name": player_name(user=challenge.defender),
        "defender_bot": is_bot(user=challenge.defender),
        "cost": challenge.cost,
        "status": challenge.status,
        "game": challenge.game_id,
        "game_status": challenge.game.status,
        "pending": challenge.game_id in pending,
        "created_at": challenge.created_at.isoformat(),
    }


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _history_text(entry: Entry) -> str:
    who = player_name(user=entry.user) if entry.user else "a former player"
    other = player_name(user=entry.other) if entry.other else "a former player"
    d = entry.detail
    if entry.kind == Entry.Kind.JOINED:
        return f"{who} joined in row {d.get('row')}."
    if entry.kind == Entry.Kind.CHALLENGED:
        cost = d.get("cost", 0)
        return f"{who} challenged {other} ({'free' if not cost else _points(cost)})."
    if entry.kind == Entry.Kind.SWAPPED:
        if d.get("moved"):
            return f"{who} beat {other}: they swapped places, {who} is now in row {d.get('row')}."
        return f"{who} beat {other}, already below {who} by then: no swap."
    if entry.kind == Entry.Kind.DEFENDED:
        return f"{who} defended against {other} and earned {_points(d.get('points', 1))}."
    if entry.kind == Entry.Kind.NO_WINNER:
        return f"{who} and {other} played without a winner: nothing changed."
    points = d.get("points", 0)
    paid = f"got {_points(points)} back" if points > 0 else f"paid {_points(-points)}" if points < 0 else "no points back"
    return f"{who} revoked the challenge of {other} ({paid})."


def history(*, pyramid: Pyramid, limit: int = HISTORY_LENGTH) -> list[dict]:
    entries = (Entry.objects.filter(pyramid=pyramid)
               .select_related("user__profile", "other__profile", "challenge")[:limit])
    return [{"at": e.at.isoformat(), "kind": e.kind, "text": _history_text(e),
             "game": e.challenge.game_id if e.challenge else None} for e in entries]


def pyramid_state(*, pyramid: Pyramid, user) -> dict:
    """The pyramid as the page and the API show it to `user`: rows of places (None for an empty one), each
    player's points and open challenges, what `user` may do, the open challenges, and the history."""
    places = list(Place.objects.filter(pyramid=pyramid).select_related("user__profile"))
    open_challenges = list(Challenge.objects.filter(pyramid=pyramid, status=Challenge.Status.OPEN)
                           .select_related("challenger__profile", "defender__profile", "game")
                           .order_by("created_at", "id"))
    pending = _pending_games(open_challenges)
    challenges = [_challenge(c, pending) for c in open_challenges]
    me = next((p for p in places if user.is_authenticated and p.user_id == user.pk), None)
    mine = next((c for c in challenges if me and c["challenger"] == me.user.get_username()), None)
    defending: dict[str, list[dict]] = {}
    challenging: dict[str, dict] = {}
    for c in challenges:
        defending.setdefault(c["defender"], []).append(c)
        challenging[c["challenger"]] = c
    engaged = {frozenset((c.challenger_id, c.defender_id)) for c in open_challenges}

    def player(place: Place) -> dict:
        cost = rank_cost(challenger=me, defender=place) if me else None
        why = None
        if cost is not None:
            if mine:
                why = "you already have an open challenge"
            elif frozenset((me.user_id, place.user_id)) in engaged:
                why = "you are already playing each other"
            elif len(defending.get(place.user.get_username(), [])) >= pyramid.max_defences:
                why = f"already defending {pyramid.max_defences} challenges"
            elif me.points < cost:
                why = f"costs {_points(cost)}; you have {me.points}"
        return {
            "username": place.user.get_username(),
            "name": player_name(user=place.user),
            "bot": is_bot(user=place.user),  # a bot account: its BOT badge (docs/bot-api.md)
            "row": place.row,
            "position": place.position,
            "points": place.points,
            "me": place is me,
            "defending": defending.get(place.user.get_username(), []),
            "challenging": challenging.get(place.user.get_username()),
            "challenge_cost": cost,  # None: the places do not allow it
            "can_challenge": cost is not None and why is None,
            "why_not": why,
        }

    bottom = max((p.row for p in places), default=0)
    grid: list[list[dict | None]] = [[None] * row for row in range(1, bottom + 1)]
    for place in places:
        grid[place.row - 1][place.position - 1] = player(place)
    return {
        "slug": pyramid.slug,
        "name": pyramid.name,
        "description": pyramid.description,
        "rules": {
            "starting_points": pyramid.starting_points,
            "max_defences": pyramid.max_defences,
            "costs": {str(rows): cost for rows, cost in COSTS.items()},
            "lives": pyramid.lives,
            "timer_preset": pyramid.timer_preset,
            "timeout_policy": pyramid.timeout_policy,
            "courses": [course.name for course in course_pool(pyramid=pyramid)],
        },
        "players": len(places),
        "rows": grid,
        "me": None if me is None else {
            "row": me.row, "position": me.position, "points": me.points, "open_challenge": mine,
            # The challenges the player defends (the walkthrough: a defender read "press Challenge on a player
            # above you" with two games waiting for them at the top).
            "defending": defending.get(me.user.get_username(), []),
        },
        "challenges": challenges,
        "history": history(pyramid=pyramid),
    }


def competition_of(*, game) -> dict | None:
    """The Pyramid challenge a game is: {"kind": "Pyramid", "name", "url", "context" ("ann challenged ben"),
    "result"}, or None. `result` says what the game did to the places once it ended: the swap, the defender's
    point, or that nothing changed; "" while it is played."""
    challenge = (Challenge.objects.filter(game_id=game.pk).select_related("pyramid", "challenger", "defender")
                 .first())  # fmt: skip
    if challenge is None:
        return None
    challenger, defender = player_name(user=challenge.challenger), player_name(user=challenge.defender)
    S = Challenge.Status
    if challenge.status == S.CHALLENGER_WON:
        moved = challenge.challenger_to is not None and challenge.challenger_to == challenge.defender_from
        result = (f"{challenger} won: {challenger} and {defender} swap places" if moved
                  else f"{challenger} won; {challenger} was already above {defender}, so nothing moves")
    elif challenge.status == S.DEFENDER_WON:
        result = f"{defender} defended and wins {_points(challenge.points_change)}"
    elif challenge.status == S.NO_WINNER:
        result = "No winner: the places stay as they were"
    elif challenge.status == S.REVOKED:
        result = f"{challenger} took the challenge back"
    else:
        result = ""
    return {"kind": "Pyramid", "name": challenge.pyramid.name,
            "url": reverse("pyramid", args=[challenge.pyramid.slug]),
            "context": f"{challenger} challenged {defender}", "result": result}
