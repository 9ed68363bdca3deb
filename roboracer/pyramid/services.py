"""Writes of the Pyramid (HackSoft style: keyword-only, one transaction each; errors the API maps to 4xx).

Locks, always in this order so that no two writers wait on each other: a challenge's game row, then the
pyramid row, then its places. Creating a challenge locks the pyramid and then makes a new game (which nobody
else can have locked); a revoke and a game's end lock the game first, then the pyramid. Every rule and the
reasons for its numbers are in docs/pyramid.md.
"""

from __future__ import annotations

import logging
import secrets

from django.db import transaction
from django.utils import timezone

from games.models import Game, Program
from games.services import locking, notices, organisers
from games.services import setup as game_setup
from roboracer.accounts.selectors import player_name
from roboracer.common.errors import Conflict, InvalidInput, NotAllowed, NotFound
from roboracer.pyramid import selectors
from roboracer.pyramid.models import COSTS, MAX_ROWS_UP, Challenge, Entry, Place, Pyramid

logger = logging.getLogger(__name__)
FREE_REVOKE_FEE = 1  # what revoking a free (same-row) challenge costs
DEFENDER_REWARD = 1  # what a defender who wins earns
PARKED = (0, 0)  # where a place waits for the length of a swap (the unique constraint on places)


def _locked_pyramid(slug: str) -> Pyramid:
    try:
        return Pyramid.objects.select_for_update().get(slug=slug)
    except Pyramid.DoesNotExist:
        raise NotFound(f"there is no pyramid {slug!r}") from None


def _log(pyramid: Pyramid, kind: str, user, *, other=None, challenge=None, **detail) -> None:
    Entry.objects.create(pyramid=pyramid, kind=kind, user=user, other=other, challenge=challenge, detail=detail)


def next_free_place(*, pyramid: Pyramid) -> tuple[int, int]:
    """Where a new player goes: the first free place of the bottom row, or the first place of a new row."""
    taken = list(Place.objects.filter(pyramid=pyramid).values_list("row", "position"))
    if not taken:
        return (1, 1)
    bottom = max(row for row, _ in taken)
    used = {position for row, position in taken if row == bottom}
    free = [position for position in range(1, bottom + 1) if position not in used]
    return (bottom, free[0]) if free else (bottom + 1, 1)


@transaction.atomic
def join_pyramid(*, user, slug: str) -> Place:
    """Take the first free place at the bottom, with the pyramid's starting challenge points."""
    pyramid = _locked_pyramid(slug)
    if Place.objects.filter(pyramid=pyramid, user=user).exists():
        raise Conflict("you are already in this pyramid")
    row, position = next_free_place(pyramid=pyramid)
    place = Place.objects.create(pyramid=pyramid, user=user, row=row, position=position,
                                 points=pyramid.starting_points)
    _log(pyramid, Entry.Kind.JOINED, user, row=row, position=position)
    return place


def challenge_cost(*, challenger: Place, defender: Place) -> int:
    """The cost in challenge points of `challenger` challenging `defender`, or Conflict saying why not."""
    if challenger.user_id == defender.user_id:
        raise InvalidInput("you can't challenge yourself")
    rows_up = challenger.row - defender.row
    if rows_up < 0 or (rows_up == 0 and defender.position > challenger.position):
        raise Conflict("you may only challenge a player above you: to your left in your row, or in a row above")
    if rows_up > MAX_ROWS_UP:
        raise Conflict(f"you may challenge at most {MAX_ROWS_UP} rows up; that player is {rows_up} rows up")
    return COSTS[rows_up]


def draw_course(*, pyramid: Pyramid):
    """A course from the pool, drawn with `secrets` (no global random state to seed or predict)."""
    pool = list(selectors.course_pool(pyramid=pyramid))
    if not pool:
        raise Conflict("this pyramid has no stable course for 2 players to play on; ask the staff")
    return secrets.choice(pool)


@transaction.atomic
def create_challenge(*, user, slug: str, player: str) -> Challenge:
    """Challenge `player` (a username) of the pyramid: pay the cost, and start a 2-player game at once on a
    course drawn from the pool, with the pyramid's timers (the challenger in seat 1)."""
    pyramid = _locked_pyramid(slug)
    mine = Place.objects.select_for_update().filter(pyramid=pyramid, user=user).first()
    if mine is None:
        raise NotAllowed("join the pyramid before challenging anyone")
    # NUL can be in no username, and PostgreSQL refuses it in a query: a name that is nobody's.
    # Only the place row is locked (`of`), not the joined user row.
    theirs = None if "\x00" in player else (Place.objects.select_for_update(of=("self",)).select_related("user")
                                             .filter(pyramid=pyramid, user__username=player).first())
    if theirs is None:
        raise NotFound(f"there is no player {player!r} in this pyramid")
    cost = challenge_cost(challenger=mine, defender=theirs)
    open_challenges = Challenge.objects.filter(pyramid=pyramid, status=Challenge.Status.OPEN)
    if open_challenges.filter(challenger=user).exists():
        raise Conflict("you already have an open challenge: play it out (or revoke it) first")
    if open_challenges.filter(challenger=theirs.user, defender=user).exists():
        raise Conflict("that player has already challenged you: your game with them is being played")
    if open_challenges.filter(defender=theirs.user).count() >= pyramid.max_defences:
        raise Conflict(f"that player is already defending {pyramid.max_defences} challenges; try again later")
    if mine.points < cost:
        raise Conflict(f"this challenge costs {cost} point{'s' if cost != 1 else ''}; you have {mine.points}")
    course = draw_course(pyramid=pyramid)
    game = organisers.create_seated_game(
        creator=user,
        users=[user, theirs.user],
        course=course,
        lives=pyramid.lives,
        timer_preset=pyramid.timer_preset,
        move_time=pyramid.move_time,
        game_time=pyramid.game_time,
        timeout_policy=pyramid.timeout_policy,
        use=game_setup.PYRAMID,
    )
    mine.points -= cost
    mine.save(update_fields=["points"])
    challenge = Challenge.objects.create(
        pyramid=pyramid, challenger=user, defender=theirs.user, game=game, cost=cost,
        challenger_from=list(mine.rank), defender_from=list(theirs.rank),
    )
    _log(pyramid, Entry.Kind.CHALLENGED, user, other=theirs.user, challenge=challenge, cost=cost,
         rows_up=mine.row - theirs.row)
    # "You were challenged" (organisers' issue item 11): the defender learns who, and where the game is.
    notices.notify(
        user_ids=[theirs.user_id], kind="pyramid_challenge",
        text=f"{player_name(user=user)} challenged you in {pyramid.name}: your game {game.pk} is ready",
        link=f"/games/{game.pk}/", source={"pyramid": pyramid.pk, "challenge": challenge.pk, "game": game.pk},
        message={"game": game.pk, "challenge": challenge.pk, "pyramid": pyramid.pk},
    )
    return challenge


def is_pending(*, challenge: Challenge, game: Game) -> bool:
    """A challenge may be revoked until the defender's first program is in (docs/pyramid.md, "Revoking")."""
    if challenge.status != Challenge.Status.OPEN or game.status != Game.Status.PROGRAMMING or game.turn != 1:
        return False
    return not Program.objects.filter(seat__game=game, seat__user_id=challenge.defender_id, turn=1).exists()


def revoke_challenge(*, user, slug: str, challenge_id: int) -> Challenge:
    """Take back one's own pending challenge: its game is cancelled, half its cost (rounded down) comes back,
    and a free challenge costs FREE_REVOKE_FEE point (a player without it may not revoke)."""
    found = Challenge.objects.filter(pk=challenge_id, pyramid__slug=slug, challenger=user).only("game_id").first()
    if found is None:  # someone else's challenge is answered as if it did not exist
        raise NotFound(f"challenge {challenge_id} does not exist")
    with transaction.atomic():
        game = locking.locked_game(game_id=found.game_id)
        pyramid = _locked_pyramid(slug)
        challenge = Challenge.objects.select_for_update().get(pk=found.pk)
        if challenge.status != Challenge.Status.OPEN:
            raise Conflict(f"this challenge is over ({challenge.get_status_display()})")
        if not is_pending(challenge=challenge, game=game):
            raise Conflict("the defender has already played: the game goes on (you may resign it)")
        mine = Place.objects.select_for_update().get(pyramid=pyramid, user=user)
        if challenge.cost == 0:
            if mine.points < FREE_REVOKE_FEE:
                raise Conflict(f"revoking a free challenge costs {FREE_REVOKE_FEE} point; you have none")
            change = -FREE_REVOKE_FEE
        else:
            change = challenge.cost // 2
        mine.points += change
        mine.save(update_fields=["points"])
        now = timezone.now()
        challenge.status, challenge.ended_at, challenge.points_change = Challenge.Status.REVOKED, now, change
        challenge.save(update_fields=["status", "ended_at", "points_change"])
        organisers.cancel_for(game=game, reason="the pyramid challenge was revoked", now=now)
        _log(pyramid, Entry.Kind.REVOKED, user, other=challenge.defender, challenge=challenge, points=change)
    return challenge


def _swap(challenger: Place, defender: Place) -> None:
    """The two places change hands; three writes because no two places may ever be the same one."""
    to_challenger, to_defender = defender.rank, challenger.rank
    challenger.row, challenger.position = PARKED
    challenger.save(update_fields=["row", "position"])
    defender.row, defender.position = to_defender
    defender.save(update_fields=["row", "position"])
    challenger.row, challenger.position = to_challenger
    challenger.save(update_fields=["row", "position"])


def finish_challenge(*, game: Game) -> Challenge | None:
    """A challenge's game is over (the game_finished signal, inside the finishing transaction, the game row
    locked): the places change once. A challenger's win swaps the two; a defender's earns them a point; a game
    with no winner changes nothing. Returns the challenge, or None if the game was no open challenge's."""
    found = Challenge.objects.filter(game_id=game.pk).only("pyramid_id").first()
    if found is None:
        return None
    with transaction.atomic():
        pyramid = Pyramid.objects.select_for_update().get(pk=found.pyramid_id)
        challenge = Challenge.objects.select_for_update().get(pk=found.pk)
        if challenge.status != Challenge.Status.OPEN:
            return None
        places = {p.user_id: p for p in Place.objects.select_for_update().filter(
            pyramid=pyramid, user_id__in=[challenge.challenger_id, challenge.defender_id])}
        challenger, defender = places.get(challenge.challenger_id), places.get(challenge.defender_id)
        winner = game.winner.user_id if game.winner_id else None
        challenge.ended_at = timezone.now()
        if winner is None or challenger is None or defender is None:
            challenge.status = Challenge.Status.NO_WINNER
            _log(pyramid, Entry.Kind.NO_WINNER, challenge.challenger, other=challenge.defender, challenge=challenge)
        elif winner == challenge.challenger_id:
            challenge.status = Challenge.Status.CHALLENGER_WON
            moved = defender.rank < challenger.rank
            if moved:  # else the challenger has meanwhile climbed above the defender: nothing to swap
                _swap(challenger, defender)
            _log(pyramid, Entry.Kind.SWAPPED, challenge.challenger, other=challenge.defender, challenge=challenge,
                 moved=moved, row=challenger.row, position=challenger.position)
        else:
            challenge.status = Challenge.Status.DEFENDER_WON
            defender.points += DEFENDER_REWARD
            defender.save(update_fields=["points"])
            challenge.points_change = DEFENDER_REWARD
            _log(pyramid, Entry.Kind.DEFENDED, challenge.defender, other=challenge.challenger, challenge=challenge,
                 points=DEFENDER_REWARD)
        if challenger is not None and defender is not None:
            challenge.challenger_to, challenge.defender_to = list(challenger.rank), list(defender.rank)
        challenge.save()
    logger.info("pyramid %s: challenge %s ended, %s", pyramid.slug, challenge.pk, challenge.status)
    return challenge
