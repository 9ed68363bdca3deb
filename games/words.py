"""What players read in the create forms of every kind (the model's labels are for staff and cite the rules
documents): timers, timeout policies, computer players' strengths."""

from games.models import Game

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

# Computer players (issue 20).
PRACTICE_DEFAULT_STRENGTH = "normal"
STRENGTH_LABELS = [("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")]
