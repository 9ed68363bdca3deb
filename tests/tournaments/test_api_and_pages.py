"""The tournaments API and pages: permissions, hostile input, standings as CSV and JSON."""

import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from roboracer.tournaments.models import Entry, Tournament
from tests.helpers import client_for
from tests.tournaments.factories import (
    current_tables,
    finish_table,
    open_tournament,
    organiser,
    started,
    users_at,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga(make_user):
    return organiser(make_user)


def body(now=None, **extra):
    now = now or timezone.now()
    return {"name": "Autumn Open", "courses": ["cogwheel-crossing"], "table_size": 4,
            "registration_opens": (now - timedelta(hours=1)).isoformat(),
            "registration_closes": (now + timedelta(hours=1)).isoformat(), **extra}


def test_an_organiser_creates_a_tournament_over_the_api(olga, courses):
    answer = client_for(olga).post("/api/tournaments/", body(format="league", points=[4, 2, 1, 0]), format="json")
    assert answer.status_code == 201, answer.content
    data = answer.json()
    assert data["format"] == "league" and data["points"] == [4, 2, 1, 0] and data["organising"]
    assert data["move_time"] == 3 * 86400 and data["courses"] == ["cogwheel-crossing"]


@pytest.mark.parametrize("payload", [
    {"courses": ["no-such-course"]}, {"table_size": "eight"}, {"table_size": 99}, {"name": ""},
    {"courses": "cogwheel-crossing"}, {"points": [[[[1]]]]}, {"name": "\x00" * 5}, {"format": {"a": 1}},
    {"modules": ["☃"]}, {"advance": 4},
])
def test_hostile_or_wrong_input_is_a_4xx_and_creates_nothing(olga, courses, payload):
    answer = client_for(olga).post("/api/tournaments/", body(**payload), format="json")
    assert answer.status_code == 400, answer.content
    assert "detail" in answer.json() and not Tournament.objects.exists()


def test_a_non_organiser_may_not_create(make_user, courses):
    answer = client_for(make_user("mallory")).post("/api/tournaments/", body(), format="json")
    assert answer.status_code == 403 and not Tournament.objects.exists()


def test_strangers_get_the_404_of_a_missing_tournament_for_organiser_actions(olga, courses, make_user):
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]]),
                         [make_user("a"), make_user("b")])
    mallory = client_for(make_user("mallory"))
    entry = Entry.objects.filter(tournament=tournament).first()
    for path in ("pause", "end", "resume", "start", f"entries/{entry.pk}/disqualify"):
        mine = mallory.post(f"/api/tournaments/{tournament.pk}/{path}/", {}, format="json")
        missing = mallory.post(f"/api/tournaments/999999/{path}/", {}, format="json")
        assert mine.status_code == missing.status_code == 404
        assert mine.json()["detail"].replace(str(tournament.pk), "N") == missing.json()["detail"].replace("999999", "N")
    answer = mallory.post(f"/api/tournaments/{tournament.pk}/extend/", {"seconds": 3600}, format="json")
    assert answer.status_code == 404
    tournament.refresh_from_db()
    assert tournament.status == "running"


def test_anonymous_visitors_are_refused_by_the_api(olga, courses):
    tournament = open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]])
    assert APIClient().get(f"/api/tournaments/{tournament.pk}/").status_code == 403


def test_register_withdraw_and_organiser_actions_over_the_api(olga, courses, make_user):
    tournament = open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]])
    ann, ben = make_user("ann"), make_user("ben")
    for user in (ann, ben):
        assert client_for(user).post(f"/api/tournaments/{tournament.pk}/register/").json()["registered"]
    assert client_for(ann).post(f"/api/tournaments/{tournament.pk}/register/").status_code == 409
    organiser_client = client_for(olga)
    answer = organiser_client.post(f"/api/tournaments/{tournament.pk}/start/")
    assert answer.status_code == 200 and answer.json()["status"] == "running"
    assert len(answer.json()["rounds"][0]["tables"]) == 1
    assert organiser_client.post(f"/api/tournaments/{tournament.pk}/extend/", {"seconds": "x"},
                                 format="json").status_code == 400
    assert organiser_client.post(f"/api/tournaments/{tournament.pk}/extend/", {"seconds": 7200},
                                 format="json").status_code == 200
    assert organiser_client.post(f"/api/tournaments/{tournament.pk}/pause/").json()["status"] == "paused"
    assert organiser_client.post(f"/api/tournaments/{tournament.pk}/pause/").status_code == 409
    assert organiser_client.post(f"/api/tournaments/{tournament.pk}/resume/").json()["status"] == "running"
    entry = Entry.objects.get(tournament=tournament, user=ben)
    answer = organiser_client.post(f"/api/tournaments/{tournament.pk}/entries/{entry.pk}/disqualify/",
                                   {"reason": "=cmd|' /C calc'!A0"}, format="json")
    assert answer.status_code == 200
    assert [row["status"] for row in answer.json()["standings"]] == ["in", "disqualified"]
    log = [line["kind"] for line in answer.json()["log"]]
    assert {"registered", "closed", "started", "extended", "paused", "resumed", "disqualified"} <= set(log)


def test_standings_as_json_and_csv(olga, courses, make_user):
    field = [make_user(name) for name in ("ann", "ben", "=evil", "dan")]
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=4),
                         field)
    (table,) = current_tables(tournament)
    order = users_at(table)
    finish_table(table, order)
    client = client_for(field[0])
    as_json = client.get(f"/api/tournaments/{tournament.pk}/standings/?format=json")
    assert as_json.status_code == 200 and as_json["Content-Type"].startswith("application/json")
    rows = as_json.json()["standings"]
    assert [r["username"] for r in rows] == [u.username for u in order]
    as_csv = client.get(f"/api/tournaments/{tournament.pk}/standings/?format=csv")
    assert as_csv.status_code == 200 and as_csv["Content-Type"].startswith("text/csv")
    assert "attachment" in as_csv["Content-Disposition"]
    table_rows = list(csv.DictReader(io.StringIO(as_csv.content.decode())))
    assert [r["place"] for r in table_rows] == [str(r["place"]) for r in rows]
    names = [r["username"] for r in table_rows]
    assert "'=evil" in names and "=evil" not in names  # no spreadsheet formula
    missing = client.get("/api/tournaments/999999/standings/?format=csv")
    assert missing.status_code == 404 and b"does not exist" in missing.content


def test_the_pages_render_for_players_and_the_organiser(olga, courses, make_user, client):
    tournament = open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]])
    ann = make_user("ann")
    client.force_login(ann)
    page = client.get("/tournaments/").content.decode()
    assert tournament.name in page and "Create a tournament" not in page
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="register"' in page and "Heats" in page
    client.post(f"/tournaments/{tournament.pk}/register/")
    assert Entry.objects.filter(tournament=tournament, user=ann).exists()
    assert client.get(f"/tournaments/{tournament.pk}/organise/").status_code == 404
    assert client.get("/tournaments/new/").status_code == 403
    assert tournament.name in client.get("/tournaments/mine/").content.decode()
    assert client.get("/tournaments/424242/").status_code == 404
    client.force_login(olga)
    assert client.get("/tournaments/new/").status_code == 200
    page = client.get(f"/tournaments/{tournament.pk}/organise/").content.decode()
    assert 'id="start-now"' in page
    client.post(f"/tournaments/{tournament.pk}/organise/", {"action": "nonsense"})
    client.post(f"/tournaments/{tournament.pk}/organise/", {"action": "end"})  # not confirmed: nothing happens
    client.post(f"/tournaments/{tournament.pk}/organise/", {"action": "extend", "hours": "NaN"})
    tournament.refresh_from_db()
    assert tournament.status == "registration"


def test_the_create_form_makes_a_tournament(olga, courses, client):
    client.force_login(olga)
    now = timezone.localtime()
    answer = client.post("/tournaments/new/", {
        "name": "Form Cup", "description": "", "courses": [courses["cogwheel-crossing"].pk], "format": "league",
        "table_size": 4, "advance": 1, "seeding": "random", "league_rounds": 2, "points": "5, 3, 1, 0", "lives": 2,
        "move_minutes": 60, "game_minutes": 600, "timeout_policy": "eject",
        "registration_opens": now.strftime("%Y-%m-%dT%H:%M"),
        "registration_closes": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"), "min_players": 2,
    })
    tournament = Tournament.objects.get(name="Form Cup")
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{tournament.pk}/organise/"
    assert (tournament.points, tournament.move_time, tournament.lives) == ([5, 3, 1, 0], 3600, 2)


def test_the_organiser_page_ends_a_tournament_once_confirmed(olga, courses, client):
    tournament = open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]])
    client.force_login(olga)
    client.post(f"/tournaments/{tournament.pk}/organise/", {"action": "end", "confirm": "yes"})
    tournament.refresh_from_db()
    assert tournament.status == "cancelled"


def test_an_entry_of_another_tournament_is_not_found_and_changes_nothing(olga, courses, make_user):
    pool = [courses["cogwheel-crossing"]]
    mine = started(open_tournament(organiser=olga, courses=pool), [make_user("a"), make_user("b")])
    other_organiser = organiser(make_user, "otto")
    theirs = started(open_tournament(organiser=other_organiser, courses=pool), [make_user("c"), make_user("d")])
    foreign = Entry.objects.filter(tournament=theirs).first()
    client = client_for(olga)
    for path, payload in (("disqualify", {}), ("replace", {"username": "a"})):
        answer = client.post(f"/api/tournaments/{mine.pk}/entries/{foreign.pk}/{path}/", payload, format="json")
        assert answer.status_code == 404, answer.content
    answer = client.post(f"/api/tournaments/{theirs.pk}/entries/{foreign.pk}/disqualify/", {}, format="json")
    assert answer.status_code == 404
    foreign.refresh_from_db()
    assert foreign.disqualified_at is None and foreign.replaced_by is None


@pytest.mark.parametrize(("timers", "expected"), [("blitz", (60, 300)), ("realtime", (120, 600)),
                                                  ("tournament", (3 * 86400, 15 * 86400)), ("custom", (3600, 36000))])
def test_the_create_form_offers_short_timer_presets(olga, courses, client, timers, expected):
    """Organisers' issue: tournaments had no short timer preset. The form's Timers choice sets both times; "My own"
    takes the minutes fields, and refuses to go without them."""
    client.force_login(olga)
    now = timezone.localtime()
    form = {
        "name": f"Preset {timers}", "description": "", "courses": [courses["cogwheel-crossing"].pk],
        "format": "heats", "table_size": 4, "advance": 1, "seeding": "random", "league_rounds": 2, "lives": 2,
        "timers": timers, "move_minutes": 60, "game_minutes": 600, "timeout_policy": "eject",
        "registration_opens": now.strftime("%Y-%m-%dT%H:%M"),
        "registration_closes": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"), "min_players": 2,
    }
    assert "Blitz: 1 min a move, 5 min game time" in client.get("/tournaments/new/").content.decode()
    answer = client.post("/tournaments/new/", form)
    assert answer.status_code == 302, answer.content.decode()[:500]
    tournament = Tournament.objects.get(name=f"Preset {timers}")
    assert (tournament.move_time, tournament.game_time) == expected
    if timers == "custom":
        bare = {**form, "name": "No times", "move_minutes": "", "game_minutes": ""}
        refused = client.post("/tournaments/new/", bare)
        assert refused.status_code == 200 and "Give your own times" in refused.content.decode()
        assert not Tournament.objects.filter(name="No times").exists()


def test_the_organiser_extends_by_minutes_and_a_finished_tournament_has_no_actions_card(olga, courses, client,
                                                                                         make_user):
    from roboracer.tournaments.models import Action
    from tests.tournaments.factories import started

    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=2),
                         [make_user(name) for name in ("ann", "ben")])
    client.force_login(olga)
    page = client.get(f"/tournaments/{tournament.pk}/organise/").content.decode()
    assert 'name="minutes"' in page and 'id="act-heading"' in page
    for bad in ("3.5", "NaN", "²", "0", ""):
        client.post(f"/tournaments/{tournament.pk}/organise/", {"action": "extend", "minutes": bad})
    assert not Action.objects.filter(tournament=tournament, kind="extended").exists()
    client.post(f"/tournaments/{tournament.pk}/organise/", {"action": "extend", "minutes": "30"})
    (extended,) = Action.objects.filter(tournament=tournament, kind="extended")
    assert "added 30 min" in extended.text, extended.text
    client.post(f"/tournaments/{tournament.pk}/organise/", {"action": "end", "confirm": "yes"})
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    page = client.get(f"/tournaments/{tournament.pk}/organise/").content.decode()
    assert 'id="act-heading"' not in page  # nothing to act on: no empty Actions card


def test_the_organiser_adds_a_player_before_the_start_and_withdraws_one_without_disqualifying(olga, courses, client,
                                                                                               make_user):
    from games.models import Notice
    from roboracer.tournaments.models import Entry
    from tests.tournaments.factories import started

    tournament = open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=2)
    ann, cat = make_user("ann"), make_user("cat")
    make_user("ben")
    client.force_login(olga)
    organise = f"/tournaments/{tournament.pk}/organise/"
    assert 'id="add-player"' in client.get(organise).content.decode()
    for name in ("ann", "Ben", " cat "):  # any case, spaces around (the walkthrough's "Bob" was refused)
        client.post(organise, {"action": "add", "username": name})
    for bad in ("nobody", "\x00", "ann", "computer-normal-1", ""):  # unknown, NUL, already in, a computer, empty
        answer = client.post(organise, {"action": "add", "username": bad}, follow=True)
        # Said on the organiser's page, never the Not found page of a missing tournament.
        assert answer.status_code == 200 and "Organise:" in answer.content.decode(), bad
    assert "there is no player named &#x27;nobody&#x27;" in client.post(
        organise, {"action": "add", "username": "nobody"}, follow=True).content.decode()
    assert sorted(Entry.objects.filter(tournament=tournament).values_list("user__username", flat=True)) == [
        "ann", "ben", "cat"]
    assert Notice.objects.filter(user=ann, kind="tournament_status", text__contains="registered you").exists()
    cat_entry = Entry.objects.get(tournament=tournament, user=cat)
    client.post(organise, {"action": "withdraw", "entry": str(cat_entry.pk)})  # before the start: removed
    cat_entry.refresh_from_db()
    assert cat_entry.withdrawn_at is not None and cat_entry.disqualified_at is None
    tournament = started(tournament, [])
    ann_entry = Entry.objects.get(tournament=tournament, user=ann)
    client.post(organise, {"action": "withdraw", "entry": str(ann_entry.pk)})  # running: leaves, not disqualified
    ann_entry.refresh_from_db()
    assert ann_entry.withdrawn_at is not None and ann_entry.disqualified_at is None
    assert client.post(organise, {"action": "add", "username": "cat"}).status_code == 302
    assert not Entry.objects.filter(tournament=tournament, user=cat, withdrawn_at__isnull=True).exists()
    assert "ben" in client.get(organise).content.decode()


def test_the_organiser_edits_a_tournament_before_its_start_and_not_after(olga, courses, client, make_user):
    from tests.tournaments.factories import started

    tournament = open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=2)
    client.force_login(olga)
    page = client.get(f"/tournaments/{tournament.pk}/edit/").content.decode()
    assert 'value="Spring Cup"' in page and "Save the tournament" in page
    now = timezone.localtime()
    form = {
        "name": "Autumn Cup", "description": "New words", "courses": [courses["tiny-yard"].pk], "format": "league",
        "table_size": 3, "advance": 1, "seeding": "rating", "league_rounds": 4, "points": "5, 2, 0", "lives": 2,
        "timers": "blitz", "timeout_policy": "computer", "min_players": 3,
        "registration_opens": now.strftime("%Y-%m-%dT%H:%M"),
        "registration_closes": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
    }
    bad = client.post(f"/tournaments/{tournament.pk}/edit/", {**form, "registration_closes": form["registration_opens"]})
    assert bad.status_code == 200  # refused with the reason; nothing changed
    tournament.refresh_from_db()
    assert tournament.name == "Spring Cup"
    answer = client.post(f"/tournaments/{tournament.pk}/edit/", form)
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.format, tournament.table_size, tournament.league_rounds, tournament.points,
            tournament.move_time, tournament.timeout_policy, tournament.min_players) == (
        "Autumn Cup", "league", 3, 4, [5, 2, 0], 60, "computer", 3)
    assert list(tournament.courses.values_list("slug", flat=True)) == ["tiny-yard"]
    stranger = make_user("mallory")
    client.force_login(stranger)
    assert client.get(f"/tournaments/{tournament.pk}/edit/").status_code == 404
    assert client.post(f"/tournaments/{tournament.pk}/edit/", {**form, "name": "Mine"}).status_code == 404
    tournament.refresh_from_db()
    assert tournament.name == "Autumn Cup"
    started(tournament, [make_user(n) for n in ("ann", "ben", "cat")])
    client.force_login(olga)
    assert client.post(f"/tournaments/{tournament.pk}/edit/", {**form, "name": "Late"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Autumn Cup"  # started: no more edits
