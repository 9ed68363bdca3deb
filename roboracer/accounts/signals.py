"""News from accounts to the apps above it (docs/architecture.md "Layers": news travels up by signal)."""

from django.dispatch import Signal

# A personal API token was revoked (deleted by its owner); sent after the commit with `user_id` and `digest`.
# games closes the sockets and streams opened with it (games/receivers.py).
token_revoked = Signal()
# An account became a bot account (docs/bot-api.md); sent after the commit with `user_id`.
became_bot = Signal()
