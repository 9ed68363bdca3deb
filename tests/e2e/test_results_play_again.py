"""The end of a game in two browsers on the real stack: a private game on Tiny Yard plays one turn, then bob
resigns (leaving is resigning) and alice wins. Both see the results screen: every robot with its place,
check points, lives and damage; the whole game replays from it. Bob presses Play again: one new lobby with
the same settings, bob in seat 1; alice gets a notice on her notifications socket, finds the game in My
games, opens it from the results screen and joins without the invite code. Screenshots of the results screen,
phone and desktop."""

import re

import pytest

from games.models import Game
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import DESKTOP, PHONE, create_game, sign_up, wait_for_turn
from tests.e2e.test_site_features import submit_first_chips

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SETTINGS = ("course_id", "course_data", "max_seats", "lives", "visibility", "timer_preset", "move_time", "game_time",
            "timeout_policy")


def results_table(page):
    return page.eval_on_selector_all(
        "#results tbody tr",
        "rows => rows.map(r => [r.dataset.bot, ...[...r.cells].map(c => c.innerText.trim())])",
    )


def test_results_screen_replay_and_play_again(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, alice_console = new_page("alice", DESKTOP)
    bob, bob_console = new_page("bob", PHONE)
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)

    alice.select_option("#id_course", label="Tiny Yard")
    alice.fill("#id_max_seats", "2")
    alice.fill("#id_lives", "4")
    alice.select_option("#id_visibility", "private")
    alice.select_option("#id_timeout_policy", "eject")
    game_url, game = create_game(alice, base)
    bob.goto(f"{base}/games/{game.pk}/invite/{game.invite_code}/")
    bob.click("#invite-join")
    bob.wait_for_url(game_url)
    for page in (alice, bob):
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
        page.click(".rr-speed[data-speed='0']")  # instant turns
    submit_first_chips(alice, game, "alice", 1)
    submit_first_chips(bob, game, "bob", 1, last=True)
    wait_for_turn(game, 1)
    for page in (alice, bob):
        page.wait_for_selector("#game-status:has-text('Turn 2 — programming')")
    assert alice.locator("#results").is_hidden()

    # Bob resigns: the last robot in the race wins.
    bob.click("#leave-game")
    bob.click("#confirm-yes")
    for page in (alice, bob):
        page.wait_for_selector("#results", state="visible")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner.user.username == "alice"
    bots = {bot["id"]: bot for bot in game.state["bots"]}
    total = sum(1 for element in game.course_data["elements"] if element["type"] == "checkpoint")
    places = game.state.get("places") or {"1": 1, "2": 2}

    def row(bot, name):
        b = bots[bot]
        return [bot, {1: "1st", 2: "2nd"}[places[bot]], name, f"{b['next_checkpoint'] - 1} of {total}", str(b["lives"]),
                str(b["damage"])]

    expected_alice = [row("1", "alice (you)"), row("2", "bob\nforfeited")]
    expected_bob = [row("1", "alice"), row("2", "bob (you)\nforfeited")]
    assert results_table(alice) == expected_alice
    assert results_table(bob) == expected_bob
    assert alice.inner_text("#results .rr-results-summary") == "You win after 1 turn."
    # The robot list calls it a forfeit, once; the game is over, so no "next turn's priority" under the log.
    bob_seat = alice.locator(".rr-seat[data-seat='2']")
    assert bob_seat.locator(".seat-ready").inner_text() == "forfeited"
    assert "ejected" not in bob_seat.inner_text() and bob_seat.inner_text().count("forfeited") == 1
    assert alice.inner_text(".rr-log-footer") == ""
    assert bob.inner_text("#results .rr-results-summary") == "alice wins after 1 turn."
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    alice.screenshot(path=str(ARTIFACTS / "results-desktop.png"), full_page=True)
    bob.locator("#results").scroll_into_view_if_needed()
    bob.screenshot(path=str(ARTIFACTS / "results-phone.png"))
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Plain words on the finished game's screen, for both players: names (not seat numbers) in the system
    # chat, the forfeit called one, no internal terms, and no invite box for a private game that is over.
    for page in (alice, bob):
        text = page.inner_text("body")
        for internal in ("(003)", "Resolver404", "none game time"):
            assert internal not in text, internal
        assert not re.search(r"\b(bot laser|last bot)\b", text)
        chat = page.inner_text(".rr-chat")
        assert "bob forfeited (resigned)." in chat
        assert not re.search(r"\b[Ss]eat \d", chat), chat
        assert page.locator(".rr-invite").is_hidden()
    stranger_404 = new_page("nobody", DESKTOP)[0]
    stranger_404.goto(f"{base}/games/{game.pk + 1000}/")
    assert "Resolver404" not in stranger_404.inner_text("body")

    # The whole game replays from the results screen, then the final state stays on the board.
    alice.click("#results-replay")
    alice.wait_for_selector("#game-root[data-replayed='1']", timeout=30_000)
    alice.wait_for_selector("#game-root[data-animating='0']")
    assert results_table(alice) == expected_alice

    # Bob plays again: a new lobby, bob in seat 1, the same settings.
    bob.click("#play-again")
    bob.wait_for_url(lambda url: url.rstrip("/") != game_url.rstrip("/") and "/games/" in url)
    new = Game.objects.get(rematch_of=game)
    assert bob.url.rstrip("/").endswith(f"/games/{new.pk}")
    assert new.status == Game.Status.LOBBY and new.creator.username == "bob"
    assert {f: getattr(new, f) for f in SETTINGS} == {f: getattr(game, f) for f in SETTINGS}
    bob.wait_for_selector("#game-status:has-text('Lobby')")

    # Alice: a notice on her notifications socket, and the results screen now leads to the new game.
    notice = alice.locator(".rr-notice[data-kind='rematch']")
    notice.wait_for()
    assert f"game {new.pk}" in notice.inner_text() and "bob wants to play again" in notice.inner_text()
    alice.wait_for_selector("#open-rematch", state="visible")
    assert alice.locator("#play-again").is_hidden()
    assert Game.objects.filter(rematch_of=game).count() == 1

    # In My games before she joins; opened from the results screen, she joins without the invite code.
    lobby = new_page("alice-lobby", DESKTOP)[0]
    lobby.context.add_cookies(alice.context.cookies())
    lobby.goto(f"{base}/")
    lobby.wait_for_selector(f"#my-games li[data-game-id='{new.pk}']")
    alice.click("#open-rematch")
    alice.wait_for_url(f"{base}/games/{new.pk}/")
    alice.click("#join-game")
    alice.wait_for_url(f"{base}/games/{new.pk}/")
    for page in (alice, bob):
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
    new.refresh_from_db()
    assert sorted(new.seats.values_list("number", "user__username")) == [(1, "bob"), (2, "alice")]
    assert alice_console.errors + bob_console.errors == []
