"""The lobby's "Create a game" form of a RAMbots game (its adapter's `lobby_form`; games.views.lobby)."""

from django import forms

from games.words import POLICY_LABELS, PRACTICE_DEFAULT_STRENGTH, PRESET_LABELS, STRENGTH_LABELS


class CreateRAMbotsGameForm(forms.Form):
    """The lobby's "New RAMbots game" (seed 002; docs/game-kinds.md): 2 to 4 players on a chessboard."""

    max_seats = forms.IntegerField(min_value=2, max_value=4, initial=3, label="Players")
    computers = forms.IntegerField(min_value=0, max_value=3, initial=0, required=False,
                                   label="Computer players among them (0 to wait for people)")
    strength = forms.ChoiceField(choices=STRENGTH_LABELS, initial=PRACTICE_DEFAULT_STRENGTH, required=False,
                                 label="Computer players' strength")
    speedbots = forms.BooleanField(
        required=False, label="Speedbots: programming ends as soon as all but one player have compiled; the last "
                               "player's program runs as it lies",
        help_text="A race to compile: your arrangement counts as soon as you press Compile, so be quick but "
                  "right. Computer players take their time too: each compiles a quarter to three fifths of the "
                  "way through the move clock (30 to 72 s of a 2-minute move), never at once.",
    )
    rated = forms.BooleanField(required=False, initial=True,
                               label="Rated (the RAMbots rating; never with computer players)")
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
