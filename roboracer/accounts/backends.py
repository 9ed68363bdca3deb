"""Log-in by username ignoring case: usernames are unique ignoring case (roboracer/accounts/names.py), so
"Alice" and "alice" are the same account."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

BACKEND = "roboracer.accounts.backends.UsernameIgnoringCaseBackend"  # for login() after sign-up


class UsernameIgnoringCaseBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None or password is None:
            return None
        users = get_user_model()._default_manager.filter(  # noqa: SLF001 (Django's documented manager)
            username__iexact=username.strip())
        user = users.first()
        if user is None:
            get_user_model()().set_password(password)  # as long as a real check: no timing hint
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
