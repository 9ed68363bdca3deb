"""Service errors become JSON {"detail": message} with their status code."""

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import GameError


def exception_handler(exc, context):
    if isinstance(exc, GameError):
        return Response({"detail": exc.message}, status=exc.status_code)
    return drf_exception_handler(exc, context)
