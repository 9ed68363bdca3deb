"""The Pyramid's API: thin views over the services and selectors (docs/api.md, "Pyramid")."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from roboracer.common.errors import NotFound
from roboracer.pyramid import selectors, services


class PyramidPlayerSerializer(serializers.Serializer):
    """Documentation only: a place of selectors.pyramid_state's rows."""

    username = serializers.CharField()
    name = serializers.CharField(help_text="the name players see")
    row = serializers.IntegerField()
    position = serializers.IntegerField(help_text="1 is the leftmost, highest-ranked place of the row")
    points = serializers.IntegerField(help_text="challenge points")
    me = serializers.BooleanField()
    defending = serializers.ListField(child=serializers.DictField(), help_text="open challenges against them")
    challenging = serializers.DictField(allow_null=True, help_text="their own open challenge")
    challenge_cost = serializers.IntegerField(allow_null=True, help_text="what challenging them costs me; null: "
                                              "the places do not allow it")
    can_challenge = serializers.BooleanField()
    why_not = serializers.CharField(allow_null=True)


class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    challenger = serializers.CharField()
    challenger_name = serializers.CharField()
    defender = serializers.CharField()
    defender_name = serializers.CharField()
    cost = serializers.IntegerField()
    status = serializers.CharField()
    game = serializers.IntegerField(help_text="the challenge's game (/games/<id>/)")
    game_status = serializers.CharField()
    pending = serializers.BooleanField(help_text="may still be revoked: the defender has sent no program yet")
    created_at = serializers.DateTimeField()


class PyramidSerializer(serializers.Serializer):
    """Documentation only: selectors.pyramid_state."""

    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    rules = serializers.DictField()
    players = serializers.IntegerField()
    rows = serializers.ListField(child=serializers.ListField(child=PyramidPlayerSerializer(allow_null=True)))
    me = serializers.DictField(allow_null=True)
    challenges = ChallengeSerializer(many=True)
    history = serializers.ListField(child=serializers.DictField())


class PyramidSummarySerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    players = serializers.IntegerField()


class ChallengeRequestSerializer(serializers.Serializer):
    player = serializers.CharField(max_length=150, help_text="the username of the player to challenge")


def _pyramid_or_404(slug: str):
    pyramid = selectors.pyramid_by_slug(slug=slug)
    if pyramid is None:
        raise NotFound(f"there is no pyramid {slug!r}")
    return pyramid


def _state(slug: str, user) -> dict:
    return selectors.pyramid_state(pyramid=_pyramid_or_404(slug), user=user)


class PyramidListView(APIView):
    @extend_schema(responses=PyramidSummarySerializer(many=True), summary="The pyramids")
    def get(self, request):
        return Response([{"slug": p.slug, "name": p.name, "players": p.places.count()}
                         for p in selectors.pyramids()])


class PyramidDetailView(APIView):
    @extend_schema(responses=PyramidSerializer, summary="A pyramid: rows, points, open challenges, history")
    def get(self, request, slug: str):
        return Response(_state(slug, request.user))


class JoinPyramidView(APIView):
    @extend_schema(request=None, responses={201: PyramidSerializer}, summary="Join at the bottom")
    def post(self, request, slug: str):
        services.join_pyramid(user=request.user, slug=slug)
        return Response(_state(slug, request.user), status=status.HTTP_201_CREATED)


class ChallengeListView(APIView):
    @extend_schema(request=ChallengeRequestSerializer, responses={201: ChallengeSerializer},
                   summary="Challenge a player above me; the game starts at once")
    def post(self, request, slug: str):
        serializer = ChallengeRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        challenge = services.create_challenge(user=request.user, slug=slug, **serializer.validated_data)
        return Response(_challenge(slug, request.user, challenge.pk), status=status.HTTP_201_CREATED)


class RevokeChallengeView(APIView):
    @extend_schema(request=None, responses=ChallengeSerializer, summary="Revoke my pending challenge")
    def post(self, request, slug: str, challenge_id: int):
        challenge = services.revoke_challenge(user=request.user, slug=slug, challenge_id=challenge_id)
        return Response({
            "id": challenge.pk, "status": challenge.status, "game": challenge.game_id, "cost": challenge.cost,
            "points_change": challenge.points_change,
        })


def _challenge(slug: str, user, challenge_id: int) -> dict:
    return next(c for c in _state(slug, user)["challenges"] if c["id"] == challenge_id)
