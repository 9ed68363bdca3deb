"""Server-rendered tournament pages: the list, a tournament, the organiser's pages, "my tournaments"."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

import engine
from games import clocks as game_clocks
from games import kinds
from games.models import Game
from games.words import POLICY_LABELS
from roboracer.common.errors import GameError, NotFound
from roboracer.courses.models import Course
from roboracer.tournaments import brackets, selectors, substitution_selectors
from roboracer.tournaments.models import DEFAULT_POINTS, Substitution, Tournament
from roboracer.tournaments.services import common, creation, organising, registration, substitutions


class CourseChoices(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Course) -> str:
        return f"{obj} ({obj.min_players}-{obj.max_players} players)"


# Timer presets for tournaments (organisers' issue: there was no short one): (move seconds, game seconds).
TIMER_PRESETS = {
    "blitz": (60, 5 * 60),
    "realtime": game_clocks.PRESETS["realtime"],
    "daily": game_clocks.PRESETS["daily"],
    "tournament": game_clocks.PRESETS["tournament"],
}
TIMER_CHOICES = [
    ("blitz", "Blitz: 1 min a move, 5 min game time"),
    ("realtime", "Real-time: 2 min a move, 10 min game time"),
    ("daily", "Daily: 1 day a move, 7 days game time"),
    ("tournament", "Slow: 3 days a move, 15 days game time"),
    ("custom", "My own (below)"),
]


def _kind_label(kind) -> str:
    """A kind's choice in the create form: "RAMbots: 2 to 4 players a table (no courses)"."""
    return f"{kind.title}: 2 to {kind.max_table} players a table{'' if kind.uses_courses else ' (no courses)'}"


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=5000,
                                  help_text="Shown on the tournament page with its rules.")
    # The kinds (games' registry, selectors.game_kinds) and the course pool are read when the form is made.
    kind = forms.ChoiceField(choices=(), initial=kinds.DEFAULT, label="Game", required=False)
    courses = CourseChoices(queryset=Course.objects.none(), widget=forms.CheckboxSelectMultiple, required=False,
                            label="Course pool")
    format = forms.ChoiceField(choices=[("heats", "Heats: the top k of each table go through to one final table"),
                                        ("league", "League: a fixed number of rounds, points per place")])
    table_size = forms.IntegerField(min_value=2, max_value=8, initial=4, label="Players per table (2 to 8)")
    advance = forms.IntegerField(min_value=1, max_value=7, initial=1, label="Heats: top k go through")
    seeding = forms.ChoiceField(choices=[("random", "Random"), ("rating", "By rating"),
                                         ("hand", "By hand (number the players on the organiser's page)")],
                                label="Seeding")
    league_rounds = forms.IntegerField(min_value=1, max_value=creation.MAX_LEAGUE_ROUNDS, initial=3,
                                       label="League: rounds")
    points = forms.CharField(initial=", ".join(str(p) for p in DEFAULT_POINTS[:4]), required=False,
                             label="League: points for place 1, 2, 3...",
                             help_text="Numbers separated by commas; a place past the list scores 0.")
    computer_fill = forms.ChoiceField(
        choices=[("", "No: a table seats only the players")] + [
            (value, label) for value, label in Tournament.ComputerFill.choices if value],
        required=False, initial="", label="Fill empty seats with computer players",
        help_text="Computer players fill each table up to the players per table (a lone player plays them "
                  "instead of a bye). They count for nothing in the tournament; games with them are unrated.")
    allow_bots = forms.BooleanField(required=False, label="Bot accounts may register",
                                    help_text="Programs playing through the Bot API; their games are rated as any.")
    lives = forms.IntegerField(min_value=1, max_value=9, initial=3)
    modules = forms.MultipleChoiceField(choices=[(m, m.replace("_", " ")) for m in engine.MODULE_NAMES],
                                        widget=forms.CheckboxSelectMultiple, required=False, label="Bot modules")
    timers = forms.ChoiceField(choices=TIMER_CHOICES, initial="tournament", label="Timers", required=False,
                               help_text="A short one for a tournament played in one sitting; your own below.")
    move_minutes = forms.IntegerField(min_value=1, initial=3 * 24 * 60, required=False,
                                      label="Your own: move time (minutes)", help_text="3 days = 4320 minutes.")
    game_minutes = forms.IntegerField(min_value=0, initial=15 * 24 * 60, required=False,
                                      label="Your own: game time (minutes)", help_text="15 days = 21600 minutes.")
    timeout_policy = forms.ChoiceField(choices=POLICY_LABELS, initial="eject",
                                       label="When a player's game time runs out")
    # The site's times are UTC (settings.TIME_ZONE): the form reads and shows them so, and says it.
    registration_opens = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                             label="Registration opens (UTC)")
    registration_closes = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                              label="Registration closes (UTC)",
                                              help_text="Round 1 is seated and its games start then.")
    min_players = forms.IntegerField(min_value=2, max_value=creation.MAX_MIN_PLAYERS, initial=2,
                                     label="Minimum players",
                                     help_text="Fewer registered when registration closes cancel the tournament.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game_kinds = selectors.game_kinds()
        self.fields["kind"].choices = [(name, _kind_label(kind)) for name, kind in game_kinds]
        self.fields["courses"].queryset = selectors.pool_choices()
        on_courses = " and ".join(kind.title for _name, kind in game_kinds if kind.uses_courses)
        self.fields["courses"].help_text = f"{on_courses}: stable courses; each table's course is drawn from these."
        now = timezone.localtime().replace(second=0, microsecond=0)
        self.fields["registration_opens"].initial = now.strftime("%Y-%m-%dT%H:%M")
        self.fields["registration_opens"].help_text = f"Times are UTC: it is {now:%H:%M} UTC now."
        self.fields["registration_closes"].initial = (now + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")

    def clean_points(self):
        text = self.cleaned_data.get("points") or ""
        try:
            return [int(p) for p in text.replace(";", ",").split(",") if p.strip()]
        except ValueError:
            raise forms.ValidationError("whole numbers separated by commas") from None

    def clean(self):
        data = super().clean()
        if not data.get("timers"):  # a form sent without the choice (an older page, a script): its own times
            data["timers"] = "custom" if data.get("move_minutes") is not None else "tournament"
        if data.get("timers") == "custom":
            for field in ("move_minutes", "game_minutes"):
                if data.get(field) is None and field not in self.errors:
                    self.add_error(field, "Give your own times, or choose one of the timers above.")
        return data

    def options(self) -> dict:
        data = dict(self.cleaned_data)
        preset = data.pop("timers", "custom") or "custom"
        move, game = data.pop("move_minutes"), data.pop("game_minutes")
        if preset in TIMER_PRESETS:
            data["move_time"], data["game_time"] = TIMER_PRESETS[preset]
        else:
            data["move_time"], data["game_time"] = move * 60, game * 60
        data["courses"] = list(data["courses"])
        data["kind"] = data.get("kind") or kinds.DEFAULT
        if data["format"] != "league":
            data.pop("points")
        elif not data["points"]:
            data["points"] = None
        return data


def tournament_list(request):
    return render(request, "tournaments/list.html", {
        **selectors.tournament_lists(), "can_organise": common.is_organiser(request.user)})


def _page_tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def tournament_page(request, tournament_id: int):
    tournament = _page_tournament(tournament_id)
    entry = selectors.entry_of(tournament=tournament, user=request.user)
    now = timezone.now()
    standings = selectors.standings(tournament=tournament)
    mine = next((row for row in standings if entry is not None and row["entry"] == entry.pk), None)
    # `?part=live`: only the page's live part, which live.js swaps in when the tournament's socket says it changed.
    template = "tournaments/_live.html" if request.GET.get("part") == "live" else "tournaments/detail.html"
    response = render(request, template, {
        "t": tournament,
        "game_kind": selectors.game_kind(tournament=tournament),
        "entry": entry,
        "my_row": mine,
        "registered": bool(entry and entry.withdrawn_at is None),
        "registration_open": (tournament.status == Tournament.Status.REGISTRATION
                              and tournament.registration_opens <= now < tournament.registration_closes),
        "courses": tournament.courses.order_by("name"),
        "rounds": selectors.rounds(tournament=tournament),
        "standings": standings,
        "winners": [row for row in standings if row["status"] == "winner"],  # rows: names with their badges
        "bracket": brackets.bracket(tournament=tournament),
        "podium": brackets.podium(standings) if tournament.status == Tournament.Status.FINISHED else [],
        "ended_early": (tournament.status == Tournament.Status.FINISHED
                        and tournament.actions.filter(kind="ended").exists()),
        "log": selectors.actions(tournament=tournament)[:100],
        "organising": request.user.is_authenticated and (tournament.organiser_id == request.user.pk),
        "invitations": substitution_selectors.invitations(user=request.user, tournament=tournament),
        "policy": dict(POLICY_LABELS).get(tournament.timeout_policy, tournament.timeout_policy),
        "live": tournament.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED),
        "my_table": selectors.my_table(tournament=tournament, entry=entry),
        "now": now,
        # While registration runs, the page looks again just after it closes (round 1 is seated then), at least
        # once a minute: a player waiting here sees the start without reloading (docs/tournaments.md).
        "refresh_in": (max(5, min(60, int((tournament.registration_closes - now).total_seconds()) + 3))
                       if tournament.status == Tournament.Status.REGISTRATION else None),
        "game_statuses": dict(Game.Status.choices),
    })
    response["Cache-Control"] = "no-store"  # it holds the viewer's own card and changes as the tournament runs
    return response


def _run(request, action, **kwargs) -> bool:
    try:
        action(user=request.user, **kwargs)
    except NotFound:
        raise Http404("no such tournament") from None
    except GameError as error:
        messages.error(request, error.message)
        return False
    return True


@login_required
@require_POST
def register(request, tournament_id: int):
    if _run(request, registration.register, tournament_id=tournament_id):
        messages.success(request, "You are registered. Your games will appear in your lobby and here.")
    return redirect("tournament", tournament_id=tournament_id)


@login_required
@require_POST
def withdraw(request, tournament_id: int):
    if _run(request, registration.withdraw, tournament_id=tournament_id):
        messages.success(request, "You have withdrawn from the tournament.")
    return redirect("tournament", tournament_id=tournament_id)


@login_required
def new(request):
    if not common.is_organiser(request.user):
        return render(request, "tournaments/not_organiser.html", status=403)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = creation.create_tournament(organiser=request.user, **form.options())
        except GameError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, "Tournament created. Players can register while the window is open.")
            return redirect("tournament-organise", tournament_id=tournament.pk)
    return render(request, "tournaments/new.html", {"form": form})


def _initial(tournament: Tournament) -> dict:
    """The create form's fields as a tournament has them (the edit page starts from them)."""
    preset = next((name for name, times in TIMER_PRESETS.items()
                   if times == (tournament.move_time, tournament.game_time)), "custom")
    when = "%Y-%m-%dT%H:%M"
    return {
        "name": tournament.name, "description": tournament.description, "kind": tournament.kind,
        "courses": list(tournament.courses.values_list("pk", flat=True)), "format": tournament.format,
        "table_size": tournament.table_size, "advance": tournament.advance, "seeding": tournament.seeding,
        "league_rounds": tournament.league_rounds, "points": ", ".join(str(p) for p in tournament.points or []),
        "computer_fill": tournament.computer_fill, "allow_bots": tournament.allow_bots, "lives": tournament.lives, "modules": list(tournament.modules),
        "timers": preset, "move_minutes": tournament.move_time // 60, "game_minutes": tournament.game_time // 60,
        "timeout_policy": tournament.timeout_policy, "min_players": tournament.min_players,
        "registration_opens": timezone.localtime(tournament.registration_opens).strftime(when),
        "registration_closes": timezone.localtime(tournament.registration_closes).strftime(when),
    }


@login_required
def edit(request, tournament_id: int):
    """The organiser edits the tournament before its start (issue 38 item 7): the create form, filled in."""
    tournament = _page_tournament(tournament_id)
    if tournament.organiser_id != request.user.pk and not request.user.is_staff:
        raise Http404("no such tournament")
    if tournament.status != Tournament.Status.REGISTRATION:
        messages.error(request, "The tournament has started: its settings can no longer change.")
        return redirect("tournament-organise", tournament_id=tournament_id)
    form = TournamentForm(request.POST or None, initial=_initial(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            creation.update_tournament(user=request.user, tournament_id=tournament_id, **form.options())
        except GameError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, "Tournament saved.")
            return redirect("tournament-organise", tournament_id=tournament_id)
    return render(request, "tournaments/new.html", {"form": form, "editing": tournament})


ACTIONS = {
    "start": (organising.start_now, "Registration closed: round 1 is seated."),
    "pause": (organising.pause, "Paused: no new round is created until you resume."),
    "resume": (organising.resume, "Resumed."),
    "end": (organising.end, "The tournament has ended."),
}


@login_required
def organise(request, tournament_id: int):
    tournament = _page_tournament(tournament_id)
    if tournament.organiser_id != request.user.pk and not request.user.is_staff:
        raise Http404("no such tournament")
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action in ("end", "disqualify") and request.POST.get("confirm") != "yes":
            messages.error(request, "tick \"I am sure\" to do that: it cannot be undone")
        elif action in ACTIONS:
            service, done = ACTIONS[action]
            if _run(request, service, tournament_id=tournament_id):
                messages.success(request, done)
        elif action == "extend":
            # Minutes (organisers' issue item 7: whole hours were too coarse); an older form's "hours" still works.
            minutes = _whole_number(request.POST.get("minutes", ""))
            if minutes is None and request.POST.get("hours"):
                hours = _whole_number(request.POST.get("hours", ""))
                minutes = hours * 60 if hours is not None else None
            if minutes is None or not 1 <= minutes <= 10**6:
                messages.error(request, "minutes: a whole number of minutes, such as 30")
            elif _run(request, organising.extend, tournament_id=tournament_id, seconds=minutes * 60):
                messages.success(request, f"Added {minutes} minute{'s' if minutes != 1 else ''} of game time to the "
                                          f"round's games.")
        elif action == "seeds":
            order = _seed_order(request.POST)
            if order is None:
                messages.error(request, "seeds: give every player a different number from 1 up")
            elif _run(request, organising.set_seeds, tournament_id=tournament_id, entries=order):
                messages.success(request, "Seeds saved: round 1 is seated in this order.")
        elif action == "add":
            if _run(request, organising.add_player, tournament_id=tournament_id,
                    username=request.POST.get("username", "")[:150]):
                messages.success(request, "Player registered.")
        elif action in ("disqualify", "replace", "withdraw"):
            entry_id = request.POST.get("entry", "")
            if not (entry_id.isascii() and entry_id.isdigit()):
                messages.error(request, "choose a player")
            elif action == "withdraw":
                if _run(request, organising.withdraw_player, tournament_id=tournament_id, entry_id=int(entry_id)):
                    messages.success(request, "Player withdrawn (not disqualified).")
            elif action == "disqualify":
                if _run(request, organising.disqualify, tournament_id=tournament_id, entry_id=int(entry_id),
                        reason=request.POST.get("reason", "")[:200]):
                    messages.success(request, "Player disqualified.")
            elif _run(request, substitutions.replace, tournament_id=tournament_id, entry_id=int(entry_id),
                      username=request.POST.get("username", "")[:150]):
                messages.success(request, "Invitation sent: the seat changes hands when they accept.")
        else:
            messages.error(request, "unknown action")
        return redirect("tournament-organise", tournament_id=tournament_id)
    entries = [e for e in tournament.entries.select_related("user").order_by("user__username") if e.active]
    return render(request, "tournaments/organise.html", {
        "t": tournament, "entries": entries, "seeds": selectors.seed_order(tournament=tournament), "substitutions": substitution_selectors.pending_substitutions(tournament=tournament),
        "log": selectors.actions(tournament=tournament)[:100]})


def _seed_order(post) -> list[int] | None:
    """The seeds form's `seed-<entry id>` = number fields as entry ids, top seed first; None unless every number
    is a different whole number from 1 up (the service checks that every registered player is there)."""
    seeds = {}
    for key, value in post.items():
        if key.startswith("seed-"):
            entry, number = key[5:], _whole_number(value)
            if not (entry.isascii() and entry.isdigit()) or number is None or not 1 <= number <= 10_000:
                return None
            seeds[int(entry)] = number
    if not seeds or len(set(seeds.values())) != len(seeds):
        return None
    return sorted(seeds, key=seeds.get)


INVITATION_ACTIONS = {
    "accept": (substitutions.accept_substitution, "You have taken the seat: the game is in your lobby."),
    "decline": (substitutions.decline_substitution, "Invitation declined."),
    "cancel": (substitutions.cancel_substitution, "Invitation cancelled."),
}


@login_required
@require_POST
def invitation(request, invitation_id: int):
    """Accept or decline an invitation to replace a player (the invitee), or cancel it (the organiser)."""
    action = INVITATION_ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        raise Http404("no such invitation")
    service, done = action
    try:
        result = service(user=request.user, substitution_id=invitation_id)
    except NotFound:
        raise Http404("no such invitation") from None
    except GameError as error:
        messages.error(request, error.message)
        tournament_id = Substitution.objects.filter(pk=invitation_id).values_list("tournament_id", flat=True).get()
    else:
        tournament_id = result.tournament_id
        game_id = substitution_selectors.current_game(entry=result) if request.POST.get("action") == "accept" else None
        if game_id is not None:
            # The substitute lands on the seat they took: its hand is waiting for them.
            messages.success(request, f"You have taken the seat: game {game_id} is yours to play.")
            return redirect("game", game_id=game_id)
        messages.success(request, done)
    if request.POST.get("action") == "cancel":
        return redirect("tournament-organise", tournament_id=tournament_id)
    return redirect("tournament", tournament_id=tournament_id)


@login_required
def mine(request):
    return render(request, "tournaments/mine.html", {**selectors.my_tournaments(user=request.user),
                                                     "invitations": substitution_selectors.invitations(user=request.user)})


def _whole_number(text: str) -> int | None:
    """An ASCII whole number from a form ("30"), else None: "3.5", "NaN", "²" and "" are not one."""
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None
