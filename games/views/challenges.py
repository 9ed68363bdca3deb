"""The lobby's direct challenges (docs/bot-api.md "Challenges"): send one to a named player or bot, accept,
decline or cancel; each refusal is a message on the lobby. Never the Pyramid's challenges."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from games.models import Game
from games.services import challenges
from games.views.forms import PracticeCourseSelect, practice_courses, practice_default
from games.words import PRESET_LABELS
from roboracer.accounts.forms import sentence
from roboracer.common.errors import GameError


class ChallengeForm(forms.Form):
    player = forms.CharField(max_length=150, label="Player or bot", help_text="their username")
    course = forms.ChoiceField(label="Course", widget=PracticeCourseSelect)
    timer_preset = forms.ChoiceField(choices=[(value, label) for value, label in PRESET_LABELS if value != Game.Preset.CUSTOM],
                                     initial=Game.Preset.REALTIME, label="Timers")
    rated = forms.BooleanField(required=False, initial=True, label="Rated")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, prefix="challenge", **kwargs)
        courses = practice_courses()
        self.fields["course"].choices = [(course.slug, course.name) for course in courses]
        default = practice_default(courses)
        self.fields["course"].initial = default.slug if default else None


def _answer(request, action, **kwargs) -> None:
    try:
        action(user=request.user, **kwargs)
    except GameError as error:
        messages.error(request, sentence(error.message))


@login_required
@require_POST
def send(request):
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The challenge needs a player's name and a course.")
        return redirect("/#challenges")
    data = form.cleaned_data
    try:
        challenges.send_challenge(user=request.user, username=data["player"], settings={
            "course": data["course"], "timer_preset": data["timer_preset"], "rated": data["rated"]})
    except GameError as error:
        messages.error(request, sentence(error.message))
    else:
        messages.success(request, f"Challenge sent to {data['player']}.")
    return redirect("/#challenges")


@login_required
@require_POST
def accept(request, challenge_id: int):
    try:
        challenge = challenges.accept(user=request.user, challenge_id=challenge_id)
    except GameError as error:
        messages.error(request, sentence(error.message))
        return redirect("/#challenges")
    return redirect("game", game_id=challenge.game_id)


@login_required
@require_POST
def decline(request, challenge_id: int):
    _answer(request, challenges.decline, challenge_id=challenge_id)
    return redirect("/#challenges")


@login_required
@require_POST
def cancel(request, challenge_id: int):
    _answer(request, challenges.cancel, challenge_id=challenge_id)
    return redirect("/#challenges")
