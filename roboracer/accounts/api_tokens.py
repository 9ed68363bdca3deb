"""The account's personal API tokens over the API (issue 41, docs/bot-api.md): list, create (the token's text is
in the answer once), revoke. Signed in with the site's session only: a token never makes or lists tokens."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from roboracer.accounts import selectors, services
from roboracer.accounts.tokens import SCOPES


class TokenSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="the token's public id, to revoke it by (never the token)")
    name = serializers.CharField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=services.TOKEN_SCOPES))
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)


class TokenListSerializer(serializers.Serializer):
    tokens = TokenSerializer(many=True)
    scopes = serializers.DictField(child=serializers.CharField(), help_text="each scope and what it allows")
    expiry_days = serializers.ListField(child=serializers.IntegerField(), help_text="the choices; 0: never")


class NewTokenSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=services.TOKEN_NAME_CHARS)
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=services.TOKEN_SCOPES), min_length=1,
                                   max_length=len(services.TOKEN_SCOPES))
    expiry_days = serializers.ChoiceField(choices=services.TOKEN_EXPIRY_DAYS, default=90)


class CreatedTokenSerializer(TokenSerializer):
    token = serializers.CharField(help_text="the token itself: shown this once, never again")


def token_dict(token) -> dict:
    return {"id": token.handle, "name": token.name, "scopes": token.scopes, "created": token.created,
            "expiry": token.expiry}


class TokensView(APIView):
    token_scope = None  # tokens are made and listed with the site's session only
    bot_session = True  # a bot account's owner manages its tokens signed in

    @extend_schema(responses=TokenListSerializer, summary="My API tokens (never the tokens themselves)")
    def get(self, request):
        return Response({"tokens": selectors.api_tokens(user=request.user), "scopes": SCOPES,
                         "expiry_days": list(services.TOKEN_EXPIRY_DAYS)})

    @extend_schema(request=NewTokenSerializer, responses={201: CreatedTokenSerializer},
                   summary="Make an API token: its text is in this answer, once")
    def post(self, request):
        serializer = NewTokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, text = services.create_token(user=request.user, **serializer.validated_data)
        response = Response({**token_dict(token), "token": text}, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response


class TokenView(APIView):
    token_scope = None
    bot_session = True

    @extend_schema(request=None, responses={204: None}, summary="Revoke one of my API tokens (at once)")
    def delete(self, request, handle: str):
        services.revoke_token(user=request.user, handle=handle)
        return Response(status=status.HTTP_204_NO_CONTENT)
