"""A player's own notices (the bell, docs/api.md "Notices"): read them, mark them read. Only one's own: another
player's notice id is treated as one that does not exist."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.selectors import notices as selectors
from games.services import notices as services


class NoticeQuerySerializer(serializers.Serializer):
    unread = serializers.BooleanField(required=False, default=False, help_text="only the unread ones")


class NoticeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="rematch, tournament_invitation, tournament_game_ready, ...")
    text = serializers.CharField()
    link = serializers.CharField(help_text="a path on this site")
    source = serializers.JSONField(help_text='what it is about: {"game": 12} or {"tournament": 3, "round": 1, ...}')
    created = serializers.DateTimeField()
    read = serializers.BooleanField()


class NoticesSerializer(serializers.Serializer):
    unread = serializers.IntegerField(help_text="how many are unread")
    notices = NoticeSerializer(many=True, help_text="the newest 50, newest first")


class NoticeIdField(serializers.IntegerField):
    """A notice id as JSON writes a number: "7", "١" (an Arabic-Indic one) and true are refused, not read as 7."""

    def to_internal_value(self, data):
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class ReadSerializer(serializers.Serializer):
    ids = serializers.ListField(child=NoticeIdField(min_value=1, max_value=2**63 - 1), required=False, max_length=200,
                                help_text="the notices to mark read; all of them without it")


class ReadAnswerSerializer(serializers.Serializer):
    marked = serializers.IntegerField()
    unread = serializers.IntegerField()


class NoticesView(APIView):
    @extend_schema(parameters=[NoticeQuerySerializer], responses=NoticesSerializer, summary="My notices (the bell)")
    def get(self, request):
        query = NoticeQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response({"unread": selectors.unread_count(user=request.user),
                         "notices": selectors.recent(user=request.user, unread_only=query.validated_data["unread"])})


class ReadNoticesView(APIView):
    @extend_schema(request=ReadSerializer, responses=ReadAnswerSerializer, summary="Mark my notices read")
    def post(self, request):
        body = ReadSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        marked = services.mark_read(user=request.user, ids=body.validated_data.get("ids"))
        return Response({"marked": marked, "unread": selectors.unread_count(user=request.user)})
