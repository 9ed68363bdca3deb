"""Errors the game services raise; the API turns each into its status code and message."""


class GameError(Exception):
    status_code = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class InvalidInput(GameError):
    status_code = 400


class NotAllowed(GameError):
    status_code = 403


class NotFound(GameError):
    status_code = 404


class Conflict(GameError):
    """The request is well formed but the game is not in a state that accepts it."""

    status_code = 409


class RateLimited(GameError):
    status_code = 429
