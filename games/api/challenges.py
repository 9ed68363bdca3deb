"""Direct challenges over the API (docs/bot-api.md "Challenges"): send one to a named player or bot with a game's
settings (those of POST /api/games/), list mine, accept, decline, cancel. Never the Pyramid's challenges."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games import kinds
from games.api.serializers import CreateGameSerializer
from games.models import DirectChallenge
from games.selectors import challenges as selectors
from games.services import challenges
from roboracer.common.errors import InvalidInput


class DirectChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    challenger = serializers.CharField()
    challenger_name = serializers.CharField()
    challenger_bot = serializers.BooleanField()
    challenged = serializers.CharField()
    challenged_name = serializers.CharField()
    challenged_bot = serializers.BooleanField()
    settings = serializers.JSONField(help_text="the game's settings, as POST /api/games/ takes them, with kind")
    board = serializers.CharField(help_text="the course's name (or the kind's board)")
    status = serializers.ChoiceField(choices=DirectChallenge.Status.choices)
    reason = serializers.CharField(allow_blank=True)
    game = serializers.IntegerField(allow_null=True)
    url = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class DirectChallengeListSerializer(serializers.Serializer):
    incoming = DirectChallengeSerializer(many=True)
    outgoing = DirectChallengeSerializer(many=True)


class NewDirectChallengeSerializer(CreateGameSerializer):
    """Documentation: the player to challenge, and POST /api/games/'s settings (RAMbots' with "kind")."""

    player = serializers.CharField(max_length=150, help_text="the username of the player or bot to challenge")
    kind = serializers.CharField(required=False, help_text="roboracer (the default) or rambots")


class DeclineDirectChallengeSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=challenges.REASON_CHARS, default="")


def _settings(data) -> dict:
    """The settings of a challenge's body, read by its kind's create serializer (as POST /api/games/)."""
    if not isinstance(data, dict):
        raise InvalidInput("a challenge is a JSON object: {\"player\", \"course\", ...}")
    kind = data.get("kind", kinds.DEFAULT)
    if not isinstance(kind, str) or kind not in kinds.names():
        raise InvalidInput(f"kind: one of {', '.join(kinds.names())}")
    body = {key: value for key, value in data.items() if key not in ("player", "kind")}
    serializer = kinds.get(kind).create_serializer(body)
    serializer.is_valid(raise_exception=True)
    return {"kind": kind, **serializer.validated_data}


class DirectChallengesView(APIView):
    @extend_schema(responses=DirectChallengeListSerializer, summary="My pending challenges, to me and from me")
    def get(self, request):
        return Response(selectors.challenges_of(user=request.user))

    @extend_schema(request=NewDirectChallengeSerializer, responses={201: DirectChallengeSerializer},
                   summary="Challenge a player or bot to a game with these settings")
    def post(self, request):
        data = request.data
        player = data.get("player") if isinstance(data, dict) else None
        if not isinstance(player, str) or not player.strip():
            raise InvalidInput("player: the username of the player or bot to challenge")
        challenge = challenges.send_challenge(user=request.user, username=player, settings=_settings(data))
        return Response(selectors.challenge_dict(challenge), status=status.HTTP_201_CREATED)


class AcceptDirectChallengeView(APIView):
    @extend_schema(request=None, responses=DirectChallengeSerializer,
                   summary="Accept a challenge to me: the game is made and started (its id in `game`)")
    def post(self, request, challenge_id: int):
        return Response(selectors.challenge_dict(challenges.accept(user=request.user, challenge_id=challenge_id)))


class DeclineDirectChallengeView(APIView):
    @extend_schema(request=DeclineDirectChallengeSerializer, responses=DirectChallengeSerializer, summary="Decline a challenge to me")
    def post(self, request, challenge_id: int):
        serializer = DeclineDirectChallengeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        challenge = challenges.decline(user=request.user, challenge_id=challenge_id, **serializer.validated_data)
        return Response(selectors.challenge_dict(challenge))


class CancelDirectChallengeView(APIView):
    @extend_schema(request=None, responses=DirectChallengeSerializer, summary="Cancel a challenge I sent")
    def post(self, request, challenge_id: int):
        return Response(selectors.challenge_dict(challenges.cancel(user=request.user, challenge_id=challenge_id)))
