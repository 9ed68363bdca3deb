"""GET /api/players/<username>/: the player page's data as JSON (docs/api.md); in games, as the player page
(games.views.players), because it lists games."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.selectors import history
from roboracer.common.errors import NotFound
from roboracer.ratings import selectors as ratings


class PlayerQuerySerializer(serializers.Serializer):
    page = serializers.IntegerField(required=False, min_value=1, max_value=10**6,
                                    help_text="the page of finished games (20 a page); past the last: the last")


class PlayerGameSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    course = serializers.CharField(help_text="slug")
    course_name = serializers.CharField()
    finished_at = serializers.DateTimeField(allow_null=True)
    place = serializers.IntegerField(allow_null=True, help_text="final place, 1 the winner; ties share")
    players = serializers.IntegerField()
    kind = serializers.CharField(help_text='the game kind ("roboracer", "rambots"): a rated game changed that rating')
    rated = serializers.BooleanField()
    aborted = serializers.BooleanField(help_text="finished with fewer than two players who moved: rated for nobody")
    rating_change = serializers.IntegerField(allow_null=True, help_text="shown points won or lost; null if unrated")


class PlayerGamesSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    results = PlayerGameSerializer(many=True)


class KindRatingSerializer(serializers.Serializer):
    """One game kind's rating of the player (docs/ratings.md "One rating per kind")."""

    kind = serializers.CharField()
    title = serializers.CharField()
    rated = serializers.BooleanField(help_text="false until the player's first rated game of this kind")
    rating = serializers.IntegerField(allow_null=True, help_text="the shown rating; null while unrated")
    mu = serializers.FloatField(allow_null=True)
    sigma = serializers.FloatField(allow_null=True)
    rated_games = serializers.IntegerField()
    history = serializers.JSONField(help_text='[{"at", "rating"}] after each rated game of this kind, oldest first')


class PlayerSerializer(serializers.Serializer):
    """Documentation only: built by games.selectors.history.player_page."""

    username = serializers.CharField()
    display_name = serializers.CharField()
    bot_account = serializers.BooleanField(help_text="a bot account (docs/bot-api.md): shown with a BOT badge")
    rating = serializers.IntegerField(help_text="the shown RoboRacer rating: 1000 + 40 x (mu - 3 sigma), at least 0")
    mu = serializers.FloatField(help_text="RoboRacer's")
    sigma = serializers.FloatField(help_text="RoboRacer's")
    rated_games = serializers.IntegerField(help_text="rated RoboRacer games played")
    history = serializers.JSONField(help_text='[{"at", "rating"}] after each rated RoboRacer game, oldest first')
    ratings = serializers.DictField(child=KindRatingSerializer(),
                                    help_text="every game kind's rating: {kind: {...}}, roboracer and rambots")
    games = PlayerGamesSerializer(help_text="one page of finished games the viewer may see, newest first")


class PlayerView(APIView):
    @extend_schema(parameters=[PlayerQuerySerializer], responses=PlayerSerializer,
                   summary="A player's rating, its history and finished games")
    def get(self, request, username: str):
        user = ratings.player(username=username)
        if user is None:
            raise NotFound("there is no such player")
        query = PlayerQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = history.player_page(user=user, viewer=request.user, page=query.validated_data.get("page", 1))
        data.pop("page_obj")
        for row in data["games"]["results"]:
            row.pop("finished")
        return Response(data)
