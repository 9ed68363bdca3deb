"""Server-rendered pages: the lobby and the shell of the game screen (the TypeScript module does the rest)."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

import engine
from games import how_to_play as how_to_play_content
from games import selectors
from games.kinds.roboracer import services as roboracer_services
from games.models import Game
from games.services import computer_seats
from games.services import lobby as lobby_services
from roboracer.accounts.forms import sentence
from roboracer.common.errors import GameError, NotFound
from roboracer.courses import selectors as course_selectors
from roboracer.courses.models import Course

PRESET_LABELS = [
    (Game.Preset.REALTIME, f"{Game.Preset.REALTIME.label}: 2 min a move, 10 min game time"),
    (Game.Preset.DAILY, f"{Game.Preset.DAILY.label}: 1 day a move, 7 days game time"),
    (Game.Preset.TOURNAMENT, f"{Game.Preset.TOURNAMENT.label}: 3 days a move, 15 days game time"),
    (Game.Preset.CUSTOM, Game.Preset.CUSTOM.label),
]
# What players read in the create form (the model's labels are for staff and cite the rules document).
POLICY_WORDS = {
    Game.TimeoutPolicy.WAIT: "Wait: the others may eject the player with !eject",
    Game.TimeoutPolicy.EJECT: "Eject the player at once",
    Game.TimeoutPolicy.RANDOM: "Play a random program for the player",
    # Computer players (issue 20): a Normal computer plays the seat until its owner sends a program again.
    Game.TimeoutPolicy.COMPUTER: "A computer player plays for them until they send a program again",
}
# A policy without words of its own here (a new one) shows the model's label rather than breaking the form.
POLICY_LABELS = [(value, POLICY_WORDS.get(value, label)) for value, label in Game.TimeoutPolicy.choices]
MODULE_LABELS = [(name, name.replace("_", " ").title()) for name in sorted(engine.MODULE_NAMES)]


class CourseChoiceField(forms.ModelChoiceField):
    """Stable courses (the latest version of each) and development ones, marked unrated."""

    def label_from_instance(self, obj: Course) -> str:
        return course_selectors.game_form_label(obj)


RULESET_WORDS = {
    "roboracer": "RoboRacer: the full game (chips, damage, modules)",
    "classic": "Classic: 10 instructions, power down, upgrades",
    "fused": "Fused: hit points, numbered cards, fused registers",
    "roborace": "RoboRace: the small version (7 numbered cards, no damage)",
}
RULESET_LABELS = [(name, RULESET_WORDS[name]) for name in engine.rulesets.on_site()]


# Computer players (issue 20): the lobby's "Play against the computer" shortcut.
PRACTICE_DEFAULT_COURSE = "tiny-yard"  # the smallest bundled race course for two
PRACTICE_DEFAULT_STRENGTH = "normal"
STRENGTH_LABELS = [("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")]
PRACTICE_MAX_OPPONENTS = 7


def _course_size(course: Course) -> int:
    return int((course.data or {}).get("width") or 0) * int((course.data or {}).get("height") or 0)


def _course_mode(course: Course) -> str:
    return (course.data or {}).get("mode") or "race"


def practice_courses() -> list[Course]:
    """The courses offered for a game against the computer: the create form's courses that the default rules
    play (no puzzles: they have a page of their own), with room for a person and a computer; bundled races
    first, smallest first, so that the default is a short race."""
    courses = [
        course for course in course_selectors.game_form_courses()
        if _course_mode(course) != "puzzle" and course.max_players >= 2
        and engine.rulesets.DEFAULT in course_selectors.course_rulesets(course)
    ]
    return sorted(courses, key=lambda c: (not c.bundled, _course_mode(c) != "race", _course_size(c), c.name))


def practice_default(courses: list[Course]) -> Course | None:
    """Tiny Yard if it is offered, else the smallest race course two can play."""
    for course in courses:
        if course.slug == PRACTICE_DEFAULT_COURSE:
            return course
    races = [c for c in courses if _course_mode(c) == "race" and c.min_players <= 2]
    return (races or courses or [None])[0]


class PracticeCourseSelect(forms.Select):
    """Each course option carries the course's player range (data-min, data-max), so that the lobby offers only
    the numbers of opponents the course has room for (lobby.ts)."""

    def __init__(self, *args, players=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players or {}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        low, high = self.players.get(str(value), (None, None))
        if high is not None:
            option["attrs"].update({"data-min": str(low), "data-max": str(high)})
        return option


class PracticeForm(forms.Form):
    """One click starts a race against computer players; the three choices have defaults that need no touching (a
    choice left out of the POST takes its default too)."""

    course = forms.ChoiceField(label="Course", required=False)
    opponents = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(1, PRACTICE_MAX_OPPONENTS + 1)], coerce=int, initial=1, empty_value=1,
        required=False, label="Opponents",
    )
    strength = forms.ChoiceField(choices=STRENGTH_LABELS, initial=PRACTICE_DEFAULT_STRENGTH, required=False,
                                 label="Strength")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.courses = {str(course.pk): course for course in practice_courses()}
        field = self.fields["course"]
        field.choices = [(pk, course.name) for pk, course in self.courses.items()]
        field.widget = PracticeCourseSelect(
            choices=field.choices,
            players={pk: (course.min_players, course.max_players) for pk, course in self.courses.items()},
        )
        default = practice_default(list(self.courses.values()))
        if default is not None:
            field.initial = str(default.pk)

    def clean_course(self) -> Course:
        chosen = self.cleaned_data["course"] or self.fields["course"].initial
        if chosen not in self.courses:
            raise forms.ValidationError("there is no course to race on")
        return self.courses[chosen]

    def clean_strength(self) -> str:
        return self.cleaned_data["strength"] or PRACTICE_DEFAULT_STRENGTH


class CreateGameForm(forms.Form):
    ruleset = forms.ChoiceField(choices=RULESET_LABELS, initial=engine.rulesets.DEFAULT, label="Rules", required=False)
    course = CourseChoiceField(queryset=Course.objects.none(), empty_label=None)
    max_seats = forms.IntegerField(min_value=1, max_value=8, initial=2, label="Seats")
    lives = forms.IntegerField(min_value=1, max_value=9, initial=3)
    visibility = forms.ChoiceField(
        choices=[("public", "Public: listed here, any signed-in player may watch"), ("private", "Private: join by invite link")],
        initial="public",
    )
    timer_preset = forms.ChoiceField(choices=PRESET_LABELS, initial="realtime", label="Timers")
    move_minutes = forms.IntegerField(min_value=1, required=False, label="Custom move time (minutes)")
    game_minutes = forms.IntegerField(min_value=0, required=False, label="Custom game time (minutes)")
    timeout_policy = forms.ChoiceField(
        choices=POLICY_LABELS, initial="wait", label="When a player's game time runs out"
    )
    # 003 "Bot Modules": none by default; "all modules" overrides the single choices.
    all_modules = forms.BooleanField(required=False, label="All bot modules")
    modules = forms.MultipleChoiceField(
        choices=MODULE_LABELS, required=False, widget=forms.CheckboxSelectMultiple,
        label="Bot modules (leave them all unticked to play without modules)",
    )
    rated = forms.BooleanField(required=False, initial=True, label="Rated (stable courses, race or arena)")
    teams = forms.BooleanField(
        required=False, initial=False, label="Team play: Blue against Orange (races and arenas, 4 seats or more)"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["course"].queryset = course_selectors.game_form_courses()

    def clean(self):
        data = super().clean()
        if data.get("timer_preset") == "custom" and (data.get("move_minutes") is None or data.get("game_minutes") is None):
            raise forms.ValidationError("Custom timers need a move time and a game time, in minutes.")
        return data

    def game_options(self) -> dict:
        data = dict(self.cleaned_data)
        move, game = data.pop("move_minutes"), data.pop("game_minutes")
        data["modules"] = "all" if data.pop("all_modules") else list(data.get("modules") or [])
        data["ruleset"] = data.get("ruleset") or engine.rulesets.DEFAULT
        if data["timer_preset"] == "custom":
            data["move_time"] = move * 60 if move is not None else None
            data["game_time"] = game * 60 if game is not None else None
        return data


class CreateRAMbotsGameForm(forms.Form):
    """The lobby's "New RAMbots game" (seed 002; docs/game-kinds.md): 2 to 4 players on a chessboard."""

    max_seats = forms.IntegerField(min_value=2, max_value=4, initial=3, label="Players")
    computers = forms.IntegerField(min_value=0, max_value=3, initial=0, required=False,
                                   label="Computer players among them (0 to wait for people)")
    strength = forms.ChoiceField(choices=STRENGTH_LABELS, initial=PRACTICE_DEFAULT_STRENGTH, required=False,
                                 label="Computer players' strength")
    speedbots = forms.BooleanField(
        required=False, label="Speedbots: programming ends as soon as all but one player have compiled; the last "
                               "player's program runs as it lies"
    )
    visibility = forms.ChoiceField(
        choices=[("public", "Public: listed here, any signed-in player may watch"), ("private", "Private: join by invite link")],
        initial="public",
    )
    timer_preset = forms.ChoiceField(choices=PRESET_LABELS, initial="realtime", label="Timers")
    move_minutes = forms.IntegerField(min_value=1, required=False, label="Custom move time (minutes)")
    game_minutes = forms.IntegerField(min_value=0, required=False, label="Custom game time (minutes)")
    timeout_policy = forms.ChoiceField(choices=POLICY_LABELS, initial="wait", label="When a player's game time runs out")

    def clean(self):
        data = super().clean()
        if data.get("timer_preset") == "custom" and (data.get("move_minutes") is None or data.get("game_minutes") is None):
            raise forms.ValidationError("Custom timers need a move time and a game time, in minutes.")
        if (data.get("computers") or 0) >= (data.get("max_seats") or 2):
            raise forms.ValidationError("Leave a seat for yourself: fewer computer players than players.")
        return data

    def computer_players(self) -> list[str]:
        """The strengths of the computer players to seat at once (as many as asked for)."""
        return [self.cleaned_data.get("strength") or PRACTICE_DEFAULT_STRENGTH] * (self.cleaned_data.get("computers") or 0)

    def game_options(self) -> dict:
        data = dict(self.cleaned_data)
        move, game = data.pop("move_minutes"), data.pop("game_minutes")
        data.pop("computers", None), data.pop("strength", None)
        data["options"] = {"speedbots": bool(data.pop("speedbots"))}
        if data["timer_preset"] == "custom":
            data["move_time"], data["game_time"] = move * 60, game * 60
        return data


@login_required
@require_POST
def create_rambots(request):
    """The lobby's "New RAMbots game" form: the game's page, or the lobby with the form's errors."""
    form = CreateRAMbotsGameForm(request.POST, prefix="rambots")
    if form.is_valid():
        try:
            with transaction.atomic():  # the game with its computer players, or nothing
                game = lobby_services.create_game(user=request.user, kind="rambots", **form.game_options())
                for strength in form.computer_players():  # the game starts once they fill it
                    computer_seats.add_computer(user=request.user, game_id=game.pk, strength=strength)
        except GameError as error:
            messages.error(request, sentence(error.message))
        else:
            return redirect("game", game_id=game.pk)
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        messages.error(request, f"{label}: {errors[0]}" if label else errors[0])
    return redirect("lobby")


def create_errors(form: forms.Form | None) -> list[dict]:
    """The create form's errors for the summary at the top of the lobby page: each a sentence and the anchor of
    what it is about (a field's input, or the form)."""
    if form is None or not form.is_bound:
        return []
    found = []
    for field, errors in form.errors.items():
        bound = form[field] if field in form.fields else None
        for error in errors:
            text = f"{bound.label}: {error}" if bound is not None and bound.label else error
            # A field without one input to point at (the module checkboxes) points at the form.
            found.append({"text": text, "anchor": (bound.id_for_label if bound is not None else "") or "create-game"})
    return found


def open_pages_text(*, page: int, size: int, shown: int, total: int) -> str:
    """The line under the open games: "Showing the newest 3 of 10 open games." on the first page (nothing when
    all of them are shown), "Showing open games 4–6 of 10 (page 2 of 4)." or "Showing open game 10 of 10 (page 4
    of 4)." on another. frontend/src/lobbystate.ts openPagesText says the same as the list changes live."""
    if page == 1:
        return f"Showing the newest {shown} of {total} open games." if total > shown else ""
    if not shown:
        return ""
    first, pages = (page - 1) * size + 1, max(1, -(-total // size))
    games = f"games {first}\u2013{first + shown - 1}" if shown > 1 else f"game {first}"
    return f"Showing open {games} of {total} (page {page} of {pages})."


def page_url(page: int) -> str:
    return "/" if page == 1 else f"?page={page}"


def lobby(request):
    # ?page=N: the page of open games (newest first, LOBBY_PAGE_SIZE a page), as GET /api/games/?page=N.
    page = selectors.lobby_page_number(request.GET.get("page"))
    if page is None:
        raise Http404("no such page of open games")
    course = request.GET.get("course", "")
    # isascii() too: str.isdigit() accepts "²" and "①", which are no course id.
    initial = {"course": course} if course.isascii() and course.isdigit() else None
    form = CreateGameForm(request.POST or None, initial=initial) if request.user.is_authenticated else None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect("login")
        if form.is_valid():
            try:
                game = lobby_services.create_game(user=request.user, **form.game_options())
            except GameError as error:
                form.add_error(None, sentence(error.message))
            else:
                return redirect("game", game_id=game.pk)
    mine = selectors.with_winner_names(selectors.games_of(user=request.user)) if request.user.is_authenticated else []
    open_games, open_total, more = selectors.open_games_page(page=page)
    size = settings.LOBBY_PAGE_SIZE
    last_page = max(1, -(-open_total // size))
    archived = (selectors.with_winner_names(selectors.games_of(user=request.user, archived=True))
                if request.user.is_authenticated else [])
    shown = {game.course_id for games in (open_games, mine, archived) for game in games}
    context = {
        "form": form,
        # A refused create is summed up at the top of the page, focused: the form is far below the lists.
        "create_errors": create_errors(form),
        "open_games": open_games,
        "open_total": open_total,
        "open_page": page,
        "page_size": size,
        "open_pages_text": open_pages_text(page=page, size=size, shown=len(open_games), total=open_total),
        # Newer: the page before (past the end: the last page); Older: the next page while there is one.
        "newer_url": page_url(min(page - 1, last_page)) if page > 1 else None,
        "older_url": page_url(page + 1) if more else None,
        "lobby_ws_path": "/ws/lobby/" if page == 1 else f"/ws/lobby/?page={page}",
        "my_games": mine,
        "my_move": selectors.awaiting_my_move(user=request.user, games=mine) if mine else set(),
        "archived_games": archived,
        "practice_form": PracticeForm(auto_id="practice_%s") if request.user.is_authenticated else None,
        "rambots_form": CreateRAMbotsGameForm(prefix="rambots") if request.user.is_authenticated else None,
        # The data of the form's courses and of the listed games' courses, once each, for the thumbnails and the
        # create-form preview (drawn by game.js); not a stranger's draft that no listed game is on.
        "course_scripts": course_selectors.preview_scripts(
            courses=course_selectors.lobby_courses(game_course_ids=shown)
        ),
    }
    return render(request, "games/lobby.html", context)


@require_POST
def practice(request):
    """The lobby's "Play against the computer": a game with the caller in seat 1 and computer players in the
    others, started at once (roboracer_services.practice_game); then its page. A refusal is a flash message in the lobby."""
    if not request.user.is_authenticated:
        return redirect("login")
    form = PracticeForm(request.POST, auto_id="practice_%s")
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {errors[0]}" if label else errors[0])
        return redirect("lobby")
    try:
        game = roboracer_services.practice_game(
            user=request.user,
            course=form.cleaned_data["course"],
            opponents=form.cleaned_data["opponents"],
            strength=form.cleaned_data["strength"],
        )
    except GameError as error:
        messages.error(request, sentence(error.message))
        return redirect("lobby")
    return redirect("game", game_id=game.pk)


@login_required
def game_page(request, game_id: int):
    game = selectors.visible_game(game_id=game_id, user=request.user)
    if game is None:
        raise Http404("no such game")
    snapshot = selectors.game_snapshot(game=game, user=request.user)
    notes = selectors.viewer_notes(game=game, user=request.user) if snapshot["me"] is None else []
    return render(request, "games/game.html", {"game": game, "snapshot": snapshot, "viewer_notes": notes})


def _act(request, game_id: int, action) -> None:
    """Run a form's action; its refusal becomes a flash message on the next page. A game the user may not see
    (missing, or private and theirs to know nothing of) is the game page's own 404 instead: a flash such as
    "you have no seat in this game" would tell a stranger that a private game exists."""
    try:
        action(user=request.user, game_id=game_id)
    except NotFound:
        raise Http404("no such game") from None
    except GameError as error:
        messages.error(request, error.message)


@login_required
@require_POST
def join(request, game_id: int):
    _act(request, game_id, lobby_services.join_game)
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def start(request, game_id: int):
    _act(request, game_id, lobby_services.start_game)
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def leave(request, game_id: int):
    _act(request, game_id, lobby_services.leave_game)
    return redirect("lobby")


@login_required
@require_POST
def cancel(request, game_id: int):
    _act(request, game_id, lobby_services.cancel_game)
    return redirect("lobby")


@login_required
def invite(request, game_id: int, code: str):
    """A private game's invite link: the course and the seats, and a button to take a seat."""
    game = selectors.invited_game(game_id=game_id, code=code)
    if game is None:
        raise Http404("no such game")
    game = selectors.with_winner_names([game])[0]
    if request.method == "POST":
        try:
            lobby_services.join_game(user=request.user, game_id=game_id, invite=code)
        except NotFound:
            raise Http404("no such game") from None
        except GameError as error:
            messages.error(request, error.message)
            if not selectors.can_view(user=request.user, game=game):
                return redirect("game-invite", game_id=game_id, code=code)
        return redirect("game", game_id=game_id)
    if selectors.can_view(user=request.user, game=game):
        return redirect("game", game_id=game_id)
    context = {
        "game": game,
        "seats": game.seats.select_related("user").order_by("number"),
        "course_scripts": course_selectors.preview_scripts(courses=[game.course] if game.course_id else []),
    }
    return render(request, "games/invite.html", context)


def how_to_play(request):
    """The rules in a player's words, with example boards drawn by the game's board renderer (howto.js)."""
    context = {"elements": how_to_play_content.element_entries(), "examples": how_to_play_content.examples(),
               "modules": how_to_play_content.module_entries(), "economy": how_to_play_content.economy_example()}
    return render(request, "games/how_to_play.html", context)


DEMOS = {
    "all-events": "demo/all-events.json",
    "eight-bots": "demo/eight-bots.json",
    "programming": "demo/programming.json",
    "modules": "demo/modules.json",
}


def animation_demo(request):
    """The game screen offline on stored turns (static/demo/): no server state involved."""
    name = request.GET.get("demo", "all-events")
    if name not in DEMOS:
        raise Http404("no such demo")
    return render(request, "games/demo.html", {"demo_file": DEMOS[name], "demo_name": name, "demos": DEMOS})


def puzzles(request):
    """The puzzle list (docs/modes.md "Puzzle pages"): tried, solved, best turns, your own solutions."""
    return render(request, "games/puzzles.html", {"puzzles": selectors.puzzle_list(user=request.user)})


@require_POST
def play_puzzle(request, slug: str):
    """Start a puzzle: a solo one at once, a cooperative one as a lobby for its players."""
    if not request.user.is_authenticated:
        return redirect("login")
    course = course_selectors.playable_courses().filter(slug=slug).first()
    if course is None or (course.data or {}).get("mode") != "puzzle":
        raise Http404("no such puzzle")
    try:
        game = lobby_services.create_game(user=request.user, course=course, rated=False)
    except GameError as error:
        return render(request, "games/puzzles.html", {"puzzles": selectors.puzzle_list(user=request.user),
                                                      "error": error.message}, status=400)  # fmt: skip
    return redirect("game", game_id=game.pk)
