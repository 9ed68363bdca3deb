"""The lobby's forms: create a game, a RAMbots game, play against the computer; and their words."""

from django import forms

import engine
from games.models import Game
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
