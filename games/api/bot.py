"""The Bot API's account endpoint (docs/bot-api.md): a fresh account becomes a bot account, for good."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.services import bots


class BotAccountSerializer(serializers.Serializer):
    bot = serializers.BooleanField(help_text="true: this is a bot account now")


class BotUpgradeView(APIView):
    bot_session = True  # a bot account asking again hears "already" (409), not the session rule
    @extend_schema(request=None, responses=BotAccountSerializer,
                   summary="Make my account a bot account, for good (a fresh account: no game played)")
    def post(self, request):
        bots.become_bot(user=request.user)
        return Response({"bot": True})
