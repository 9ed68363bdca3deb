"""Bot accounts and their tokens for the Bot API's tests, through the real services."""

from rest_framework.test import APIClient

from games.services import bots
from roboracer.accounts import services as account_services


def token_for(user, scopes=("play", "read")) -> str:
    _, text = account_services.create_token(user=user, name="test", scopes=list(scopes), expiry_days=0)
    return text


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def make_bot(make_user, name: str):
    """A fresh account made a bot account, with a token of both scopes: (user, token)."""
    user = make_user(name)
    bots.become_bot(user=user)
    return user, token_for(user)
