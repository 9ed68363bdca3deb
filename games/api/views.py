"""Thin API views: parse, call a service or selector, shape the answer."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.api.serializers import (
    CreateGameSerializer,
    GameSummarySerializer,
    ProgramAcceptedSerializer,
    ProgramSerializer,
    SnapshotSerializer,
    TurnRecordSerializer,
)
from games.errors import InvalidInput, NotFound
from roboracer.courses.models import Course


def _game_or_404(game_id: int):
    game = selectors.get_game(game_id=game_id)
    if game is None:
        raise NotFound(f"game {game_id} does not exist")
    return game


class GameListView(APIView):
    @extend_schema(responses=GameSummarySerializer(many=True), summary="Open games and my games")
    def get(self, request):
        mine = selectors.games_of(user=request.user)
        return Response(
            {
                "open": GameSummarySerializer(selectors.open_games(), many=True).data,
                "mine": GameSummarySerializer(mine, many=True).data,
            }
        )

    @extend_schema(request=CreateGameSerializer, responses={201: SnapshotSerializer}, summary="Create a game")
    def post(self, request):
        serializer = CreateGameSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        slug = serializer.validated_data["course"]
        course = Course.objects.filter(slug=slug).first()
        if course is None:
            raise InvalidInput(f"there is no course named {slug!r}")
        game = services.create_game(
            user=request.user,
            course=course,
            max_seats=serializer.validated_data.get("max_seats"),
            lives=serializer.validated_data["lives"],
        )
        return Response(selectors.game_snapshot(game=game, user=request.user), status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    @extend_schema(responses=SnapshotSerializer, summary="The game as I may see it")
    def get(self, request, game_id: int):
        game = _game_or_404(game_id)
        return Response(selectors.game_snapshot(game=game, user=request.user))


class JoinGameView(APIView):
    @extend_schema(request=None, responses=SnapshotSerializer, summary="Take a seat")
    def post(self, request, game_id: int):
        services.join_game(user=request.user, game_id=game_id)
        return Response(selectors.game_snapshot(game=_game_or_404(game_id), user=request.user))


class StartGameView(APIView):
    @extend_schema(request=None, responses=SnapshotSerializer, summary="Start the game (creator only)")
    def post(self, request, game_id: int):
        services.start_game(user=request.user, game_id=game_id)
        return Response(selectors.game_snapshot(game=_game_or_404(game_id), user=request.user))


class ProgramView(APIView):
    @extend_schema(request=ProgramSerializer, responses=ProgramAcceptedSerializer, summary="Submit my program")
    def post(self, request, game_id: int):
        serializer = ProgramSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        program = services.submit_program(user=request.user, game_id=game_id, **serializer.validated_data)
        return Response({"turn": program.turn, "chips": program.chips, "reboot": program.reboot})


class TurnView(APIView):
    @extend_schema(responses=TurnRecordSerializer, summary="A resolved turn, for replay")
    def get(self, request, game_id: int, number: int):
        game = _game_or_404(game_id)
        record = selectors.resolved_turn(game=game, number=number)
        if record is None:
            raise NotFound(f"turn {number} of game {game_id} has not been played")
        return Response(record)
