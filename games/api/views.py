"""Thin API views: parse, call a service or selector, shape the answer."""

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from games import kinds
from games.api.serializers import (
    AddComputerSerializer,
    ChatAnswerSerializer,
    ChatQuerySerializer,
    ChatSerializer,
    ComputerSeatSerializer,
    CreateGameSerializer,
    EjectedSerializer,
    JoinSerializer,
    LobbySerializer,
    MoveSerializer,
    PlayAgainSerializer,
    PracticeAnswerSerializer,
    PracticeSerializer,
    ProgramAcceptedSerializer,
    ProgramSerializer,
    PuzzleSerializer,
    RecompileSerializer,
    ScanRequestSerializer,
    ScanSerializer,
    SnapshotSerializer,
    TeamSerializer,
    TurnRecordSerializer,
)
from games.kinds.roboracer import services as roboracer_services
from games.kinds.roboracer import solution
from games.selectors import access, chat, lobby, puzzles, rematch, snapshots, turns
from games.services import chat as chat_services
from games.services import computer_seats, ejection, moves, team_play
from games.services import lobby as lobby_services
from games.services import rematch as rematch_services
from roboracer.accounts import selectors as account_selectors
from roboracer.common.errors import InvalidInput, NotFound
from roboracer.courses import selectors as course_selectors


def _game_or_404(game_id: int, user):
    """The game if this user may see it; a private game is absent to strangers."""
    game = access.visible_game(game_id=game_id, user=user)
    if game is None:
        raise NotFound(f"game {game_id} does not exist")
    return game


class GameListView(APIView):
    @extend_schema(responses=LobbySerializer, operation_id="games_list", summary="Open public games, my games, my archive")
    def get(self, request):
        page = lobby.lobby_page_number(request.query_params.get("page"))
        if page is None:
            raise InvalidInput("page: a whole number from 1")
        return Response(lobby.lobby_state(user=request.user, page=page))

    @extend_schema(request=CreateGameSerializer, responses={201: SnapshotSerializer},
                   summary="Create a game (RoboRacer; or RAMbots with kind \"rambots\")")
    def post(self, request):
        kind = _requested_kind(request.data)
        serializer = kind.create_serializer(request.data)
        serializer.is_valid(raise_exception=True)
        game = lobby_services.create_game(user=request.user, kind=kind.name, **serializer.validated_data)
        return Response(snapshots.game_snapshot(game=game, user=request.user), status=status.HTTP_201_CREATED)


def _requested_kind(data):
    """The kind of game a create request asks for ("kind", RoboRacer by default), from the registry."""
    name = data.get("kind", kinds.DEFAULT) if hasattr(data, "get") else kinds.DEFAULT
    if not isinstance(name, str) or name not in kinds.names():
        raise InvalidInput(f"kind: one of {', '.join(kinds.names())}")
    return kinds.get(name)


class GameDetailView(APIView):
    @extend_schema(responses=SnapshotSerializer, summary="The game as I may see it")
    def get(self, request, game_id: int):
        game = _game_or_404(game_id, request.user)
        return Response(snapshots.game_snapshot(game=game, user=request.user))


class JoinGameView(APIView):
    @extend_schema(request=JoinSerializer, responses=SnapshotSerializer, summary="Take a seat (private: with invite)")
    def post(self, request, game_id: int):
        serializer = JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        lobby_services.join_game(user=request.user, game_id=game_id, **serializer.validated_data)
        return Response(snapshots.game_snapshot(game=_game_or_404(game_id, request.user), user=request.user))


class TeamView(APIView):
    @extend_schema(request=TeamSerializer, responses=SnapshotSerializer, summary="Choose a team (team play, lobby)")
    def post(self, request, game_id: int):
        serializer = TeamSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        team_play.choose_team(user=request.user, game_id=game_id, team=data["team"], seat_number=data.get("seat"))
        return Response(snapshots.game_snapshot(game=_game_or_404(game_id, request.user), user=request.user))


class BalanceTeamsView(APIView):
    @extend_schema(request=None, responses=SnapshotSerializer, summary="Balance the teams by rating (creator, lobby)")
    def post(self, request, game_id: int):
        team_play.balance_teams(user=request.user, game_id=game_id)
        return Response(snapshots.game_snapshot(game=_game_or_404(game_id, request.user), user=request.user))


class StartGameView(APIView):
    @extend_schema(request=None, responses=SnapshotSerializer, summary="Start the game (creator only)")
    def post(self, request, game_id: int):
        lobby_services.start_game(user=request.user, game_id=game_id)
        return Response(snapshots.game_snapshot(game=_game_or_404(game_id, request.user), user=request.user))


class LeaveGameView(APIView):
    @extend_schema(request=None, responses=SnapshotSerializer, summary="Leave: give up my seat, or resign")
    def post(self, request, game_id: int):
        game = lobby_services.leave_game(user=request.user, game_id=game_id)
        # Not _game_or_404: someone who just left a private game may no longer watch it, but gets this answer.
        return Response(snapshots.game_snapshot(game=game, user=request.user))


class CancelGameView(APIView):
    @extend_schema(request=None, responses=SnapshotSerializer, summary="Cancel a game that has not started")
    def post(self, request, game_id: int):
        lobby_services.cancel_game(user=request.user, game_id=game_id)
        return Response(snapshots.game_snapshot(game=_game_or_404(game_id, request.user), user=request.user))


class PlayAgainView(APIView):
    @extend_schema(request=None, responses={201: PlayAgainSerializer, 200: PlayAgainSerializer},
                   summary="Play again: a new lobby with the same course and settings, its players invited")
    def post(self, request, game_id: int):
        game, created = rematch_services.play_again(user=request.user, game_id=game_id)
        return Response({"game": game.pk, "url": rematch.rematch_link(game=game), "created": created},
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class ChatView(APIView):
    @extend_schema(parameters=[ChatQuerySerializer], responses=ChatAnswerSerializer,
                   summary="Older chat messages (before a message id)")
    def get(self, request, game_id: int):
        game = _game_or_404(game_id, request.user)
        # A serializer, not str.isdigit(): that accepts "²", which int() refuses.
        query = ChatQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        before = query.validated_data.get("before")  # team chat: only the lines said in the reader's team with them
        return Response({"messages": chat.recent_chat(game=game, before=before, reader=request.user)})

    @extend_schema(request=ChatSerializer, responses={201: ChatAnswerSerializer, 200: ChatAnswerSerializer},
                   summary="Say something, or run a chat command (!eject, !archive)")
    def post(self, request, game_id: int):
        serializer = ChatSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        # post_chat answers a stranger to a private game with the same 404 as a missing id.
        answer = chat_services.post_chat(user=request.user, game_id=game_id, text=serializer.validated_data["text"])
        return Response(answer, status=status.HTTP_201_CREATED if "message" in answer else status.HTTP_200_OK)


class EjectSeatView(APIView):
    @extend_schema(request=None, responses=EjectedSerializer, summary="Eject a seat (staff only)")
    def post(self, request, game_id: int, number: int):
        return Response({"ejected": ejection.staff_eject(user=request.user, game_id=game_id, seat_number=number)})


class ProgramView(APIView):
    token_move = True  # a move: counted against the token's BOT_MOVE_RATE too (docs/bot-api.md)

    @extend_schema(request=ProgramSerializer, responses=ProgramAcceptedSerializer, summary="Submit my program")
    def post(self, request, game_id: int):
        # submit_program answers a stranger to a private game with the same 404 as a missing id.
        serializer = ProgramSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        program = moves.submit_program(user=request.user, game_id=game_id, **serializer.validated_data)
        return Response(
            {"turn": program.turn, "chips": program.chips, "reboot": program.reboot, "action": program.action}
        )


class MoveView(APIView):
    token_move = True  # a move: counted against the token's BOT_MOVE_RATE too (docs/bot-api.md)

    @extend_schema(request=MoveSerializer, responses=MoveSerializer,
                   summary="Send my move in a game of a kind without chips (RAMbots: goal stack, program, draft)")
    def post(self, request, game_id: int):
        # The kind reads its own move's shape (moves.submit_move); a stranger to a private game gets the 404 of a
        # missing id.
        return Response(moves.submit_move(user=request.user, game_id=game_id, data=request.data))


class ScanView(APIView):
    token_move = True  # a move: counted against the token's BOT_MOVE_RATE too (docs/bot-api.md)

    @extend_schema(request=ScanRequestSerializer, responses=ScanSerializer,
                   summary="Scanner: see the opponents' submitted chips, sorted (for me alone)")
    def post(self, request, game_id: int):
        serializer = ScanRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(roboracer_services.scan(user=request.user, game_id=game_id, turn=serializer.validated_data["turn"]))


class RecompileView(APIView):
    token_move = True  # a move: counted against the token's BOT_MOVE_RATE too (docs/bot-api.md)

    @extend_schema(request=ScanRequestSerializer, responses=RecompileSerializer,
                   summary="classic's Recompile: new instructions for 2 damage (for me alone)")
    def post(self, request, game_id: int):
        serializer = ScanRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        turn = serializer.validated_data["turn"]
        return Response(roboracer_services.recompile(user=request.user, game_id=game_id, turn=turn))


class TurnView(APIView):
    @extend_schema(responses=TurnRecordSerializer, summary="A resolved turn, for replay")
    def get(self, request, game_id: int, number: int):
        game = _game_or_404(game_id, request.user)
        record = turns.resolved_turn(game=game, number=number)
        if record is None:
            raise NotFound(f"turn {number} of game {game_id} has not been played")
        return Response(record)


class ComputersView(APIView):
    @extend_schema(request=AddComputerSerializer, responses={201: ComputerSeatSerializer},
                   summary="Add a computer player to the lowest free seat (creator, lobby)")
    def post(self, request, game_id: int):
        serializer = AddComputerSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        seat = computer_seats.add_computer(user=request.user, game_id=game_id, strength=data["strength"],
                                     seat_number=data["seat"])
        return Response(
            {"seat": seat.number, "computer": seat.computer, "display_name": account_selectors.player_name(user=seat.user)},
            status=status.HTTP_201_CREATED,
        )


class TakeBackView(APIView):
    @extend_schema(request=None, responses=SnapshotSerializer,
                   summary="Take my robot back from the computer playing it (timeout policy 'computer')")
    def post(self, request, game_id: int):
        computer_seats.take_back(user=request.user, game_id=game_id)
        return Response(snapshots.game_snapshot(game=_game_or_404(game_id, request.user), user=request.user))


class RemoveComputerView(APIView):
    @extend_schema(request=None, responses=SnapshotSerializer, summary="Remove a computer player (creator, lobby)")
    def post(self, request, game_id: int, number: int):
        computer_seats.remove_computer(user=request.user, game_id=game_id, seat_number=number)
        return Response(snapshots.game_snapshot(game=_game_or_404(game_id, request.user), user=request.user))


class PracticeView(APIView):
    @extend_schema(request=PracticeSerializer, responses={201: PracticeAnswerSerializer},
                   summary="Play against the computer: a game with computer opponents, started at once")
    def post(self, request):
        serializer = PracticeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        course = course_selectors.playable_courses().filter(slug=data.pop("course")).first()
        if course is None:
            raise InvalidInput("course: there is no such course")
        game = roboracer_services.practice_game(user=request.user, course=course, **data)
        return Response({"id": game.pk, "url": reverse("game", args=[game.pk])}, status=status.HTTP_201_CREATED)


class PuzzleListView(APIView):
    @extend_schema(responses=PuzzleSerializer(many=True), summary="The puzzles: tried, solved, best turns, mine")
    def get(self, request):
        return Response(puzzles.puzzle_list(user=request.user))


class PuzzleSolutionView(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT,
                   summary="A puzzle's solution as an offline replay, once you solved it or gave up")  # fmt: skip
    def get(self, request, slug: str):
        return Response(solution.solution_for(user=request.user, slug=slug))
