from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from roboracer.accounts import selectors, signup_throttle
from roboracer.accounts.backends import BACKEND
from roboracer.accounts.forms import Errors, SignupForm, sentence
from roboracer.accounts.models import NAMED_PALETTE, PALETTE
from roboracer.accounts.services import (
    TOKEN_EXPIRY_DAYS,
    TOKEN_NAME_CHARS,
    TOKEN_SCOPES,
    create_token,
    profile_data,
    revoke_token,
    sign_up,
    update_profile,
)
from roboracer.accounts.tokens import SCOPES
from roboracer.common.errors import GameError


def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and (wait := signup_throttle.wait_seconds(request)):
        # The form again, with the name typed (never the password), to send once the wait is over.
        form = SignupForm(initial={"username": request.POST.get("username", "")[:150]})
        response = render(request, "registration/signup.html",
                          {"form": form, "refused": signup_throttle.message(wait)}, status=429)
        response["Retry-After"] = str(wait)
        return response
    if request.method == "POST" and form.is_valid():
        try:
            user = sign_up(username=form.cleaned_data["username"], password=form.cleaned_data["password1"])
        except GameError as error:  # a race lost to another sign-up with the same name
            form.add_error("username", error.message.removeprefix("username: "))
        else:
            login(request, user, backend=BACKEND)
            return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


def swatch(colour: str, name: str) -> str:
    return format_html('<span class="swatch" style="background: {}" aria-hidden="true"></span> {}', colour, name)


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=40, required=False, help_text="what opponents see; your username if empty")
    color = forms.ChoiceField(
        choices=[("", "no preference")] + [(c, swatch(c, name)) for c, name in NAMED_PALETTE], required=False,
        label="Preferred robot colour", help_text="used when it is free in a game",
        widget=forms.RadioSelect(attrs={"class": "colour-choices"}),
    )
    email = forms.EmailField(required=False, label="E-mail address")
    e_mail_turns = forms.BooleanField(
        required=False, label="E-mail me when it is my move in a slow game (an hour or more a move)",
        help_text="needs the e-mail address above",
    )
    e_mail_notices = forms.BooleanField(
        required=False, label="E-mail me my notices (invitations, tournament games ready, Pyramid challenges)",
        help_text="needs the e-mail address above; the bell shows them either way",
    )
    vacation_from = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Vacation from")
    vacation_until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}), label="Vacation until")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, error_class=Errors, **kwargs)

    def clean(self):
        data = super().clean()
        if data.get("e_mail_turns") and not data.get("email") and "email" not in self.errors:
            self.add_error("e_mail_turns", "Give an e-mail address above for these e-mails, or untick the box.")
        if data.get("e_mail_notices") and not data.get("email") and "email" not in self.errors:
            self.add_error("e_mail_notices", "Give an e-mail address above for these e-mails, or untick the box.")
        return data


def profile_form(request, data=None) -> ProfileForm:
    """The profile form with the account's values, for the profile page and the token forms' answers."""
    current = profile_data(user=request.user)
    # The "your move" e-mails need an address: without one the box shows unticked (nothing would be sent).
    initial = {**current, "e_mail_turns": current["e_mail_turns"] and bool(current["email"]),
               "e_mail_notices": current["e_mail_notices"] and bool(current["email"])}
    return ProfileForm(data, initial=initial)


@login_required
def profile(request):
    """Display name, preferred colour, e-mail and vacation dates (shown to opponents next to the player)."""
    form = profile_form(request, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            update_profile(user=request.user, **form.cleaned_data)
        except GameError as error:  # "display_name: that name is taken ..." is the display name's field error
            field, _, text = error.message.partition(": ")
            if field in form.fields and field not in ("e_mail_turns", "e_mail_notices"):
                form.add_error(field, sentence(text))
            else:
                form.add_error(None, error.message)
        else:
            messages.success(request, "Profile saved.")
            return redirect("profile")
    return _profile_page(request, form)


def _profile_page(request, form, *, token_form=None, new_token=None, status=200):
    response = render(request, "registration/profile.html", {
        "form": form, "palette": PALETTE, "token_form": token_form or TokenForm(),
        "tokens": selectors.api_tokens(user=request.user), "new_token": new_token,
        "is_bot": selectors.is_bot(user=request.user)}, status=status)
    if new_token:
        response["Cache-Control"] = "no-store"  # the token's text is on this page once, and in no cache
    return response


EXPIRY_CHOICES = [(str(days), f"{days} days" if days else "never") for days in TOKEN_EXPIRY_DAYS]


class TokenForm(forms.Form):
    name = forms.CharField(max_length=TOKEN_NAME_CHARS, label="Token name", help_text="what the token is for, e.g. my bot")
    scopes = forms.MultipleChoiceField(choices=[(scope, f"{scope}: {SCOPES[scope]}") for scope in TOKEN_SCOPES],
                                       widget=forms.CheckboxSelectMultiple, initial=list(TOKEN_SCOPES))
    expiry_days = forms.TypedChoiceField(choices=EXPIRY_CHOICES, coerce=int, initial="90", label="Expires after")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, error_class=Errors, prefix="token", **kwargs)


@login_required
@require_POST
def tokens(request):
    """The profile page's token forms: make one (its text shown on this answer, once) or revoke one."""
    form = profile_form(request)
    if "revoke" in request.POST:
        try:
            revoke_token(user=request.user, handle=request.POST["revoke"][:32])
        except GameError as error:
            messages.error(request, sentence(error.message))
        else:
            messages.success(request, "Token revoked: it no longer works anywhere.")
        return redirect("profile")
    token_form = TokenForm(request.POST)
    if not token_form.is_valid():
        return _profile_page(request, form, token_form=token_form, status=400)
    try:
        token, text = create_token(user=request.user, **token_form.cleaned_data)
    except GameError as error:
        token_form.add_error(None, sentence(error.message))
        return _profile_page(request, form, token_form=token_form, status=400)
    return _profile_page(request, form, new_token={"name": token.name, "text": text})
