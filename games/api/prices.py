"""GET /api/courses/<slug>/prices/: a course's module prices and how they moved. In games because its history
names the games that moved the prices, unless private (docs/architecture.md "Layers")."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.selectors import prices
from roboracer.accounts.tokens import TOKEN_RULES
from roboracer.courses import selectors as course_selectors


class PricePointSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    game = serializers.IntegerField(allow_null=True)
    prices = serializers.DictField(child=serializers.IntegerField())


class CoursePricesSerializer(serializers.Serializer):
    """Documentation only: games.selectors.prices.course_prices."""

    course = serializers.CharField()
    finished_games = serializers.IntegerField()
    source = serializers.ChoiceField(choices=["course", "site"],
                                     help_text="where a new game on this course takes its prices from")
    prices = serializers.DictField(child=serializers.IntegerField(), help_text="the course's book, all 17 modules")
    history = PricePointSerializer(many=True, help_text="oldest first, at most 300 (the newest)")


class CoursePricesView(APIView):
    permission_classes = [AllowAny, *TOKEN_RULES]

    @extend_schema(responses=CoursePricesSerializer, summary="A course's module prices and their history")
    def get(self, request, slug: str):
        course = course_selectors.visible_course(user=request.user, slug=slug)
        if course is None:
            raise NotFound(course_selectors.missing(slug))
        return Response(prices.course_prices(course=course))
