"""Tournaments on the real stack: round advancement exactly once when the last two games of a round finish
together (PostgreSQL, a real Celery worker), and a 64-player heats tournament played through by API clients."""

import random
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Game
from games.services import lobby
from roboracer.tournaments import selectors
from roboracer.tournaments.models import Action, Round, Table, TableSeat, Tournament
from roboracer.tournaments.services import common, creation, organising, registration, rounds, sweeping
from tests.helpers import wait_until
from tests.integration.client import Player
from tests.integration.conftest import needs_postgres
from tests.integration.test_concurrency import together

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@needs_postgres()
def test_the_last_two_games_finishing_together_advance_the_round_once(live_stack, courses, make_user):
    olga = make_user("olga")
    common.grant_organiser(user=olga)
    now = timezone.now()
    tournament = creation.create_tournament(
        organiser=olga, name="Photo finish", courses=[courses["tiny-yard"]], table_size=2, lives=1,
        registration_opens=now - timedelta(hours=1), registration_closes=now + timedelta(hours=1))
    field = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    for user in field:
        registration.register(user=user, tournament_id=tournament.pk)
    organising.start_now(user=olga, tournament_id=tournament.pk)
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    assert len(tables) == 2
    resigning = [TableSeat.objects.filter(table=t, seat=2).select_related("entry__user").get().entry.user
                 for t in tables]

    def work(i):
        if i < 2:  # the two last games finish at once: each second seat resigns, in its own transaction
            return lobby.leave_game(user=resigning[i], game_id=tables[i].game_id)
        return rounds.advance(tournament_id=tournament.pk)  # and advances race them, as the sweep would

    results = together(6, work)
    assert not [r for r in results[:2] if isinstance(r, Exception)], results
    assert all(Game.objects.get(pk=t.game_id).status == Game.Status.FINISHED for t in tables)
    # The worker runs the advance tasks both finishing transactions scheduled after their commits.
    wait_until(lambda: Round.objects.filter(tournament=tournament, number=2).exists(), "round 2", timeout=30)
    live_stack.caught_up()  # every advance task has run: a second (wrong) round would be there now
    sweeping.sweep()
    assert Round.objects.filter(tournament=tournament).count() == 2
    final = Round.objects.get(tournament=tournament, number=2)
    assert final.tables.count() == 1 and Game.objects.count() == 3
    assert Action.objects.filter(tournament=tournament, kind="round").count() == 2
    assert Round.objects.get(tournament=tournament, number=1).status == "finished"
    winners = {t.seats.get(place=1).entry.user_id for t in tables}
    assert {ts.entry.user_id for ts in final.tables.get().seats.all()} == winners


def strategy(hand: list[str], rng: random.Random) -> list[str]:
    """Back off the north edge (the starts face south on row 0): B first, or turn round and drive."""
    hand = list(hand)
    program = []
    moves = [c for c in "321" if c in hand]
    if "B" in hand:
        program.append("B")
    elif "U" in hand and moves:
        program += ["U", moves[0]]
    elif hand.count("L") >= 2 and moves:
        program += ["L", "L", moves[0]]
    elif hand.count("R") >= 2 and moves:
        program += ["R", "R", moves[0]]
    for chip in program:
        hand.remove(chip)
    rng.shuffle(hand)
    return program + hand[:5 - len(program)]


def play_turn(player: Player, game_id: int, rng: random.Random) -> bool:
    """Submit a legal program for the player's seat if the game waits for one; True if one was sent."""
    snapshot = player.get(f"/api/games/{game_id}/")
    me = snapshot.get("me")
    if snapshot["status"] != "programming" or not me or me["program"] is not None or me["ejected"] or not me["hand"]:
        return False
    for attempt in range(20):
        chips = strategy(me["hand"], rng) if attempt == 0 else rng.sample(me["hand"], 5)
        answer = player.post(f"/api/games/{game_id}/program/", {"turn": snapshot["turn"], "chips": chips})
        if answer.status_code == 200:
            return True
        if answer.status_code != 400:
            return False  # the turn moved on, or the game ended meanwhile
    raise AssertionError(f"no legal program found for {player.username} in game {game_id}")


def test_a_64_player_heats_tournament_played_through_by_api_clients(live_stack, courses):
    from django.conf import settings

    base = live_stack.base_url
    # Four clients at a time on PostgreSQL; one at a time on SQLite, which serialises every writer anyway.
    parallel = 4 if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" else 1
    organiser = Player(base, "organiser")
    common.grant_organiser(user=get_user_model().objects.get(username="organiser"))
    now = timezone.now()
    created = organiser.post("/api/tournaments/", {
        "name": "Sixty-four", "courses": ["cogwheel-crossing"], "table_size": 8, "advance": 1, "lives": 1,
        "move_time": 15, "game_time": 120, "timeout_policy": "eject", "min_players": 64,
        "registration_opens": (now - timedelta(minutes=1)).isoformat(),
        "registration_closes": (now + timedelta(hours=1)).isoformat()})
    assert created.status_code == 201, created.text
    tournament_id = created.json()["id"]
    with ThreadPoolExecutor(parallel) as pool:
        players = list(pool.map(lambda i: Player(base, f"racer{i:02d}"), range(64)))
        answers = list(pool.map(lambda p: p.post(f"/api/tournaments/{tournament_id}/register/"), players))
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers if a.status_code != 200][:3]
    started = organiser.post(f"/api/tournaments/{tournament_id}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running", started.text
    by_name = {p.username: p for p in players}
    rng = random.Random(18)

    def finished_or_play() -> bool:
        """True once the tournament is over; else every seat that waits for a program gets one."""
        detail = organiser.get(f"/api/tournaments/{tournament_id}/")
        if detail["status"] == "finished":
            return True
        todo = [(by_name[seat["username"]], table["game"]) for table in detail["rounds"][0]["tables"]
                if table["game_status"] == "programming" for seat in table["players"]]
        with ThreadPoolExecutor(parallel) as pool:
            list(pool.map(lambda job: play_turn(job[0], job[1], rng), todo))
        return False

    wait_until(finished_or_play, "the tournament to be played to its end", timeout=300, interval=0.3)
    tournament = Tournament.objects.get(pk=tournament_id)
    assert tournament.status == "finished", f"not finished: {tournament.status}"
    # 64 at 8 tables, the winners at one final table: two rounds, nine tables and games, each made once.
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2]
    assert Table.objects.filter(round__tournament=tournament).count() == 9 == Game.objects.count()
    assert Action.objects.filter(tournament=tournament, kind="round").count() == 2
    final = Table.objects.get(round__tournament=tournament, round__number=2)
    round_one_winners = set(TableSeat.objects.filter(table__round__number=1, table__round__tournament=tournament,
                                                     place=1).values_list("entry__user__username", flat=True))
    finalists = {ts.entry.user.username: ts.place for ts in final.seats.select_related("entry__user")}
    assert set(finalists) == round_one_winners and sorted(finalists.values()) == list(range(1, 9))
    rows = organiser.get(f"/api/tournaments/{tournament_id}/standings/?format=json")["standings"]
    assert len(rows) == 64 and rows == selectors.standings(tournament=tournament)
    assert [(r["username"], r["place"]) for r in rows[:8]] == sorted(finalists.items(), key=lambda kv: kv[1])
    assert all(r["round_reached"] == 1 and r["status"] == "out in round 1" for r in rows[8:])
    # Those out in round 1 are ranked by their place at their table: the 8 seconds share 9th, and so on.
    assert [r["place"] for r in rows[8:]] == [9 + 8 * (i // 8) for i in range(56)]
