"""The organiser's actions on a tournament: start now, pause, resume, disqualify a player, extend the current
round's game time (games' services add it to each game) and end the tournament."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.services import locking, notices, organisers
from roboracer.accounts.services import COMPUTER_PREFIX
from roboracer.common.errors import Conflict, InvalidInput
from roboracer.tournaments import selectors
from roboracer.tournaments.models import Entry, Round, Tournament
from roboracer.tournaments.services import common
from roboracer.tournaments.services.common import entry_of, leave_running_game, log_action, organised
from roboracer.tournaments.services.rounds import close_registration

MAX_EXTEND = 30 * 24 * 3600  # one extension adds at most 30 days


def start_now(*, user, tournament_id: int) -> str | None:
    """The organiser closes registration early: round 1 is seated now (or the tournament is cancelled if too
    few registered), as at `registration_closes`."""
    with transaction.atomic():
        tournament = organised(tournament_id, user)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise Conflict(f"registration is already over: the tournament is {tournament.status}")
        now = timezone.now()
        tournament.registration_closes = now
        tournament.save(update_fields=["registration_closes"])
        log_action(tournament, "closed", f"{user.get_username()} closed registration early", actor=user)
        return close_registration(tournament_id=tournament_id, now=now)


@transaction.atomic
def pause(*, user, tournament_id: int) -> Tournament:
    """No new round until it resumes, and the clocks of the current round's games stand still (games'
    organisers.pause_clocks): nobody runs out of time while the organiser sorts something out."""
    tournament = organised(tournament_id, user)
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict(f"only a running tournament can be paused; this one is {tournament.status}")
    tournament.status = Tournament.Status.PAUSED
    tournament.save(update_fields=["status"])
    now = timezone.now()
    held = sum(organisers.pause_clocks(game=game, now=now, words=(
        f"The organiser paused {tournament.name}: the clocks stand still until it resumes. "
        "Programs may still be sent.")) for game in _current_games(tournament))
    log_action(tournament, "paused", f"{user.get_username()} paused the tournament: no new round and no clock "
                                     f"running until it resumes ({held} game(s))", actor=user)
    return tournament


@transaction.atomic
def resume(*, user, tournament_id: int) -> Tournament:
    tournament = organised(tournament_id, user)
    if tournament.status != Tournament.Status.PAUSED:
        raise Conflict(f"only a paused tournament can be resumed; this one is {tournament.status}")
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    _resume_clocks(tournament, timezone.now(), f"{tournament.name} resumed: the clocks run again.")
    log_action(tournament, "resumed", f"{user.get_username()} resumed the tournament", actor=user)

    def schedule() -> None:
        common.send_task(common.ADVANCE, tournament_id)

    transaction.on_commit(schedule, robust=True)  # a round that finished meanwhile advances now
    return tournament


def _current_games(tournament: Tournament):
    """The running round's games, each locked in turn (in id order), that have not ended."""
    game_ids = Game.objects.filter(tournament_table__round__tournament=tournament,
                                   tournament_table__round__status=Round.Status.RUNNING).exclude(
        status__in=(Game.Status.FINISHED, Game.Status.CANCELLED)).order_by("pk").values_list("pk", flat=True)
    for game_id in list(game_ids):
        yield locking.locked_game(game_id=game_id)


def _resume_clocks(tournament: Tournament, now, words: str) -> None:
    for game in _current_games(tournament):
        organisers.resume_clocks(game=game, now=now, words=words)


def _player_still_in(user, tournament_id: int, entry_id: int) -> tuple[Tournament, Entry]:
    """The organiser's tournament, not over, and one of its entries still in it (disqualify, withdraw)."""
    tournament = organised(tournament_id, user)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(f"the tournament is {tournament.status}")
    entry = entry_of(tournament, entry_id)
    if not entry.active:
        raise Conflict(f"{selectors.name_of(entry.user)} is already out of the tournament")
    return tournament, entry


@transaction.atomic
def disqualify(*, user, tournament_id: int, entry_id: int, reason: str = "") -> Entry:
    tournament, entry = _player_still_in(user, tournament_id, entry_id)
    entry.disqualified_at = timezone.now()
    entry.out_reason = (reason or "").strip()[:200]
    entry.save(update_fields=["disqualified_at", "out_reason"])
    why = f": {entry.out_reason}" if entry.out_reason else ""
    # The player is told, with the reason (issue 38 item 9).
    notices.notify(user_ids=[entry.user_id], kind="tournament_status",
                   text=f"You were disqualified from {tournament.name}{why or ' (no reason given)'}",
                   link=f"/tournaments/{tournament.pk}/", source={"tournament": tournament.pk})
    log_action(tournament, "disqualified", f"{user.get_username()} disqualified {selectors.name_of(entry.user)}{why}",
               actor=user)
    leave_running_game(tournament, entry)
    return entry


@transaction.atomic
def extend(*, user, tournament_id: int, seconds: int) -> int:
    """Add `seconds` to the game time left of every seat still playing in the current round's running games.
    Returns how many games it extended."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 60 <= seconds <= MAX_EXTEND:
        raise InvalidInput(f"seconds: from 60 to {MAX_EXTEND}")
    tournament = organised(tournament_id, user)
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise Conflict(f"the tournament is {tournament.status}")
    current = tournament.rounds.filter(status=Round.Status.RUNNING).first()
    if current is None:
        raise Conflict("no round is running")
    now = timezone.now()
    extended = sum(organisers.add_game_time(game=game, seconds=seconds, now=now)
                   for game in _current_games(tournament))
    log_action(tournament, "extended", f"{user.get_username()} added {_duration(seconds)} of game time to round "
                                       f"{current.number} ({extended} game(s))", actor=user)
    return extended


def _duration(seconds: int) -> str:
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days} d" if days else "", f"{hours} h" if hours else "", f"{minutes} min" if minutes else ""]
    return " ".join(p for p in parts if p) or f"{seconds} s"


@transaction.atomic
def end(*, user, tournament_id: int) -> Tournament:
    """End the tournament now: standings stay as they are; games still running play on but count for nothing.
    Before the start, ending cancels it."""
    tournament = organised(tournament_id, user)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(f"the tournament is already {tournament.status}")
    now = timezone.now()
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament.status = Tournament.Status.CANCELLED
    else:
        if tournament.status == Tournament.Status.PAUSED:  # the games play on, so their clocks run again
            _resume_clocks(tournament, now, f"{tournament.name} was ended by its organiser: the clocks run again.")
        tournament.status = Tournament.Status.FINISHED
        Round.objects.filter(tournament=tournament, status=Round.Status.RUNNING).update(
            status=Round.Status.FINISHED, finished_at=now)
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    log_action(tournament, "ended", f"{user.get_username()} ended the tournament ({tournament.status})", actor=user)
    return tournament


@transaction.atomic
def withdraw_player(*, user, tournament_id: int, entry_id: int) -> Entry:
    """The organiser withdraws a player without disqualifying them (issue 38 item 7): before the start the
    registration is taken back; once running, the player leaves as if they had withdrawn themselves (a game they
    are playing is resigned, the last place at its table), and their results keep counting for the others."""
    tournament, entry = _player_still_in(user, tournament_id, entry_id)
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    log_action(tournament, "withdrew", f"{user.get_username()} withdrew {selectors.name_of(entry.user)}", actor=user)
    notices.notify(user_ids=[entry.user_id], kind="tournament_status",
                   text=f"The organiser withdrew you from {tournament.name}", link=f"/tournaments/{tournament.pk}/",
                   source={"tournament": tournament.pk})
    leave_running_game(tournament, entry)
    return entry


@transaction.atomic
def set_seeds(*, user, tournament_id: int, entries: list) -> list[Entry]:
    """Seeding by hand (issue 38 item 7): before the start the organiser lists every registered player's entry
    id once, top seed first; the tournament's seeding becomes "by hand". Anything else changes nothing."""
    tournament = organised(tournament_id, user)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict("players can be seeded only before the start")
    registered = {e.pk: e for e in tournament.entries.select_related("user").filter(
        withdrawn_at__isnull=True, disqualified_at__isnull=True)}
    if (not isinstance(entries, list) or any(isinstance(i, bool) or not isinstance(i, int) for i in entries)
            or len(entries) != len(registered) or set(entries) != set(registered)):
        raise InvalidInput(f"entries: every registered player's entry id once, top seed first "
                           f"({len(registered)} player(s))")
    ordered = [registered[i] for i in entries]
    for seed, entry in enumerate(ordered, start=1):
        entry.seed = seed
    Entry.objects.bulk_update(ordered, ["seed"])
    if tournament.seeding != Tournament.Seeding.HAND:
        tournament.seeding = Tournament.Seeding.HAND
        tournament.save(update_fields=["seeding"])
    log_action(tournament, "seeded", f"{user.get_username()} seeded the players by hand: "
                                     + ", ".join(f"{n}. {selectors.name_of(e.user)}" for n, e in
                                                 enumerate(ordered, start=1)), actor=user)
    return ordered


@transaction.atomic
def add_player(*, user, tournament_id: int, username: str) -> Entry:
    """The organiser registers a player by username before the start (issue 38 item 7); a player who withdrew is
    registered again. Unknown names are the same InvalidInput whatever the reason; computer accounts are refused."""
    tournament = organised(tournament_id, user)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise Conflict("players can be added only before the start")
    name = (username or "").strip()[:150]
    # Any case, as the substitute form matches ("Bob" is bob). An unknown name is a mistake in the form, said on
    # the organiser's page (InvalidInput), not the page's own "no such tournament" (the walkthrough met that).
    player = (get_user_model().objects.filter(username__iexact=name).first()
              if name and "\x00" not in name else None)
    if player is None or player.get_username().startswith(COMPUTER_PREFIX):
        raise InvalidInput(f"there is no player named {name!r}")
    entry = Entry.objects.filter(tournament=tournament, user=player).first()
    if entry is not None and entry.withdrawn_at is None and entry.disqualified_at is None:
        raise Conflict(f"{selectors.name_of(player)} is already registered")
    if entry is None:
        entry = Entry.objects.create(tournament=tournament, user=player)
    else:
        entry.withdrawn_at = entry.disqualified_at = None
        entry.out_reason = ""
        entry.save(update_fields=["withdrawn_at", "disqualified_at", "out_reason"])
    log_action(tournament, "registered", f"{user.get_username()} registered {selectors.name_of(player)}", actor=user)
    notices.notify(user_ids=[player.pk], kind="tournament_status",
                   text=f"The organiser registered you in {tournament.name}", link=f"/tournaments/{tournament.pk}/",
                   source={"tournament": tournament.pk})
    return entry
