"""Two people in two browsers sign up, meet in the lobby, and play one turn by clicking chips."""

import time

import pytest

import engine
from games.models import Game, Hand, Turn
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long passphrase 42"


def sign_up(page, base_url, username):
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_url(f"{base_url}/")


def bot_squares(page):
    return page.eval_on_selector_all(
        "g.bot", "els => els.map(e => [e.dataset.bot, +e.dataset.x, +e.dataset.y, e.dataset.dir])"
    )


def test_two_browsers_play_one_turn(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, alice_console = new_page("alice")
    bob, bob_console = new_page("bob")
    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")

    alice.select_option("#id_course", label="Tiny Yard")
    alice.fill("#id_max_seats", "2")
    alice.click("#create-game-submit")
    alice.wait_for_url(f"{base}/games/*/")
    game_url = alice.url
    ARTIFACTS.mkdir(exist_ok=True)

    bob.goto(f"{base}/")
    bob.click("#open-games a")
    bob.wait_for_url(game_url)
    bob.click("#join-game")
    bob.wait_for_url(game_url)

    game = Game.objects.get(pk=int(game_url.rstrip("/").rsplit("/", 1)[1]))
    hands = {}
    for page, user in ((alice, "alice"), (bob, "bob")):
        page.wait_for_selector("button.chip >> nth=8")  # the whole hand of nine is shown
        hands[user] = Hand.objects.get(seat__game=game, seat__user__username=user, turn=1).chips
        shown = page.eval_on_selector_all("button.chip", "els => els.map(e => e.dataset.chip)")
        assert shown == hands[user], f"{user} sees a hand that is not theirs"
    alice.wait_for_selector("#start-game", state="hidden")  # the started game offers no start button
    alice.screenshot(path=str(ARTIFACTS / "game-programming.png"))

    programs = {}
    for page, user, bot_id in ((alice, "alice", "1"), (bob, "bob", "2")):
        for index in range(5):
            page.click(f"button.chip[data-index='{index}']")
        page.click("#submit-program")
        programs[bot_id] = hands[user][:5]

    deadline = time.monotonic() + 30
    while not Turn.objects.filter(game=game, number=1).exists():
        assert time.monotonic() < deadline, "the worker did not resolve the turn"
        time.sleep(0.2)
    record = Turn.objects.get(game=game, number=1)
    course = engine.parse_course(game.course_data)
    expected_state, _ = engine.resolve_turn(engine.state_from_dict(record.state_before, course), programs, record.seed)
    expected = sorted(
        [bot.id, bot.at[0], bot.at[1], bot.dir] for bot in expected_state.bots if bot.at is not None
    )
    for page in (alice, bob):
        page.wait_for_function(
            "expected => JSON.stringify([...document.querySelectorAll('g.bot')]"
            ".map(e => [e.dataset.bot, +e.dataset.x, +e.dataset.y, e.dataset.dir]).sort()) === JSON.stringify(expected)",
            arg=expected,
            timeout=30_000,
        )
        assert sorted(bot_squares(page)) == expected
        page.wait_for_selector("#game-status:has-text('Turn 2')")
    alice.screenshot(path=str(ARTIFACTS / "game-after-turn-1.png"))

    # Reload: the current state is drawn at once from the snapshot.
    bob.reload()
    bob.wait_for_selector("g.bot")
    bob.wait_for_function("n => document.querySelectorAll('g.bot').length === n", arg=len(expected))
    assert sorted(bot_squares(bob)) == expected
    bob.wait_for_selector("#turn-log li[data-phase='1']")  # the last turn's log survives the reload
    assert alice_console.errors + bob_console.errors == []
