"""Courses over the API: the list for the create-game form and the gallery, and one course's full data."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from roboracer.courses import selectors
from roboracer.courses.models import Course


class CourseSummarySerializer(serializers.ModelSerializer):
    size = serializers.SerializerMethodField()

    class Meta:
        model = Course
        fields = ["slug", "name", "min_players", "max_players", "bundled", "size"]

    def get_size(self, course) -> list[int]:
        """[width, height] in squares."""
        return [course.data.get("width"), course.data.get("height")]


class CourseSerializer(CourseSummarySerializer):
    data = serializers.JSONField(help_text="the course in the roboracer-course/1 format (docs/formats.md)")

    class Meta(CourseSummarySerializer.Meta):
        fields = [*CourseSummarySerializer.Meta.fields, "data"]


class CourseListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=CourseSummarySerializer(many=True), summary="Every course")
    def get(self, request):
        return Response(CourseSummarySerializer(selectors.all_courses(), many=True).data)


class CourseDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=CourseSerializer, summary="One course with its elements")
    def get(self, request, slug: str):
        course = selectors.get_course(slug=slug)
        if course is None:
            raise NotFound(f"there is no course named {slug!r}")
        return Response(CourseSerializer(course).data)
