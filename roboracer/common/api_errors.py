"""Every API error is {"detail": "one readable message"}; field errors also keep their structure
under "errors"."""

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent, TooManyFilesSent
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from roboracer.common.errors import GameError


def messages_of(detail, path: str = "") -> list[str]:
    if isinstance(detail, dict):
        return [m for key, value in detail.items() for m in messages_of(value, f"{path}.{key}" if path else str(key))]
    if isinstance(detail, list):
        return [m for value in detail for m in messages_of(value, path)]
    text = str(detail)
    return [f"{path}: {text}" if path and path != "non_field_errors" else text]


# What Django refuses while reading a request's body (DRF reads it inside the view, for the CSRF check or
# `request.data`); without this they reached Django as a 400 HTML page and an ERROR with a traceback.
REFUSED_BODIES = {
    RequestDataTooBig: "the request body is too large",
    TooManyFieldsSent: "too many form fields",
    TooManyFilesSent: "too many files",
}


def exception_handler(exc, context):
    if isinstance(exc, GameError):
        return Response({"detail": exc.message}, status=exc.status_code)
    if isinstance(exc, SuspiciousOperation):
        detail = next((text for kind, text in REFUSED_BODIES.items() if isinstance(exc, kind)), "a malformed request")
        return Response({"detail": detail}, status=400)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, ValidationError):
        response.data = {"detail": "; ".join(messages_of(exc.detail)), "errors": exc.detail}
    return response
