"""Seeding by hand (issue 38 item 7): before the start the organiser numbers the registered players; round 1
seats them in that order (heats: snake, so the top seeds sit at different tables). Through the service, the
organiser's page and the API; anything else is refused and changes nothing."""

import pytest
from django.utils import timezone

from roboracer.common.errors import Conflict, InvalidInput, NotFound
from roboracer.tournaments.models import Action, Entry, Tournament
from roboracer.tournaments.services import organising, registration, rounds
from tests.tournaments.factories import current_tables, open_tournament, organiser, users_at

pytestmark = pytest.mark.django_db


def registered(make_user, courses, count=4, **options):
    olga = organiser(make_user)
    tournament = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], table_size=2, **options)
    players = [make_user(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay")[:count]]
    for user in players:
        registration.register(user=user, tournament_id=tournament.pk)
    entries = {e.user.username: e.pk for e in Entry.objects.filter(tournament=tournament).select_related("user")}
    return olga, tournament, entries


def start(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(registration_closes=timezone.now())
    assert rounds.close_registration(tournament_id=tournament.pk) == "started"


def test_heats_seat_the_organisers_order_with_the_top_seeds_apart(make_user, courses):
    olga, tournament, entries = registered(make_user, courses)
    order = ["dan", "cat", "ben", "ann"]
    organising.set_seeds(user=olga, tournament_id=tournament.pk, entries=[entries[n] for n in order])
    tournament.refresh_from_db()
    assert tournament.seeding == Tournament.Seeding.HAND
    assert "1. dan, 2. cat, 3. ben, 4. ann" in Action.objects.filter(kind="seeded").get().text
    start(tournament)
    tables = [{u.username for u in users_at(t)} for t in current_tables(tournament)]
    # Snake over two tables of two: seeds 1 and 4 at table 1, 2 and 3 at table 2.
    assert tables == [{"dan", "ann"}, {"cat", "ben"}]


def test_a_league_seats_them_in_order_and_a_late_registration_comes_last(make_user, courses):
    olga, tournament, entries = registered(make_user, courses, count=3, format="league")
    organising.set_seeds(user=olga, tournament_id=tournament.pk, entries=[entries[n] for n in ("cat", "ann", "ben")])
    registration.register(user=make_user("dan"), tournament_id=tournament.pk)  # after the seeds: last
    start(tournament)
    tables = [[u.username for u in users_at(t)] for t in current_tables(tournament)]
    assert [set(t) for t in tables] == [{"cat", "ann"}, {"ben", "dan"}]


@pytest.mark.parametrize("bad", ["missing", "twice", "stranger", "booleans", "not a list", "empty"])
def test_a_wrong_list_is_refused_and_changes_nothing(make_user, courses, bad):
    olga, tournament, entries = registered(make_user, courses)
    ids = list(entries.values())
    other = open_tournament(organiser=olga, courses=[courses["tiny-yard"]], name="Other Cup")
    stranger = registration.register(user=make_user("xavier"), tournament_id=other.pk)  # another tournament's
    lists = {"missing": ids[:3], "twice": ids[:3] + ids[:1], "stranger": ids[:3] + [stranger.pk],
             "booleans": [True, False, True, False], "not a list": "1,2,3,4", "empty": []}
    with pytest.raises(InvalidInput):
        organising.set_seeds(user=olga, tournament_id=tournament.pk, entries=lists[bad])
    assert not Entry.objects.filter(seed__isnull=False).exists()
    assert Tournament.objects.get(pk=tournament.pk).seeding == Tournament.Seeding.RANDOM


def test_only_the_organiser_and_only_before_the_start(make_user, courses):
    olga, tournament, entries = registered(make_user, courses)
    with pytest.raises(NotFound):  # a stranger learns nothing
        organising.set_seeds(user=make_user("mallory"), tournament_id=tournament.pk, entries=list(entries.values()))
    start(tournament)
    with pytest.raises(Conflict):
        organising.set_seeds(user=olga, tournament_id=tournament.pk, entries=list(entries.values()))


def test_the_organisers_page_and_the_api(make_user, courses, client):
    olga, tournament, entries = registered(make_user, courses)
    client.force_login(olga)
    page = client.get(f"/tournaments/{tournament.pk}/organise/").content.decode()
    assert 'id="seeds"' in page and page.count('name="seed-') == 4
    # Numbers 1-4 given as dan 1, cat 2, ben 3, ann 4.
    form = {"action": "seeds", **{f"seed-{entries[n]}": str(i) for i, n in enumerate(("dan", "cat", "ben", "ann"), 1)}}
    client.post(f"/tournaments/{tournament.pk}/organise/", form)
    assert [e.user.username for e in Entry.objects.filter(tournament=tournament).order_by("seed")] == [
        "dan", "cat", "ben", "ann"]
    # Two players with the same number: refused with a message, nothing changed.
    clash = {**form, f"seed-{entries['ann']}": "1"}
    answer = client.post(f"/tournaments/{tournament.pk}/organise/", clash, follow=True)
    assert "give every player a different number" in answer.content.decode()
    assert Entry.objects.get(pk=entries["ann"]).seed == 4

    order = [entries[n] for n in ("ann", "ben", "cat", "dan")]
    assert client.post(f"/api/tournaments/{tournament.pk}/seeds/", {"entries": order},
                       content_type="application/json").status_code == 200
    seeds = client.get(f"/api/tournaments/{tournament.pk}/").json()["seeds"]
    assert [(s["player"], s["seed"]) for s in seeds] == [("ann", 1), ("ben", 2), ("cat", 3), ("dan", 4)]
    for body in ({"entries": "x"}, {"entries": [["nested"]]}, {"entries": order[:2]}, {"entries": ["١"]}):
        answer = client.post(f"/api/tournaments/{tournament.pk}/seeds/", body, content_type="application/json")
        assert answer.status_code == 400, body
    client.force_login(make_user("mallory"))
    assert client.post(f"/api/tournaments/{tournament.pk}/seeds/", {"entries": order},
                       content_type="application/json").status_code == 404
    assert "seeds" not in client.get(f"/api/tournaments/{tournament.pk}/").json()
