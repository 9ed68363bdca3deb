"""The lobby's forms: create a RoboRacer game, play against the computer. Another kind's create form is its own
(`lobby_form` of its adapter, games.kinds)."""

from django import forms

import engine
from games.words import (
    POLICY_LABELS,
    PRACTICE_DEFAULT_STRENGTH,
    PRESET_LABELS,
    STRENGTH_LABELS,
)
from roboracer.common import catalog
from roboracer.courses import selectors as course_selectors
from roboracer.courses.models import Course

MODULE_LABELS = [(name, catalog.module_name(name)) for name in sorted(engine.MODULE_NAMES)]


class CourseChoiceField(forms.ModelChoiceField):
    """Stable courses (the latest version of each) and development ones, marked unrated."""

    def label_from_instance(self, obj: Course) -> str:
        return course_selectors.game_form_label(obj)


RULESET_LABELS = [(name, catalog.ruleset_label(name)) for name in engine.rulesets.on_site()]


# Computer players (issue 20): the lobby's "Play against the computer" shortcut.
PRACTICE_DEFAULT_COURSE = "tiny-yard"  # the smallest bundled race course for two
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

    @staticmethod
    def ruleset_fields() -> dict[str, list[str]]:
        """For each ruleset on the form, the fields that do not apply to it (the form hides them when it is
        chosen; the server refuses them anyway): lives where no destruction costs a robot, the modules where
        there are none, team play where there is none."""
        hidden = {}
        for name in engine.rulesets.on_site():
            rules = engine.rulesets.get(name)
            hidden[name] = ([] if rules.counts_lives else ["lives"]) + ([] if rules.modules else ["all_modules", "modules"]) \
                + ([] if rules.teams else ["teams"])
        return hidden

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
