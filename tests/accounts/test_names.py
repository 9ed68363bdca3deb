"""Username and display-name rules (roboracer/accounts/names.py): the same through the API and the form,
unique ignoring case in the database too, and the repair of rows stored before the rules."""

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from rest_framework.test import APIClient

from roboracer.accounts.models import Profile
from roboracer.accounts.name_repair import Rename, plan

PASSWORD = "a long passphrase"
BAD_USERNAMES = [
    "a<b", "a>b", "evil\u202egnp", "zero\u200bwidth", "tab\tname", "new\nline", "two words", "x", "a" * 31,
    "-dash", "dot.", "émile", "",
]


def api_sign_up(username, password=PASSWORD):
    client = APIClient(enforce_csrf_checks=True)
    client.get("/api/auth/csrf/")
    response = client.post("/api/auth/signup/", {"username": username, "password": password}, format="json",
                           HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    return response.status_code, response.json().get("detail", "")


def form_sign_up(username, password=PASSWORD):
    response = Client().post("/accounts/signup/", {"username": username, "password1": password,
                                                   "password2": password})
    if response.status_code == 302:
        return 201, ""
    errors = response.context["form"].errors
    return 200, " ".join(errors.get("username", [])) or str(errors)


@pytest.mark.parametrize("sign_up", [api_sign_up, form_sign_up], ids=["api", "form"])
@pytest.mark.parametrize("username", BAD_USERNAMES)
def test_both_sign_up_paths_refuse_the_same_names(db, sign_up, username):
    status, detail = sign_up(username)
    assert status in (200, 400) and status != 201, (status, detail)
    reasons = ("letters a-z", "too short", "too long", "letter or a digit", "required", "blank")
    assert any(reason in detail.lower() for reason in reasons), detail
    assert not User.objects.exists()


@pytest.mark.parametrize("sign_up", [api_sign_up, form_sign_up], ids=["api", "form"])
def test_names_are_unique_ignoring_case(db, sign_up):
    assert sign_up("Zed_1.x")[0] == 201
    status, detail = sign_up("zED_1.X")
    assert status in (200, 409) and "taken" in detail, (status, detail)
    assert User.objects.count() == 1


@pytest.mark.parametrize("sign_up", [api_sign_up, form_sign_up], ids=["api", "form"])
def test_a_username_may_not_be_another_players_display_name(make_user, sign_up):
    Profile.objects.create(user=make_user("alice"), display_name="Robo Rita")
    Profile.objects.filter(user__username="alice").update(display_name="rita")  # key stays as saved
    Profile.objects.get(user__username="alice").save()
    status, detail = sign_up("RITA")
    assert status != 201 and "taken" in detail


def test_the_database_refuses_usernames_equal_ignoring_case(make_user):
    make_user("carol")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="CAROL")


def profile_patch(user, **changes):
    client = APIClient()
    client.force_authenticate(user)
    return client.patch("/api/profile/", changes, format="json")


@pytest.mark.parametrize("name", ["evil\u202eeman", "a<b>", "two  spaces", "nb\u00a0sp", "ctl\x07", "x" * 41,
                                  "line\u2028sep", "priv\ue000"])
def test_display_names_follow_the_character_rules(make_user, name):
    user = make_user("alice")
    response = profile_patch(user, display_name=name)
    assert response.status_code == 400 and "display_name" in response.json()["detail"]
    assert not Profile.objects.filter(user=user).exclude(display_name="").exists()


def test_display_names_allow_any_script_and_are_unique_ignoring_case(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    assert profile_patch(alice, display_name="  Ünïcode Ração 🤖 ").json()["display_name"] == "Ünïcode Ração 🤖"
    taken = profile_patch(bob, display_name="ÜNÏCODE RAÇÃO 🤖")
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]
    assert profile_patch(bob, display_name="ALICE").status_code == 409  # another player's username
    assert profile_patch(alice, display_name="ALICE").status_code == 200  # one's own, in other letters
    assert not Profile.objects.filter(user=bob).exclude(display_name="").exists()
    with pytest.raises(IntegrityError), transaction.atomic():
        Profile.objects.create(user=make_user("carol"), display_name="alice")


def test_the_profile_form_shows_the_rule(make_user):
    client = Client()
    client.force_login(make_user("alice"))
    response = client.post("/profile/", {"display_name": "bad\u202ename"})
    assert response.status_code == 200 and "no control or formatting characters" in response.content.decode()


def test_plan_renames_deterministically():
    users = [(5, "Bob"), (2, "bob"), (3, "ém ile"), (4, "x"), (6, "BOB"), (7, "bob-2"), (8, "<b>")]
    renames = plan(users, {2: "Shown\u202e", 3: "BOB-3", 5: "shown", 6: "  two   words "})
    assert renames == plan(list(reversed(users)), {2: "Shown\u202e", 3: "BOB-3", 5: "shown", 6: "  two   words "})
    assert renames == [
        Rename(3, "username", "ém ile", "em-ile"),
        Rename(4, "username", "x", "player-4"),
        Rename(5, "username", "Bob", "Bob-3"),  # bob-2 belongs to user 7
        Rename(6, "username", "BOB", "BOB-4"),
        Rename(8, "username", "<b>", "player-8"),
        Rename(2, "display_name", "Shown\u202e", "Shown"),
        Rename(3, "display_name", "BOB-3", ""),  # user 5's new username
        Rename(5, "display_name", "shown", ""),  # user 2 shows it
        Rename(6, "display_name", "  two   words ", "two words"),
    ]


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_old_rows_and_reports_them(capsys):
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", "0002_display_name_key")])
    old = executor.loader.project_state([("accounts", "0002_display_name_key")]).apps
    old_user, old_profile = old.get_model("auth", "User"), old.get_model("accounts", "Profile")
    for name in ["dora", "Dora", "evil\u202eeve", "DORA"]:
        old_user.objects.create(username=name)
    ids = dict(old_user.objects.values_list("username", "id"))
    old_profile.objects.create(user_id=ids["dora"], display_name="Speedy")
    old_profile.objects.create(user_id=ids["Dora"], display_name="speedy")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    names = dict(User.objects.values_list("id", "username"))
    assert [names[ids[n]] for n in ["dora", "Dora", "evil\u202eeve", "DORA"]] == ["dora", "Dora-2", "evileve", "DORA-3"]
    assert dict(Profile.objects.values_list("user_id", "display_name")) == {ids["dora"]: "Speedy", ids["Dora"]: ""}
    printed = capsys.readouterr().out
    assert "'Dora' -> 'Dora-2'" in printed and "'speedy' -> ''" in printed
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="EVILEVE")


def test_check_names_reports_and_fixes(make_user, capsys):
    from django.core.management import call_command

    user = make_user("erin")
    Profile.objects.create(user=user)
    Profile.objects.filter(user=user).update(display_name="bad\u202e<name>")  # as stored before the rules
    with pytest.raises(SystemExit):
        call_command("check_names")
    assert "breaks the rules: user" in capsys.readouterr().out
    assert Profile.objects.get(user=user).display_name == "bad\u202e<name>"
    call_command("check_names", "--fix")
    assert Profile.objects.get(user=user).display_name == "badname"
    call_command("check_names")
    assert "all names follow the rules" in capsys.readouterr().out


def test_an_admin_rename_follows_the_rules(make_user):
    admin = make_user("root", is_staff=True, is_superuser=True)
    bob = make_user("bob")
    client = Client()
    client.force_login(admin)
    form = client.get(f"/admin/auth/user/{bob.pk}/change/").context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name not in (
        "password", "groups", "user_permissions", "last_login")}
    data.update({"username": "ROOT", "date_joined_0": "2026-01-01", "date_joined_1": "12:00:00"})
    taken = client.post(f"/admin/auth/user/{bob.pk}/change/", data)
    assert taken.status_code == 200 and "taken" in str(taken.context["adminform"].form.errors)
    data["username"] = "bad<name>"
    assert "letters a-z" in str(client.post(f"/admin/auth/user/{bob.pk}/change/", data).context["adminform"].form.errors)
    data["username"] = "Bobby"
    assert client.post(f"/admin/auth/user/{bob.pk}/change/", data).status_code == 302
    assert User.objects.get(pk=bob.pk).username == "Bobby"
    added = client.post("/admin/auth/user/add/", {"username": "BOBBY", "usable_password": "false"})
    assert added.status_code == 200 and "taken" in str(added.context["adminform"].form.errors)
