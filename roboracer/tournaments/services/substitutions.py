"""Replacing a player before their first move: the organiser invites a substitute, who accepts (the seat is
handed over by games' services) or declines; the organiser may cancel a pending invitation."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Program, Seat
from games.services import locking, notices, organisers
from roboracer.accounts import selectors as account_selectors
from roboracer.accounts.services import COMPUTER_PREFIX
from roboracer.common.errors import Conflict, InvalidInput, NotFound
from roboracer.tournaments import selectors
from roboracer.tournaments.models import Entry, Round, Substitution, TableSeat, Tournament
from roboracer.tournaments.services.common import entry_of, locked, log_action, organised


def _replaceable(tournament: Tournament, entry: Entry, new_user) -> tuple[TableSeat, Game, Seat]:
    """The checks of a replacement, made when the organiser invites and again when the invitee accepts: the
    tournament running, the entry still in, the substitute a person without an entry, and the entry's game of
    the current round (locked) on turn 1 with no program from that seat. Returns the table seat, game, seat."""
    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
        raise Conflict(f"only a running tournament's players can be replaced; this one is {tournament.status}")
    if not entry.active:
        raise Conflict(f"{selectors.name_of(entry.user)} is already out of the tournament")
    if new_user.get_username().lower().startswith(COMPUTER_PREFIX):
        raise InvalidInput(f"{selectors.name_of(new_user)} is a computer player; a substitute is a person")
    if not tournament.allow_bots and account_selectors.is_bot(user=new_user):
        raise Conflict(f"{selectors.name_of(new_user)} is a bot account; this tournament does not take bots")
    if Entry.objects.filter(tournament=tournament, user=new_user).exists():
        raise Conflict(f"{selectors.name_of(new_user)} already has an entry in this tournament")
    table_seat = (TableSeat.objects.filter(entry=entry, table__round__status=Round.Status.RUNNING,
                                           table__round__tournament=tournament, table__game__isnull=False)
                  .select_related("table").first())
    if table_seat is None:
        raise Conflict("this player has no game in the current round")
    game = locking.locked_game(game_id=table_seat.table.game_id)
    seat = Seat.objects.get(game=game, number=table_seat.seat)
    if (game.status != Game.Status.PROGRAMMING or game.turn != 1 or seat.ejected_at is not None
            or seat.user_id != entry.user_id or Program.objects.filter(seat=seat).exists()):
        raise Conflict("a player can only be replaced before their first move")
    return table_seat, game, seat


@transaction.atomic
def replace(*, user, tournament_id: int, entry_id: int, username: str) -> Substitution:
    """Invite another player to take an entry's seat before its first move (the game on turn 1, no program
    from that seat). Nothing changes hands until the invitee accepts (accept_substitution)."""
    tournament = organised(tournament_id, user)
    entry = entry_of(tournament, entry_id)
    new_user = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
    if new_user is None:
        raise InvalidInput(f"there is no player named {username!r}")
    _table_seat, game, _seat = _replaceable(tournament, entry, new_user)
    if Substitution.objects.filter(entry=entry, status=Substitution.Status.PENDING).exists():
        raise Conflict(f"{selectors.name_of(entry.user)} already has an invitation out for their seat; "
                       "cancel it first")
    substitution = Substitution.objects.create(tournament=tournament, entry=entry, invitee=new_user,
                                               invited_by=user)
    log_action(tournament, "invited", f"{user.get_username()} invited {selectors.name_of(new_user)} to replace "
                                      f"{selectors.name_of(entry.user)} in game {game.pk}", actor=user)
    _notify_invitee(substitution, tournament=tournament, replacing=entry.user, game=game)
    return substitution


def _notify_invitee(substitution: Substitution, *, tournament: Tournament, replacing, game: Game) -> None:
    """A notice to the invitee (games.services.notices, as "your turn" and "play again" are
    sent), after the commit; advisory: "My tournaments" and the site's invitation notice read the database."""
    replacing_name, url = selectors.name_of(replacing), f"{reverse('tournaments-mine')}#invitation-{substitution.pk}"
    notices.notify(
        user_ids=[substitution.invitee_id], kind="tournament_invitation",
        text=f"You are invited to replace {replacing_name} in {tournament.name} (game {game.pk})", link=url,
        source={"tournament": tournament.pk, "game": game.pk, "invitation": substitution.pk},
        message={"invitation": substitution.pk, "tournament": tournament.pk, "tournament_name": tournament.name,
                 "replacing": replacing_name, "game": game.pk, "url": url},
    )


def _invitation(substitution_id, *, invitee=None, organiser=None) -> Substitution:
    """The invitation, locked with its tournament (tournament first), for its invitee or for the tournament's
    organiser (or staff); anyone else gets the NotFound of a missing id. Not yet checked to be pending."""
    missing = NotFound(f"invitation {substitution_id} does not exist")
    if isinstance(substitution_id, bool) or not isinstance(substitution_id, int):
        raise missing
    found = Substitution.objects.filter(pk=substitution_id).values_list("tournament_id", flat=True).first()
    if found is None:
        raise missing
    tournament = locked(found)
    substitution = (Substitution.objects.select_for_update().select_related("entry__user", "invitee")
                    .filter(pk=substitution_id).first())
    if substitution is None:
        raise missing
    if invitee is not None and substitution.invitee_id != invitee.pk:
        raise missing
    if organiser is not None and tournament.organiser_id != organiser.pk and not organiser.is_staff:
        raise missing
    substitution.tournament = tournament
    return substitution


def _close(substitution: Substitution, status: str) -> None:
    if substitution.status != Substitution.Status.PENDING:
        raise Conflict(f"this invitation is already {substitution.status}")
    substitution.status, substitution.closed_at = status, timezone.now()
    substitution.save(update_fields=["status", "closed_at"])


@transaction.atomic
def accept_substitution(*, user, substitution_id: int) -> Entry:
    """The invitee takes the seat: the replacement is checked again under the locks, then the seat's user becomes
    the invitee, a new entry is made for them and the old entry counts as replaced. Returns the new entry."""
    substitution = _invitation(substitution_id, invitee=user)
    if substitution.status != Substitution.Status.PENDING:
        raise Conflict(f"this invitation is already {substitution.status}")
    tournament, entry, new_user = substitution.tournament, substitution.entry, substitution.invitee
    entry.refresh_from_db()
    table_seat, game, seat = _replaceable(tournament, entry, new_user)
    _close(substitution, Substitution.Status.ACCEPTED)
    organisers.hand_seat_to(seat=seat, user=new_user)
    new_entry = Entry.objects.create(tournament=tournament, user=new_user)
    entry.withdrawn_at, entry.replaced_by = timezone.now(), new_entry
    entry.save(update_fields=["withdrawn_at", "replaced_by"])
    table_seat.entry = new_entry
    table_seat.save(update_fields=["entry"])
    Substitution.objects.filter(invitee=new_user, tournament=tournament, status=Substitution.Status.PENDING
                                ).update(status=Substitution.Status.CANCELLED, closed_at=timezone.now())
    log_action(tournament, "replaced", f"{selectors.name_of(new_user)} accepted and replaced "
                                       f"{selectors.name_of(entry.user)} in game {game.pk}", actor=user)
    notices.notify(user_ids=[entry.user_id], kind="tournament_status",
                   text=f"You were replaced by {selectors.name_of(new_user)} in {tournament.name} (game {game.pk})",
                   link=f"/tournaments/{tournament.pk}/", source={"tournament": tournament.pk, "game": game.pk})
    return new_entry


@transaction.atomic
def decline_substitution(*, user, substitution_id: int) -> Substitution:
    """The invitee says no; the seat stays with its player."""
    substitution = _invitation(substitution_id, invitee=user)
    _close(substitution, Substitution.Status.DECLINED)
    log_action(substitution.tournament, "declined", f"{selectors.name_of(user)} declined to replace "
                                                    f"{selectors.name_of(substitution.entry.user)}", actor=user)
    return substitution


@transaction.atomic
def cancel_substitution(*, user, substitution_id: int) -> Substitution:
    """The organiser withdraws an invitation that is still pending."""
    substitution = _invitation(substitution_id, organiser=user)
    _close(substitution, Substitution.Status.CANCELLED)
    log_action(substitution.tournament, "uninvited", f"{user.get_username()} cancelled the invitation to "
                                                     f"{selectors.name_of(substitution.invitee)}", actor=user)
    return substitution
