"""What a new user's walkthrough of the tournaments found, in Chromium on the real stack, on a phone (390x844) and
a desktop (1366x900):

1. a substitute learns of an invitation in the lobby, live (a notice on the notifications socket) and on every
   page (the invitation notice), answers it in "My tournaments" (the seat's game, turn and move clock), and
   accepting lands on the game with the seat's hand; the replaced player's game screen says who replaced them
   instead of a bare "You are watching this game";
2. a finished tournament names its winner, a player replaced shows "–" and "replaced by ... in round 1", the
   player ejected in the final is out, and the standings fit a phone with the Status column in view;
3. forfeiting a two-player table says the game ends at once; the aborted game's results say "Game aborted" (not
   "You win"), and lead back to the tournament instead of offering "Play again".

Screenshots: var/test-artifacts/walkthrough-*.png."""

import pytest

from games.models import Game
from games.services import lobby
from roboracer.tournaments.models import Entry, Round, Tournament
from roboracer.tournaments.services import rounds, substitutions
from tests.e2e.conftest import ARTIFACTS
from tests.helpers import log_in, many_players
from tests.tournaments.factories import (
    current_tables,
    finish_table,
    open_tournament,
    organiser,
    started,
    users_at,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}



def shoot(page, name):
    """A full-page screenshot at the page's size, then at the other one (phone <-> desktop)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    other = DESKTOP if size["width"] == PHONE["width"] else PHONE
    for viewport in (size, other):
        page.set_viewport_size(viewport)
        label = "phone" if viewport["width"] == PHONE["width"] else "desktop"
        page.screenshot(path=str(ARTIFACTS / f"walkthrough-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(size)


def no_sideways_scroll(page):
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_substitute_is_told_answers_and_lands_on_the_game(live_stack, make_user, courses, new_page, wait_until):
    base = live_stack.base_url
    olga = organiser(make_user)
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=3,
                                         name="Walkthrough Cup"), many_players(make_user, 3))
    (table,) = current_tables(tournament)
    first = users_at(table)[0]
    make_user("sub")
    sub, sub_console = new_page("sub", PHONE)
    old, old_console = new_page(first.username, DESKTOP)
    log_in(sub, base, "sub")
    log_in(old, base, first.username)

    # The organiser invites while the substitute is in the lobby: a notice arrives on their socket.
    sub.wait_for_function("() => window.roboracerNotices?.socket?.ws?.readyState === 1")
    invitation = substitutions.replace(user=olga, tournament_id=tournament.pk,
                                  entry_id=Entry.objects.get(tournament=tournament, user=first).pk, username="sub")
    live = sub.locator(".rr-notice[data-kind='tournament-invitation'] a")
    live.wait_for()
    assert live.inner_text() == f"You are invited to replace {first.username} in Walkthrough Cup (game {table.game_id})"
    assert sub.title().startswith("(1) ")

    # Any page (the lobby after a reload) shows the invitation notice, linking to "My tournaments".
    sub.reload()
    notice = sub.locator("#tournament-invitations")
    assert f"replace {first.username} in Walkthrough Cup" in notice.inner_text()
    assert "left to move" in notice.inner_text()
    no_sideways_scroll(sub)
    shoot(sub, "lobby-invitation")
    notice.locator("a", has_text="Answer it").click()
    sub.wait_for_url(f"{base}/tournaments/mine/#invitation-{invitation.pk}")
    item = sub.locator(f"#invitation-{invitation.pk}")
    assert f"Their seat: game {table.game_id} on Cogwheel Crossing, turn 1, no move sent yet" in item.inner_text()
    no_sideways_scroll(sub)
    shoot(sub, "my-tournaments-invitation")

    # Accepting lands on the game, with the seat's hand to play.
    item.locator("button[value='accept']").click()
    sub.wait_for_url(f"{base}/games/{table.game_id}/")
    sub.wait_for_selector("button.chip")
    assert "You have taken the seat" in sub.inner_text(".messages")

    # The replaced player's game screen says who took the seat.
    old.goto(f"{base}/games/{table.game_id}/")
    note = "You were replaced by sub in this tournament (Walkthrough Cup): they play your seat now. " \
           "You can still watch the game."
    assert old.inner_text("#viewer-note") == note
    old.wait_for_selector(f".rr-program-placeholder:has-text('{note}')")
    shoot(old, "replaced-game")
    old.goto(f"{base}/tournaments/{tournament.pk}/")
    assert "You were replaced by sub in this tournament (round 1)" in old.inner_text("#replaced-note")
    assert not sub_console.errors and not old_console.errors, sub_console.errors + old_console.errors


def test_a_finished_tournament_names_its_winner_and_fits_a_phone(live_stack, make_user, courses, new_page,
                                                                 wait_until):
    base = live_stack.base_url
    olga = organiser(make_user)
    players = many_players(make_user, 4, prefix="racer")
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=2,
                                         name="Final Day Cup"), players)
    # Round 1: the first seat of table 1 is replaced before moving; both tables finish, seat 1 first.
    one, two = current_tables(tournament)
    replaced = users_at(one)[0]
    make_user("stand-in")
    invitation = substitutions.replace(user=olga, tournament_id=tournament.pk, username="stand-in",
                                  entry_id=Entry.objects.get(tournament=tournament, user=replaced).pk)
    substitutions.accept_substitution(user=invitation.invitee, substitution_id=invitation.pk)
    for table in (one, two):
        finish_table(table, users_at(table))
    rounds.advance(tournament_id=tournament.pk)  # the worker may have done it already: exactly once
    wait_until(lambda: Round.objects.filter(tournament=tournament).count() == 2, "round 2 (the final) is seated")
    # The final: one finalist resigns (ejected), the other wins.
    (final,) = current_tables(tournament)
    quitter, champion = users_at(final)
    lobby.leave_game(user=quitter, game_id=final.game_id)
    wait_until(lambda: Tournament.objects.get(pk=tournament.pk).status == "finished", "the tournament finishes")

    page, console = new_page("phone", PHONE)
    log_in(page, base, replaced.username)
    page.goto(f"{base}/tournaments/{tournament.pk}/")
    assert page.inner_text("#tournament-winner") == f"Winner: {champion.username}"
    rows = {r[1]: r for r in page.eval_on_selector_all(
        "#standings tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))")}
    assert rows[champion.username][4] == "winner"
    assert rows[quitter.username][4] == "out in round 2"
    assert rows[replaced.username][2] == "–"
    assert rows[replaced.username][4] == "replaced by stand-in in round 1"
    assert "round 2 was the final: " + champion.username + " wins" in page.inner_text("#tournament-log")
    # The standings fit the phone: no sideways scrolling inside the table, the Status column in view.
    assert page.evaluate("() => { const w = document.querySelector('.standings-wrap');"
                         " return w.scrollWidth <= w.clientWidth; }")
    status = page.locator("#standings th", has_text="Status").bounding_box()
    assert status["x"] + status["width"] <= PHONE["width"]
    no_sideways_scroll(page)
    page.locator("#standings").scroll_into_view_if_needed()
    shoot(page, "finished-tournament")
    assert not console.errors, console.errors


def test_forfeiting_a_two_player_table_and_its_aborted_results(live_stack, make_user, courses, new_page):
    base = live_stack.base_url
    olga = organiser(make_user)
    tournament = started(open_tournament(organiser=olga, courses=[courses["cogwheel-crossing"]], table_size=2,
                                         name="Short Cup"), many_players(make_user, 2, prefix="duo"))
    (table,) = current_tables(tournament)
    quitter, other = users_at(table)
    page, console = new_page("quitter", PHONE)
    log_in(page, base, quitter.username)
    page.goto(f"{base}/games/{table.game_id}/")
    page.wait_for_selector("button.chip")
    page.click("#leave-game")
    assert page.inner_text("#rr-confirm-text") == \
        f"Forfeit? Your robot leaves the race and the game ends now: {other.username} wins by forfeit."
    shoot(page, "forfeit-question")
    page.click("#confirm-yes")
    page.wait_for_selector("#results:not([hidden])")
    summary = page.inner_text(".rr-results-summary")
    assert summary == f"Game aborted after 0 turns: fewer than two players moved. {other.username} takes 1st place."
    assert "win" not in summary
    assert page.inner_text("#game-status") == f"Aborted — {other.username} takes 1st place"
    assert page.locator("#play-again").is_hidden()
    back = page.locator("#results-competition")
    assert back.inner_text() == "Back to the tournament: Short Cup"
    assert back.get_attribute("href") == f"/tournaments/{tournament.pk}/"
    # Issue 38 item 2: the page names its tournament, round and table at the top, and the results what it did.
    assert page.inner_text("#game-competition") == "Tournament: Short Cup · round 1, table 1"
    assert page.inner_text("#results-competition-result").startswith("Short Cup, round 1, table 1: ")
    assert Game.objects.get(pk=table.game_id).aborted
    shoot(page, "aborted-results")
    # The player page lists it as aborted.
    page.goto(f"{base}/players/{quitter.username}/")
    assert page.inner_text(f"#player-games tr[data-game-id='{table.game_id}'] td.change") == "aborted"
    shoot(page, "player-page-aborted")
    assert not console.errors, console.errors


def test_the_create_form_and_a_lookalike_sign_up(live_stack, make_user, courses, new_page):
    base = live_stack.base_url
    organiser(make_user)
    page, console = new_page("olga", DESKTOP)
    log_in(page, base, "olga")
    page.goto(f"{base}/tournaments/new/")
    pool = page.inner_text("#id_courses")
    assert "Cogwheel Crossing" in pool and "Puzzle" not in pool and "Classic" not in pool
    assert page.input_value("#id_min_players") == "2"
    # Issue 38 item 8: only what applies shows. Heats by default: no league fields; preset timers: no minutes.
    page.wait_for_function("() => !!document.querySelector('#tournament-form')?.dataset.shown")
    assert page.is_visible("#id_advance") and page.is_hidden("#id_league_rounds") and page.is_hidden("#id_points")
    assert page.is_hidden("#id_move_minutes") and page.is_visible("#id_timers")
    page.select_option("#id_format", "league")
    assert page.is_visible("#id_league_rounds") and page.is_visible("#id_points") and page.is_hidden("#id_advance")
    page.select_option("#id_timers", "custom")
    assert page.is_visible("#id_move_minutes") and page.is_visible("#id_game_minutes")
    page.select_option("#id_kind", "rambots")
    assert page.is_hidden("#id_courses") and page.is_hidden("#id_lives") and page.is_hidden("#id_modules")
    shoot(page, "create-form-rambots-league")
    page.select_option("#id_kind", "roboracer")
    assert page.is_visible("#id_courses")
    assert page.inner_text("label[for='id_registration_opens']").startswith("Registration opens (UTC)")
    shoot(page, "create-form")
    visitor, visitor_console = new_page("visitor", PHONE)
    visitor.goto(f"{base}/accounts/signup/")
    visitor.fill("#id_username", "\u0430lice")
    visitor.fill("#id_password1", "a long passphrase 42")
    visitor.fill("#id_password2", "a long passphrase 42")
    visitor.click("#signup-submit")
    error = visitor.inner_text("#id_username_error")
    assert error.startswith("'\u0430' (CYRILLIC SMALL LETTER A, U+0430, which looks like 'a') is not allowed")
    shoot(visitor, "signup-lookalike")
    assert not console.errors and not visitor_console.errors
