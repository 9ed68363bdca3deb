"""POST /api/courses/<slug>/test-drive/: the course builder's test drive. In games because it creates a game
(docs/architecture.md "Layers")."""

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.kinds.roboracer import services as roboracer_services
from roboracer.courses.api import ErrorSerializer


class TestDriveSerializer(serializers.Serializer):
    seats = serializers.IntegerField(min_value=1, max_value=8, default=1,
                                     help_text="1: a solo game, started at once; more: a private lobby")


class TestDriveAnswerSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    url = serializers.CharField(help_text="the game's page")


ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 403, 404)}


class CourseTestDriveView(APIView):
    @extend_schema(request=TestDriveSerializer, responses={201: TestDriveAnswerSerializer, **ERRORS},
                   summary="Test-drive a course: a private game on its current data (author and staff)")
    def post(self, request, slug: str):
        serializer = TestDriveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = roboracer_services.start_test_drive(user=request.user, slug=slug, **serializer.validated_data)
        return Response({"game": game.pk, "url": reverse("game", args=[game.pk])}, status=status.HTTP_201_CREATED)
