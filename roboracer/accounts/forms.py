"""Account forms: the sign-up page's and the admin's, all with the name rules of the service."""

from django import forms
from django.contrib.auth.forms import AdminUserCreationForm, BaseUserCreationForm, UserChangeForm

from games.errors import GameError
from roboracer.accounts.names import USERNAME_RULE
from roboracer.accounts.services import checked_username


class UsernameRules:
    """clean_username by the service (roboracer/accounts/names.py): the rule, or "taken" ignoring case."""

    def clean_username(self):
        try:
            return checked_username(username=self.cleaned_data["username"], user_id=self.instance.pk)
        except GameError as error:
            raise forms.ValidationError(error.message.removeprefix("username: ")) from None


class SignupForm(UsernameRules, BaseUserCreationForm):
    """Django's two password fields and their checks; the username rules are the service's."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = USERNAME_RULE[:1].upper() + USERNAME_RULE[1:] + "."


class AdminAddUserForm(UsernameRules, AdminUserCreationForm):
    pass


class AdminUserForm(UsernameRules, UserChangeForm):
    """An admin's rename follows the rules too: a form error, not a 500 from the database's index."""
