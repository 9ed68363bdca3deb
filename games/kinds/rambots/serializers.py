"""The lobby's create request of a RAMbots game (POST /api/games/ with "kind": "rambots")."""

from rest_framework import serializers

from games.models import Game


class CreateRAMbotsGameSerializer(serializers.Serializer):
    """A RAMbots game (seed 002; docs/game-kinds.md): 2 to 4 players on a chessboard, no course."""

    kind = serializers.ChoiceField(choices=[("rambots", "RAMbots")])
    max_seats = serializers.IntegerField(required=False, min_value=2, max_value=4, default=4)
    visibility = serializers.ChoiceField(choices=Game.Visibility.choices, default=Game.Visibility.PUBLIC)
    timer_preset = serializers.ChoiceField(choices=Game.Preset.choices, default=Game.Preset.REALTIME)
    move_time = serializers.IntegerField(required=False, min_value=1, help_text="seconds; custom preset only")
    game_time = serializers.IntegerField(required=False, min_value=0, help_text="seconds; custom preset only")
    timeout_policy = serializers.ChoiceField(choices=Game.TimeoutPolicy.choices, default=Game.TimeoutPolicy.WAIT)
    rated = serializers.BooleanField(default=True, help_text="false: unrated; true: rated in the RAMbots rating "
                                                             "(never with computer players)")
    options = serializers.DictField(required=False, default=dict,
                                    help_text='{"speedbots": true}: a round ends when all but one have compiled')

    def validate(self, attrs):
        attrs.pop("kind", None)
        return attrs
