"""Lookalike names are refused (issue 33 item 14): a name whose Unicode TR39 confusable skeleton meets another
player's username or display name is taken, as an equal name is (409 in the API, a field error on the form);
course names may not look like a bundled course's; check_names reports stored lookalikes and renames nothing."""

import copy

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

import engine
from roboracer.accounts.models import Profile
from roboracer.courses.models import Course

PASSWORD = "a long passphrase"
CYRILLIC_A_LICE = "\u0430lice"  # Cyrillic а, then Latin "lice"
CYRILLIC_POP = "\u0440\u043e\u0440"  # р о р: every letter Cyrillic, no mixed script at all


def api_sign_up(username):
    client = APIClient()
    response = client.post("/api/auth/signup/", {"username": username, "password": PASSWORD}, format="json")
    return response.status_code, response.json().get("detail", "")


def profile_patch(user, **changes):
    client = APIClient()
    client.force_authenticate(user)
    return client.patch("/api/profile/", changes, format="json")


def test_a_username_like_another_username_in_cyrillic_is_taken(make_user):
    make_user("alice")
    bob = make_user("bob")
    # Usernames are ASCII; display names may use any script, and a lookalike of a username is taken.
    for name in (CYRILLIC_A_LICE, "\u0410LICE"):
        response = profile_patch(bob, display_name=name)
        assert response.status_code == 409 and "taken" in response.json()["detail"], (name, response.json())
    make_user("pop")
    response = profile_patch(bob, display_name=CYRILLIC_POP)
    assert response.status_code == 409 and "looks like" in response.json()["detail"]
    assert not Profile.objects.filter(user=bob).exclude(display_name="").exists()


def test_a_username_like_another_players_display_name_is_taken(make_user):
    carol = make_user("carol")
    assert profile_patch(carol, display_name=CYRILLIC_POP).status_code == 200
    status, detail = api_sign_up("pop")
    assert status == 409 and "taken" in detail
    form = Client().post("/accounts/signup/", {"username": "POP", "password1": PASSWORD, "password2": PASSWORD})
    assert form.status_code == 200 and "taken" in " ".join(form.context["form"].errors["username"])
    assert not User.objects.filter(username__iexact="pop").exists()


def test_a_display_name_like_another_display_name_is_taken(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    assert profile_patch(alice, display_name="Speedy Racer").status_code == 200
    lookalike = "Sp\u0435\u0435dy R\u0430c\u0435r"  # Cyrillic е and а
    response = profile_patch(bob, display_name=lookalike)
    assert response.status_code == 409 and "display_name" in response.json()["detail"]
    page = Client()
    page.force_login(bob)
    form = page.post("/profile/", {"display_name": lookalike})
    assert form.status_code == 200 and "taken" in " ".join(form.context["form"].errors["display_name"])
    assert Profile.objects.get(user=alice).display_name == "Speedy Racer"
    assert not Profile.objects.filter(user=bob).exclude(display_name="").exists()
    assert profile_patch(bob, display_name="Speedy Racer Two").status_code == 200  # a different name is fine


def test_the_owner_may_keep_and_restyle_their_own_name(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    assert profile_patch(bob, display_name="\u0410lice").status_code == 409  # another's: taken
    assert profile_patch(alice, display_name=CYRILLIC_A_LICE).status_code == 200  # their own username's lookalike
    assert profile_patch(alice, display_name=CYRILLIC_A_LICE).status_code == 200  # saving it again
    assert profile_patch(alice, display_name="\u0410lice").status_code == 200
    assert Profile.objects.get(user=alice).display_name == "\u0410lice"


def course_json(name):
    data = copy.deepcopy(engine.bundled_course_data("tiny-yard"))
    data["name"] = name
    return data


def test_a_course_may_not_take_a_bundled_courses_name_in_lookalike_letters(make_user):
    author = APIClient()
    author.force_authenticate(make_user("ada"))
    for name in ("T\u0456ny Y\u0430rd", "GEAR D\u041eME"):  # Cyrillic і, а; Cyrillic О in capitals
        response = author.post("/api/courses/", {"data": course_json(name)}, format="json")
        assert response.status_code == 409 and "course of the site" in response.json()["detail"], response.json()
    assert not Course.objects.filter(author__username="ada").exists()
    made = author.post("/api/courses/", {"data": course_json("Little Loop")}, format="json")
    assert made.status_code == 201
    slug = made.json()["slug"]
    renamed = author.put(f"/api/courses/{slug}/", {"data": course_json("B\u043elt Bay")}, format="json")
    assert renamed.status_code == 409
    assert Course.objects.get(slug=slug).name == "Little Loop"


def test_staff_may_edit_a_bundled_course_under_its_own_name(make_user, courses):
    staff = APIClient()
    staff.force_authenticate(make_user("root", is_staff=True, is_superuser=True))
    response = staff.put("/api/courses/tiny-yard/", {"data": course_json("Tiny Yard")}, format="json")
    assert response.status_code == 201 and response.json()["name"] == "Tiny Yard"  # its new version
    author = APIClient()
    author.force_authenticate(make_user("ada"))
    copied = author.post("/api/courses/", {"data": course_json("Tiny Yard")}, format="json")
    assert copied.status_code == 409  # the same name is no one else's


def test_check_names_reports_lookalikes_and_renames_none(make_user, capsys):
    alice, mallory = make_user("alice"), make_user("mallory")
    Profile.objects.create(user=mallory, display_name="\u0430l\u0456ce")  # stored before this rule: а, і Cyrillic
    with pytest.raises(SystemExit) as exit_:
        call_command("check_names")
    assert exit_.value.code == 1
    out = capsys.readouterr().out
    assert f"looks alike (not renamed): user {alice.pk} username 'alice' ~ user {mallory.pk} display_name" in out
    with pytest.raises(SystemExit):
        call_command("check_names", "--fix")
    assert Profile.objects.get(user=mallory).display_name == "\u0430l\u0456ce"
    assert User.objects.get(pk=alice.pk).username == "alice"
