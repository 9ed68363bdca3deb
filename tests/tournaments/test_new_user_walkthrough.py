"""What a new user's walkthrough found on the tournament pages (phone and desktop): an invitation to replace a
player that only its tournament's page showed, a finished tournament that named no winner, a player ejected in
the final still "in", a replaced player in "Round 0", a create form that offered puzzle courses and refused
them in a stuttering sentence, and a minimum of players that disagreed with the docs."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import broadcast
from games.models import Game, Seat
from games.services import lobby, rematch
from roboracer.common.errors import Conflict, InvalidInput
from roboracer.tournaments import selectors
from roboracer.tournaments.models import Action, Entry, Tournament
from roboracer.tournaments.services import registration, rounds, substitutions
from tests.helpers import client_for, many_players
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


@pytest.fixture
def seat_up(make_user, courses, olga):
    """A running 3-player table on turn 1 and an invitation for `sub` to replace its first player."""
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=3),
                         many_players(make_user, 3))
    (table,) = current_tables(tournament)
    first = users_at(table)[0]
    entry = Entry.objects.get(tournament=tournament, user=first)
    sub = make_user("sub")
    invitation = substitutions.replace(user=olga, tournament_id=tournament.pk, entry_id=entry.pk, username="sub")
    return {"tournament": tournament, "table": table, "first": first, "entry": entry, "sub": sub,
            "invitation": invitation}


def page(client, user, path):
    client.force_login(user)
    answer = client.get(path)
    assert answer.status_code == 200, path
    return answer.content.decode()


# 1. The invitation is where the substitute looks ----------------------------------------------------------------

def test_my_tournaments_lists_a_pending_invitation_with_the_seats_game_and_clock(seat_up, client):
    html = page(client, seat_up["sub"], "/tournaments/mine/")
    invitation, game = seat_up["invitation"], seat_up["table"].game_id
    section = re.search(r'<section[^>]*id="my-invitations".*?</section>', html, re.S)
    assert section, html
    text = re.sub(r"<[^>]+>", " ", section.group(0))
    text = re.sub(r"\s+", " ", text)
    assert f"replace {seat_up['first'].username}" in text and seat_up["tournament"].name in text
    assert f"game {game} on Cogwheel Crossing, turn 1" in text
    # the seat's move clock: the tournament's 3 days, less the moments the test took
    assert re.search(r"(2 days 23 h|3 days) left to move", text), text
    assert f'action="/tournaments/invitations/{invitation.pk}/"' in section.group(0)
    assert 'value="accept"' in section.group(0) and 'value="decline"' in section.group(0)


def test_the_lobby_and_other_pages_show_a_notice_of_the_invitation(seat_up, client, make_user):
    html = page(client, seat_up["sub"], "/")
    notice = re.search(r'<aside[^>]*id="tournament-invitations".*?</aside>', html, re.S)
    assert notice, html
    assert f"replace {seat_up['first'].username}" in notice.group(0)
    assert seat_up["tournament"].name in notice.group(0) and "/tournaments/mine/#invitation-" in notice.group(0)
    assert 'id="tournament-invitations"' in page(client, seat_up["sub"], "/courses/")
    # nobody else gets it, and the tournament page shows its own card rather than the notice too
    assert 'id="tournament-invitations"' not in page(client, make_user("eve"), "/")
    assert 'id="tournament-invitations"' not in page(client, seat_up["first"], "/")
    tournament_page = page(client, seat_up["sub"], f"/tournaments/{seat_up['tournament'].pk}/")
    assert 'id="tournament-invitations"' not in tournament_page and "You are invited to replace" in tournament_page


def test_inviting_sends_the_invitee_a_notice_on_their_socket(make_user, courses, olga, monkeypatch,
                                                             django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(broadcast, "notify_users", lambda notices: sent.extend(notices))
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=3),
                         many_players(make_user, 3))
    (table,) = current_tables(tournament)
    entry = Entry.objects.get(tournament=tournament, user=users_at(table)[0])
    sub = make_user("sub")
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        invitation = substitutions.replace(user=olga, tournament_id=tournament.pk, entry_id=entry.pk, username="sub")
    assert [user_id for user_id, _ in sent] == [sub.pk]
    notice = sent[0][1]
    assert notice["type"] == "tournament_invitation" and notice["invitation"] == invitation.pk
    assert notice["tournament"] == tournament.pk and notice["tournament_name"] == tournament.name
    assert notice["replacing"] == entry.user.username and notice["game"] == table.game_id
    assert notice["url"] == f"/tournaments/mine/#invitation-{invitation.pk}"
    # Kept for the invitee's bell, naming the tournament, the game and the invitation (games/services/notices.py).
    from games.models import Notice

    (kept,) = Notice.objects.filter(user=sub)
    assert kept.kind == "tournament_invitation" and kept.link == notice["url"] and notice["notice"]["id"] == kept.pk
    assert kept.source == {"tournament": tournament.pk, "game": table.game_id, "invitation": invitation.pk}
    assert tournament.name in kept.text and entry.user.username in kept.text


def test_the_api_rows_say_the_seats_state(seat_up):
    (row,) = client_for(seat_up["sub"]).get("/api/tournaments/invitations/").json()["invitations"]
    seat = Seat.objects.get(game_id=seat_up["table"].game_id, number=1)
    assert row["game"] == seat_up["table"].game_id and row["turn"] == 1 and row["game_status"] == "programming"
    assert row["deadline"] == seat.deadline.isoformat()
    assert 3 * 86400 - 120 < row["move_left"] <= 3 * 86400


def test_accepting_on_the_page_lands_on_the_game(seat_up, client):
    client.force_login(seat_up["sub"])
    answer = client.post(f"/tournaments/invitations/{seat_up['invitation'].pk}/", {"action": "accept"})
    assert answer.status_code == 302 and answer["Location"] == f"/games/{seat_up['table'].game_id}/"
    assert Seat.objects.get(game_id=seat_up["table"].game_id, number=1).user == seat_up["sub"]


def test_accepting_over_the_api_answers_the_game_taken(seat_up):
    answer = client_for(seat_up["sub"]).post(f"/api/tournaments/invitations/{seat_up['invitation'].pk}/accept/")
    assert answer.status_code == 200 and answer.json()["game"] == seat_up["table"].game_id


def test_declining_on_the_page_stays_on_the_tournament(seat_up, client):
    client.force_login(seat_up["sub"])
    answer = client.post(f"/tournaments/invitations/{seat_up['invitation'].pk}/", {"action": "decline"})
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{seat_up['tournament'].pk}/"


def test_the_replaced_player_is_told_on_the_tournament_page_and_the_game_page(seat_up, client):
    substitutions.accept_substitution(user=seat_up["sub"], substitution_id=seat_up["invitation"].pk)
    first, game = seat_up["first"], seat_up["table"].game_id
    html = page(client, first, f"/tournaments/{seat_up['tournament'].pk}/")
    assert 'id="replaced-note"' in html and "You were replaced by sub in this tournament" in html
    html = page(client, first, f"/games/{game}/")
    assert 'id="viewer-note"' in html and "You were replaced by sub in this tournament" in html
    assert 'data-watch-note="You were replaced by sub in this tournament' in html
    # the substitute and a spectator see no such note
    assert 'id="viewer-note"' not in page(client, seat_up["sub"], f"/games/{game}/")
    # "My tournaments" says it too, instead of a bare "withdrawn"
    mine = page(client, first, "/tournaments/mine/")
    assert "replaced by sub" in mine


# 2. The tournament page after the end --------------------------------------------------------------------------

def test_the_standings_say_when_and_by_whom_a_player_was_replaced(seat_up, client):
    substitutions.accept_substitution(user=seat_up["sub"], substitution_id=seat_up["invitation"].pk)
    rows = {r["username"]: r for r in selectors.standings(tournament=seat_up["tournament"])}
    old = rows[seat_up["first"].username]
    assert old["status"] == "replaced" and old["replaced_by"] == "sub" and old["replaced_in"] == 1
    assert old["round_reached"] is None and old["rounds"] == 0
    html = page(client, seat_up["first"], f"/tournaments/{seat_up['tournament'].pk}/")
    row = re.search(rf'<tr data-username="{seat_up["first"].username}">(.*?)</tr>', html, re.S).group(1)
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    assert cells[2] == "–" and cells[-1] == "replaced by sub in round 1", cells


def final_of_two(make_user, courses, olga):
    return started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=2),
                   many_players(make_user, 2))


def test_a_player_ejected_in_the_final_leaves_and_the_winner_is_named(make_user, courses, olga, client):
    tournament = final_of_two(make_user, courses, olga)
    (table,) = current_tables(tournament)
    loser, winner = users_at(table)
    lobby.leave_game(user=loser, game_id=table.game_id)  # resigns: ejected, the game is over
    assert rounds.advance(tournament_id=tournament.pk) is None
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert Entry.objects.get(tournament=tournament, user=loser).eliminated_in == 1
    rows = {r["username"]: r for r in selectors.standings(tournament=tournament)}
    assert rows[loser.username]["status"] == "out in round 1"
    assert rows[winner.username]["status"] == "winner" and rows[winner.username]["place"] == 1
    log = Action.objects.filter(tournament=tournament, kind="finished").get().text
    assert log == f"round 1 was the final: {winner.username} wins"
    html = page(client, loser, f"/tournaments/{tournament.pk}/")
    banner = re.search(r'id="tournament-winner"[^>]*>(.*?)</', html, re.S)
    assert banner and " ".join(re.sub(r"<[^>]+>", "", banner.group(1)).split()) == f"Winner: {winner.username}"


def test_finalists_who_played_it_out_are_winner_and_finished_not_in(make_user, courses, olga):
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=3),
                         many_players(make_user, 3))
    (table,) = current_tables(tournament)
    order = users_at(table)
    finish_table(table, order)
    rounds.advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    statuses = [(r["username"], r["status"]) for r in selectors.standings(tournament=tournament)]
    assert statuses == [(order[0].username, "winner"), (order[1].username, "finished"),
                        (order[2].username, "finished")]


def test_a_league_names_its_winner_when_its_rounds_are_played(make_user, courses, olga):
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=2,
                                         format="league", league_rounds=1), many_players(make_user, 4))
    tables = current_tables(tournament)
    for table in tables:
        finish_table(table, users_at(table))
    rounds.advance(tournament_id=tournament.pk)
    winners = sorted(users_at(t)[0].username for t in tables)
    log = Action.objects.filter(tournament=tournament, kind="finished").get().text
    assert log == f"the league's 1 round(s) are played: {winners[0]} and {winners[1]} share first place"


def test_a_heats_tournament_left_with_nobody_says_so(make_user, courses, olga):
    tournament = final_of_two(make_user, courses, olga)
    (table,) = current_tables(tournament)
    for user in users_at(table):
        registration.withdraw(user=user, tournament_id=tournament.pk)
    finish_table(table, users_at(table))
    rounds.advance(tournament_id=tournament.pk)
    assert Action.objects.filter(tournament=tournament, kind="finished").get().text == \
        "round 1 was the final: nobody finished it, so there is no winner"


# 3. A tournament table is not played again ---------------------------------------------------------------------

def test_a_finished_tournament_game_offers_no_play_again_but_the_way_back(make_user, courses, olga):
    tournament = final_of_two(make_user, courses, olga)
    (table,) = current_tables(tournament)
    loser, winner = users_at(table)
    lobby.leave_game(user=loser, game_id=table.game_id)
    snapshot = client_for(winner).get(f"/api/games/{table.game_id}/").json()
    assert snapshot["status"] == "finished" and snapshot["can_play_again"] is False
    assert snapshot["competition"] == {"kind": "tournament", "name": tournament.name,
                                       "url": f"/tournaments/{tournament.pk}/", "context": "round 1, table 1",
                                       "result": f"{winner.username} wins the tournament"}
    with pytest.raises(Conflict, match="tournament"):
        rematch.play_again(user=winner, game_id=table.game_id)
    assert client_for(winner).post(f"/api/games/{table.game_id}/play-again/").status_code == 409
    assert not Game.objects.exclude(pk=table.game_id).filter(creator=winner).exists()


def test_a_running_tournament_game_has_no_competition_field_cost(make_user, courses, olga):
    tournament = final_of_two(make_user, courses, olga)
    (table,) = current_tables(tournament)
    snapshot = client_for(users_at(table)[0]).get(f"/api/games/{table.game_id}/").json()
    assert snapshot["competition"] is None  # only a finished game asks (no query on the hot path)


# 6. The create form and the API's refusals ---------------------------------------------------------------------

def test_the_create_form_offers_only_courses_a_tournament_can_play(olga, courses, client):
    html = page(client, olga, "/tournaments/new/")
    offered = set(re.findall(r'name="courses" value="(\d+)"', html))
    assert str(courses["cogwheel-crossing"].pk) in offered
    assert str(courses["puzzle-crusher-hall"].pk) not in offered
    assert str(courses["classic-conveyor-court"].pk) not in offered  # a Classic course: tables play RoboRacer
    for course in courses.values():
        if course.data.get("mode") == "puzzle" or course.min_players > 2:
            assert str(course.pk) not in offered, course.slug
    assert "Crusher Hall" not in html


def test_the_create_form_defaults_to_two_players_and_says_its_times_are_utc(olga, courses, client):
    html = page(client, olga, "/tournaments/new/")
    assert re.search(r'name="min_players" value="2"', html)
    assert re.search(r'<label for="id_registration_opens">Registration opens \(UTC\)', html)
    assert re.search(r'<label for="id_registration_closes">Registration closes \(UTC\)', html)


def test_the_tournament_page_says_its_times_are_utc(olga, courses, client, make_user):
    tournament = open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]])
    html = page(client, make_user("ann"), f"/tournaments/{tournament.pk}/")
    opens = timezone.localtime(tournament.registration_opens).strftime("%-d %b %Y %H:%M")
    assert f"{opens} UTC" in html


def test_a_puzzle_course_is_refused_in_one_plain_sentence(olga, courses):
    now = timezone.now()
    answer = client_for(olga).post("/api/tournaments/", {
        "name": "Puzzle Cup", "courses": ["puzzle-crusher-hall"], "table_size": 2,
        "registration_opens": (now - timedelta(hours=1)).isoformat(),
        "registration_closes": (now + timedelta(hours=1)).isoformat()}, format="json")
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert detail.startswith("courses: Puzzle: Crusher Hall is a puzzle; a tournament plays races and arenas only")
    assert detail.count("Crusher Hall") == 1 and "course:" not in detail
    assert not Tournament.objects.exists()


def test_a_refusal_that_does_not_name_the_course_is_given_its_name_once(olga, courses):
    with pytest.raises(InvalidInput) as refused:
        open_tournament(organiser=olga, courses=[courses["classic-conveyor-court"]], table_size=2)
    assert refused.value.message == "courses: Classic Conveyor Court: this course suits Classic, not RoboRacer"
