"""Account forms: the sign-up page's and the admin's, all with the name rules of the service."""

from axes.handlers.proxy import AxesProxyHandler
from django import forms
from django.conf import settings
from django.contrib.auth.forms import (
    AdminUserCreationForm,
    AuthenticationForm,
    BaseUserCreationForm,
    UserChangeForm,
)
from django.forms.utils import ErrorList

from roboracer.accounts.names import USERNAME_RULE
from roboracer.accounts.services import checked_username
from roboracer.common.errors import GameError


class Errors(ErrorList):
    """Form errors that look like errors (site.css `.errorlist`): a field's are tied to its input by Django
    (aria-describedby "<id>_error"); the form's own (a wrong password) are announced (role="alert")."""

    template_name = "accounts/errors.html"


class UsernameRules:
    """clean_username by the service (roboracer/accounts/names.py): the rule, or "taken" ignoring case."""

    def clean_username(self):
        try:
            return checked_username(username=self.cleaned_data["username"], user_id=self.instance.pk)
        except GameError as error:
            raise forms.ValidationError(sentence(error.message.removeprefix("username: "))) from None


def sentence(text: str) -> str:
    """A service's message as a sentence on a form: "That name is taken (...)."."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


class SignupForm(UsernameRules, BaseUserCreationForm):
    """Django's two password fields and their checks; the username rules are the service's."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, error_class=Errors, **kwargs)
        self.fields["username"].help_text = USERNAME_RULE[:1].upper() + USERNAME_RULE[1:] + "."


class AdminAddUserForm(UsernameRules, AdminUserCreationForm):
    pass


class AdminUserForm(UsernameRules, UserChangeForm):
    """An admin's rename follows the rules too: a form error, not a 500 from the database's index."""


class LoginForm(AuthenticationForm):
    """Django's log-in form; its error says what may be wrong, and how many more failures lock log-ins."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "Wrong username or password. Check your password: usernames are not case-sensitive, passwords are.",
    }

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, error_class=Errors, **kwargs)

    def get_invalid_login_error(self):
        error = super().get_invalid_login_error()
        left = settings.AXES_FAILURE_LIMIT - self.failures()
        if 0 < left <= 2:
            minutes = round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
            tries = "1 more failed try locks" if left == 1 else f"{left} more failed tries lock"
            error = forms.ValidationError(f"{error.message} {tries} log-ins for {minutes} minutes.",
                                          code=error.code)
        return error

    def failures(self) -> int:
        """Failed log-ins so far for this name or from this address (django-axes counts them, this one
        included), whichever is more."""
        if self.request is None:
            return 0
        return AxesProxyHandler.get_failures(self.request, {"username": self.cleaned_data.get("username")})
