"""The lobby's create request of a RoboRacer game (POST /api/games/; docs/api.md)."""

from rest_framework import serializers

import engine
from engine import MODULE_NAMES
from games.models import Game


class CreateGameSerializer(serializers.Serializer):
    course = serializers.SlugField()
    max_seats = serializers.IntegerField(required=False, min_value=1, max_value=8)
    lives = serializers.IntegerField(required=False, min_value=1, max_value=9, default=3)
    visibility = serializers.ChoiceField(choices=Game.Visibility.choices, default=Game.Visibility.PUBLIC)
    timer_preset = serializers.ChoiceField(choices=Game.Preset.choices, default=Game.Preset.REALTIME)
    move_time = serializers.IntegerField(required=False, min_value=1, help_text="seconds; custom preset only")
    game_time = serializers.IntegerField(required=False, min_value=0, help_text="seconds; custom preset only")
    timeout_policy = serializers.ChoiceField(choices=Game.TimeoutPolicy.choices, default=Game.TimeoutPolicy.WAIT)
    modules = serializers.JSONField(
        required=False, default=list,
        help_text=f'the bot modules available: "all", or a list of names from {", ".join(MODULE_NAMES)} (any order, '
                  "each once); none by default",
    )
    rated = serializers.BooleanField(default=True, help_text="false: unrated; true: rated if the course and mode allow")
    teams = serializers.BooleanField(
        default=False, help_text="team play (Blue and Orange, two bots a team at least): races and arenas only"
    )
    ruleset = serializers.ChoiceField(
        choices=list(engine.rulesets.NAMES), default=engine.rulesets.DEFAULT,
        help_text="the rules: roboracer (003), classic (000), fused (001) or roborace (004); the course must suit it",
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="the ruleset's game options, e.g. fused's {\"electric_fence\": false}"
    )
