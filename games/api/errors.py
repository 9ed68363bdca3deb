"""Every API error is {"detail": "one readable message"}; field errors also keep their structure
under "errors"."""

from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import GameError


def _messages(detail, path: str = "") -> list[str]:
    if isinstance(detail, dict):
        return [m for key, value in detail.items() for m in _messages(value, f"{path}.{key}" if path else str(key))]
    if isinstance(detail, list):
        return [m for value in detail for m in _messages(value, path)]
    text = str(detail)
    return [f"{path}: {text}" if path and path != "non_field_errors" else text]


def exception_handler(exc, context):
    if isinstance(exc, GameError):
        return Response({"detail": exc.message}, status=exc.status_code)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, ValidationError):
        response.data = {"detail": "; ".join(_messages(exc.detail)), "errors": exc.detail}
    return response
