"""Sign up, log in, log out over the API (session cookies; CSRF checked even before login)."""

from django.contrib.auth import authenticate, login, logout
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_protect, ensure_csrf_cookie
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from roboracer.accounts import signup_throttle
from roboracer.accounts.backends import BACKEND
from roboracer.accounts.services import profile_data, sign_up, update_profile


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


def _me(user) -> dict:
    return {"username": user.get_username(), "is_staff": user.is_staff} if user.is_authenticated else {}


@method_decorator(ensure_csrf_cookie, name="get")
class CsrfView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=None, responses=None, summary="Set the csrftoken cookie; return who I am")
    def get(self, request):
        return Response({"user": _me(request.user)})


@method_decorator(csrf_protect, name="post")
class SignupView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=CredentialsSerializer, responses={201: None, 400: None, 409: None, 429: None},
        summary="Create an account and log in",
        description="400: the username breaks the rules (docs/site.md, Names) or the password is weak; "
                    "409: the name is taken, ignoring case; 429 with Retry-After (seconds): too many sign-ups "
                    "from this address (SIGNUP_RATE).",
    )
    def post(self, request):
        if wait := signup_throttle.wait_seconds(request):
            return Response({"detail": signup_throttle.message(wait)}, status=status.HTTP_429_TOO_MANY_REQUESTS,
                            headers={"Retry-After": str(wait)})
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = sign_up(**serializer.validated_data)  # InvalidInput is a 400, Conflict (name taken) a 409
        login(request, user, backend=BACKEND)
        return Response({"user": _me(user)}, status=status.HTTP_201_CREATED)


@method_decorator(csrf_protect, name="post")
class LoginView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        request=CredentialsSerializer, responses={200: None, 400: None, 429: None}, summary="Log in",
        description="The username ignoring case. 429 with Retry-After (seconds) after too many failed log-ins "
                    "for the account or from the address (LOGIN_FAILURE_LIMIT, LOGIN_COOLOFF_MINUTES).",
    )
    def post(self, request):
        serializer = CredentialsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        # Django's own request: django-axes marks a refused attempt on it for its middleware (429, Retry-After).
        user = authenticate(request._request, **serializer.validated_data)  # noqa: SLF001 (DRF's documented way)
        if user is None:
            return Response({"detail": "wrong username or password"}, status=status.HTTP_400_BAD_REQUEST)
        login(request, user)
        return Response({"user": _me(user)})


class LogoutView(APIView):
    @extend_schema(request=None, responses={204: None}, summary="Log out")
    def post(self, request):
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField(read_only=True)
    email = serializers.CharField(required=False, allow_blank=True, max_length=254)
    display_name = serializers.CharField(required=False, allow_blank=True, max_length=40)
    color = serializers.CharField(required=False, allow_blank=True, max_length=7)
    vacation_from = serializers.DateField(required=False, allow_null=True)
    vacation_until = serializers.DateField(required=False, allow_null=True)
    e_mail_turns = serializers.BooleanField(required=False)
    e_mail_notices = serializers.BooleanField(required=False)
    bot = serializers.BooleanField(read_only=True, help_text="a bot account (docs/bot-api.md)")
    palette = serializers.ListField(child=serializers.CharField(), read_only=True)


class ProfileView(APIView):
    bot_session = True  # a bot account's owner keeps its profile signed in
    @extend_schema(responses=ProfileSerializer, summary="My profile")
    def get(self, request):
        return Response(ProfileSerializer(profile_data(user=request.user)).data)

    @extend_schema(request=ProfileSerializer, responses=ProfileSerializer, summary="Change my profile")
    def patch(self, request):
        serializer = ProfileSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        update_profile(user=request.user, **serializer.validated_data)
        return Response(ProfileSerializer(profile_data(user=request.user)).data)
