"""The tournaments API (docs/api.md "Tournaments"): thin views over services and selectors."""

from __future__ import annotations

import csv
import io

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from games import kinds
from games.models import Game
from roboracer.common.errors import InvalidInput, NotFound
from roboracer.courses.models import Course
from roboracer.tournaments import selectors, substitution_selectors
from roboracer.tournaments.models import Tournament
from roboracer.tournaments.services import creation, organising, registration, substitutions

STANDING_COLUMNS = ["place", "player", "username", "status", "points", "opponents_points", "rounds",
                    "round_reached", "last_place", "places", "rating"]


def _cell(value) -> str:
    """A CSV cell; a text that a spreadsheet would run as a formula (=, +, -, @, tab, CR) is quoted with '."""
    if isinstance(value, list):
        value = " ".join(str(v) for v in value if v is not None)
    text = "" if value is None else str(value)
    if isinstance(value, str) and text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        text = "'" + text
    return text


class StandingsCSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        out = io.StringIO()
        writer = csv.writer(out)
        if isinstance(data, dict) and "standings" in data:
            columns = [c for c in STANDING_COLUMNS if any(c in row for row in data["standings"])]
            writer.writerow(columns)
            for row in data["standings"]:
                writer.writerow([_cell(row.get(column)) for column in columns])
        else:  # an error: {"detail": ...}
            writer.writerow(["detail"])
            writer.writerow([_cell((data or {}).get("detail", ""))])
        return out.getvalue().encode("utf-8")


def _tournament(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"tournament {tournament_id} does not exist")
    return tournament


class CreateTournamentSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    description = serializers.CharField(max_length=5000, required=False, allow_blank=True, default="")
    # The kinds are games' registry (selectors.game_kinds), read when the serializer is made: a new kind needs
    # no edit here.
    kind = serializers.ChoiceField(choices=(), default=kinds.DEFAULT, help_text="the game the tables play")
    courses = serializers.ListField(child=serializers.SlugField(max_length=80), min_length=0, max_length=50,
                                    default=list)
    table_size = serializers.IntegerField(min_value=2, max_value=8, default=4)
    lives = serializers.IntegerField(min_value=1, max_value=9, default=3)
    modules = serializers.ListField(child=serializers.CharField(max_length=32), max_length=32, default=list)
    move_time = serializers.IntegerField(min_value=1, max_value=10**8, default=3 * 86400)
    game_time = serializers.IntegerField(min_value=0, max_value=10**8, default=15 * 86400)
    timeout_policy = serializers.ChoiceField(choices=Game.TimeoutPolicy.choices, default="eject")
    registration_opens = serializers.DateTimeField()
    registration_closes = serializers.DateTimeField()
    min_players = serializers.IntegerField(min_value=2, max_value=creation.MAX_MIN_PLAYERS, default=2)
    format = serializers.ChoiceField(choices=Tournament.Format.values, default="heats")
    advance = serializers.IntegerField(min_value=1, max_value=7, default=1)
    seeding = serializers.ChoiceField(choices=Tournament.Seeding.values, default="random")
    league_rounds = serializers.IntegerField(min_value=1, max_value=creation.MAX_LEAGUE_ROUNDS, default=3)
    points = serializers.ListField(child=serializers.IntegerField(min_value=0, max_value=1000), max_length=8,
                                   required=False)
    allow_bots = serializers.BooleanField(default=False, help_text="bot accounts may register (docs/bot-api.md)")
    computer_fill = serializers.ChoiceField(
        choices=Tournament.ComputerFill.values, default="", allow_blank=True,
        help_text='"" (off), or the strength of the computer players who fill each table up to table_size '
                  '(those games are unrated)',
        error_messages={"invalid_choice": f'"{{input}}" is not a computer strength: "" (off), '
                                          f'{", ".join(creation.COMPUTER_FILLS)}'})

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        game_kinds = selectors.game_kinds()
        self.fields["kind"].choices = [(name, kind.title) for name, kind in game_kinds]
        self.fields["kind"].help_text = "the game the tables play: " + "; ".join(
            f"{kind.title} takes {'courses' if kind.uses_courses else 'no courses'} and 2 to {kind.max_table} a table"
            for _name, kind in game_kinds)


class ExtendSerializer(serializers.Serializer):
    seconds = serializers.IntegerField(min_value=60, max_value=organising.MAX_EXTEND)


class DisqualifySerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class SeedsSerializer(serializers.Serializer):
    entries = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=1024,
                                    help_text="every registered player's entry id once, top seed first")


class ReplaceSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


def detail(tournament: Tournament, user) -> dict:
    entry = selectors.entry_of(tournament=tournament, user=user)
    standings = selectors.standings(tournament=tournament)
    return {
        **selectors.summary(tournament=tournament),
        "registered": bool(entry and entry.withdrawn_at is None),
        # The caller's own entry, in the standings' words (in, withdrawn, disqualified, replaced, out in round n,
        # winner, finished), with an organiser's reason for a disqualification; null without one.
        "entry": ({"status": next((row["status"] for row in standings if row["entry"] == entry.pk),
                                  selectors.entry_status(entry)),
                   "reason": entry.out_reason} if entry else None),
        "organising": tournament.organiser_id == user.pk,
        "invitations": substitution_selectors.invitations(user=user, tournament=tournament),
        **({"substitutions": substitution_selectors.pending_substitutions(tournament=tournament),
            # The order round 1 would seat by hand (POST .../seeds/ sets it): the organiser's own.
            "seeds": [{"entry": e.pk, "player": selectors.name_of(e.user), "seed": e.seed}
                      for e in selectors.seed_order(tournament=tournament)]}
           if tournament.organiser_id == user.pk or user.is_staff else {}),
        "rounds": selectors.rounds(tournament=tournament),
        "standings": standings,
        "log": [{"at": a.created_at.isoformat(), "kind": a.kind, "text": a.text}
                for a in selectors.actions(tournament=tournament)[:200]],
    }


class TournamentListView(APIView):
    @extend_schema(responses=None, operation_id="tournaments_list", summary="Tournaments: open, running, finished")
    def get(self, request):
        return Response({key: [{"id": t.pk, "name": t.name, "status": t.status, "format": t.format,
                                "players": t.players, "registration_closes": t.registration_closes.isoformat()}
                               for t in tournaments]
                         for key, tournaments in selectors.tournament_lists().items()})

    @extend_schema(request=CreateTournamentSerializer, responses={201: None}, summary="Create (organisers only)")
    def post(self, request):
        serializer = CreateTournamentSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        slugs = data.pop("courses")
        courses = list(Course.objects.filter(slug__in=slugs))
        missing = sorted(set(slugs) - {c.slug for c in courses})
        if missing:
            raise InvalidInput(f"courses: there is no course named {missing[0]!r}")
        tournament = creation.create_tournament(organiser=request.user, courses=courses, **data)
        return Response(detail(tournament, request.user), status=status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    @extend_schema(responses=None, summary="A tournament: settings, rounds with tables and games, standings, log")
    def get(self, request, tournament_id: int):
        return Response(detail(_tournament(tournament_id), request.user))


class StandingsView(APIView):
    renderer_classes = [JSONRenderer, StandingsCSVRenderer]

    @extend_schema(parameters=[OpenApiParameter("format", str, enum=["json", "csv"])], responses=None,
                   summary="The standings, as JSON or CSV (?format=csv)")
    def get(self, request, tournament_id: int):
        tournament = _tournament(tournament_id)
        response = Response({"tournament": tournament.pk, "status": tournament.status,
                             "standings": selectors.standings(tournament=tournament)})
        if getattr(request, "accepted_renderer", None) and request.accepted_renderer.format == "csv":
            response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
        return response


def _action(method):
    """A POST view calling one service with (user, tournament_id, **validated body) and answering the detail."""

    class ActionView(APIView):
        serializer_class = None

        @extend_schema(request=None, responses=None, summary=method.__doc__ or method.__name__)
        def post(self, request, tournament_id: int, **kwargs):
            body = {}
            if self.serializer_class is not None:
                serializer = self.serializer_class(data=request.data)
                serializer.is_valid(raise_exception=True)
                body = serializer.validated_data
            method(user=request.user, tournament_id=tournament_id, **kwargs, **body)
            return Response(detail(_tournament(tournament_id), request.user))

    ActionView.__name__ = f"{method.__name__.title()}View"
    return ActionView


RegisterView = _action(registration.register)
WithdrawView = _action(registration.withdraw)
StartView = _action(organising.start_now)
PauseView = _action(organising.pause)
ResumeView = _action(organising.resume)
EndView = _action(organising.end)


class ExtendView(_action(organising.extend)):
    serializer_class = ExtendSerializer


class DisqualifyView(_action(organising.disqualify)):
    serializer_class = DisqualifySerializer


class SeedsView(_action(organising.set_seeds)):
    serializer_class = SeedsSerializer


class ReplaceView(_action(substitutions.replace)):
    serializer_class = ReplaceSerializer


class InvitationListView(APIView):
    @extend_schema(responses=None, summary="My pending invitations to replace a tournament player")
    def get(self, request):
        return Response({"invitations": substitution_selectors.invitations(user=request.user)})


def _invitation_action(method):
    """A POST on one invitation (invitee: accept or decline; organiser: cancel); answers the tournament's detail.
    Anyone else gets the 404 of a missing invitation."""

    class InvitationView(APIView):
        @extend_schema(request=None, responses=None, summary=method.__doc__ or method.__name__)
        def post(self, request, invitation_id: int):
            result = method(user=request.user, substitution_id=invitation_id)
            answer = detail(_tournament(result.tournament_id), request.user)
            if method is substitutions.accept_substitution:  # the game whose seat was taken, to go and play it
                answer["game"] = substitution_selectors.current_game(entry=result)
            return Response(answer)

    InvitationView.__name__ = f"{method.__name__.title().replace('_', '')}View"
    return InvitationView


AcceptInvitationView = _invitation_action(substitutions.accept_substitution)
DeclineInvitationView = _invitation_action(substitutions.decline_substitution)
CancelInvitationView = _invitation_action(substitutions.cancel_substitution)
