"""Two people in two browsers sign up, meet in the lobby and play three turns (keyboard, clicks, drag and
drop); a third watches. After every turn the robots end where the engine says; one player reloads in the
middle of an animation and sees the right state at once; the spectator never sees a hand."""

import json

import pytest

import engine
from games.models import Game, Hand, Turn
from tests.e2e.conftest import ARTIFACTS
from tests.helpers import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long passphrase 42"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1920, "height": 1080}
BOTS_JS = "els => els.map(e => [e.dataset.bot, +e.dataset.x, +e.dataset.y, e.dataset.dir]).sort()"


def sign_up(page, base_url, username):
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("#signup-submit")
    page.wait_for_url(f"{base_url}/")


def create_game(page, base_url):
    """Send the lobby's filled-in "new game" form; the game's page URL and its row."""
    page.click("#create-game-submit")
    page.wait_for_url(f"{base_url}/games/*/")
    return page.url, Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))


def bot_squares(page):
    return page.eval_on_selector_all("g.bot", BOTS_JS)


def registers(page):
    return page.eval_on_selector_all(".register", "els => els.map(e => e.dataset.chip || '-')")


def keys_in(value):
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


def wait_for_turn(game, number):
    wait_until(lambda: Turn.objects.filter(game=game, number=number).exists(), f"the worker to resolve turn {number}",
               timeout=30)
    return Turn.objects.get(game=game, number=number)


def engine_result(game, record):
    """Where the engine puts the bots, from the stored inputs of the turn (what the page must show)."""
    course = engine.parse_course(game.course_data)
    before = engine.state_from_dict(record.state_before, course)
    state, _ = engine.resolve_turn(before, record.programs, record.seed, reboots=record.reboots)
    return sorted([bot.id, bot.at[0], bot.at[1], bot.dir] for bot in state.bots if bot.at is not None)


def wait_for_bots(page, expected):
    page.wait_for_function(
        f"expected => JSON.stringify(({BOTS_JS})([...document.querySelectorAll('g.bot')])) === JSON.stringify(expected)",
        arg=expected, timeout=40_000,
    )


def frozen_registers(page):
    return dict(page.eval_on_selector_all(".register.locked", "els => els.map(e => [+e.dataset.register, e.dataset.chip])"))


def merged(frozen, chips):
    """The five registers: frozen ones keep their chip, the others take `chips` in order ("-" when short)."""
    free = iter(chips)
    return [frozen[r] if r in frozen else next(free, "-") for r in range(5)]


def program_by_keyboard(page, hand):
    """Keys 1-9 pick chips, Backspace clears the last register, Enter submits."""
    frozen = frozen_registers(page)
    free = 5 - len(frozen)  # damage shrinks the hand and freezes registers (9 - damage chips either way)
    page.locator("#rr-program-title").click()  # focus outside any button, so Enter means "submit"
    if free >= 2:
        for key in "12":
            page.keyboard.press(key)
        assert registers(page) == merged(frozen, hand[:2])
        page.keyboard.press("Backspace")
        assert registers(page) == merged(frozen, hand[:1])
        keys = range(2, free + 1)
    else:
        keys = range(1, free + 1)
    for key in keys:
        page.keyboard.press(str(key))
    assert registers(page) == merged(frozen, hand[:free])
    page.locator("#rr-program-title").click()
    page.keyboard.press("Enter")
    page.wait_for_selector(".rr-program-message:has-text('Program submitted')")
    return merged(frozen, hand[:free])


def program_by_clicks_and_drag(page, hand):
    """Clicks fill registers in order; a chip dragged onto a filled register replaces it."""
    frozen = frozen_registers(page)
    reboot = page.locator("#reboot-toggle")
    assert not reboot.is_checked()
    reboot.click()
    assert reboot.is_checked()
    reboot.click()  # unticked again: play next turn
    if frozen or len(hand) < 6:  # a damaged robot: just click what there is
        for index in range(5 - len(frozen)):
            page.click(f"button.chip[data-index='{index}']")
        program = merged(frozen, hand[: 5 - len(frozen)])
    else:
        for index in (4, 3, 2, 1):
            page.click(f"button.chip[data-index='{index}']")
        assert registers(page) == [hand[4], hand[3], hand[2], hand[1], "-"]
        page.locator("button.chip[data-index='0']").drag_to(page.locator(".register[data-register='1']"))
        assert registers(page) == [hand[4], hand[0], hand[2], hand[1], "-"]  # chip 3 went back to the hand
        assert page.locator("button.chip[data-index='3']").is_enabled()
        page.click("button.chip[data-index='3']")
        program = [hand[4], hand[0], hand[2], hand[1], hand[3]]
    assert registers(page) == program
    page.click("#submit-program")  # the last program in: the turn runs at once (wait_for_turn checks it)
    return program


def test_two_players_and_a_spectator_play_three_turns(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, alice_console = new_page("alice", DESKTOP)
    bob, bob_console = new_page("bob")
    sam, sam_console = new_page("sam", PHONE)
    sam_frames = []
    sam.on("websocket", lambda ws: ws.on("framereceived", lambda payload: sam_frames.append(str(payload))))
    for page, user in ((alice, "alice"), (bob, "bob"), (sam, "sam")):
        sign_up(page, base, user)

    alice.select_option("#id_course", label="Tiny Yard")
    alice.wait_for_selector("[data-course-select-preview] svg.rr-board")  # the form previews the course
    alice.fill("#id_max_seats", "2")
    alice.fill("#id_lives", "9")
    game_url, game = create_game(alice, base)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    bob.goto(f"{base}/")
    bob.wait_for_selector(f"#open-games li[data-game-id='{game.pk}'] .thumb svg.rr-board")  # course thumbnail
    bob.click(f"#open-games li[data-game-id='{game.pk}'] a")
    bob.wait_for_url(game_url)
    bob.click("#join-game")
    bob.wait_for_url(game_url)
    sam.goto(game_url)

    # The lobby lists the game under "my games" with a your-move badge.
    alice.goto(f"{base}/")
    alice.wait_for_selector(f"#my-games li[data-game-id='{game.pk}'] .badge:has-text('your move')")
    alice.screenshot(path=str(ARTIFACTS / "lobby-desktop.png"), full_page=True)
    sam.goto(f"{base}/")
    sam.wait_for_selector("#open-games, #my-games, h2#open-heading")
    sam.screenshot(path=str(ARTIFACTS / "lobby-phone.png"), full_page=True)
    sam.goto(f"{game_url}?speed=4")  # the speed buttons' choice, given in the address
    alice.goto(game_url)
    alice.click(".rr-speed[data-speed='4']")  # remembered by the browser
    bob.click(".rr-speed[data-speed='2']")  # still slow enough to reload in the middle of a turn
    assert alice.get_attribute(".rr-speed[data-speed='4']", "aria-pressed") == "true"

    for turn in (1, 2, 3):
        hands = {}
        for page, user in ((alice, "alice"), (bob, "bob")):
            page.wait_for_selector(f"#game-status:has-text('Turn {turn} — programming')")
            hands[user] = Hand.objects.get(seat__game=game, seat__user__username=user, turn=turn).chips
            page.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(hands[user]))
            shown = page.eval_on_selector_all("button.chip", "els => els.map(e => e.dataset.chip)")
            assert shown == hands[user], f"{user} sees a hand that is not theirs"
        # The spectator has no hand, no registers, and none of the players' chips reach it.
        sam.wait_for_selector(f"#game-status:has-text('Turn {turn}')")
        assert sam.locator("button.chip").count() == 0 and sam.locator(".register").count() == 0
        assert sam.locator(".rr-program-placeholder").inner_text() == "You are watching this game."
        if turn == 1:
            alice.wait_for_selector("#start-game", state="hidden")  # a started game offers no start button
            alice.screenshot(path=str(ARTIFACTS / "game-desktop-programming.png"), full_page=True)
            sam.screenshot(path=str(ARTIFACTS / "game-phone-spectator.png"), full_page=True)

        alice_program = program_by_keyboard(alice, hands["alice"])
        if turn == 2 and len(hands["alice"]) > 5 and 0 not in frozen_registers(alice):
            # A program may change until execution starts: alice replaces her first chip and resubmits.
            alice.click(".register[data-register='0'] button")
            alice.click("button.chip[data-index='5']")
            alice.keyboard.press("Enter")  # after picking with the mouse, Enter submits the full program
            alice.wait_for_selector(".rr-program-message:has-text('Program submitted')")
            alice_program = [hands["alice"][5]] + alice_program[1:]
        bob_program = program_by_clicks_and_drag(bob, hands["bob"])

        record = wait_for_turn(game, turn)
        assert record.programs == {"1": alice_program, "2": bob_program}
        expected = engine_result(game, record)
        if turn == 2:
            # Bob reloads while the robots are moving: the page shows the state after the turn at once.
            bob.wait_for_selector("#game-root[data-animating='1']", timeout=10_000)
            bob.reload()
            bob.wait_for_selector("g.bot")
            bob.wait_for_function("n => document.querySelectorAll('g.bot').length === n", arg=len(expected))
            assert bot_squares(bob) == expected
            assert bob.get_attribute("#game-root", "data-animating") == "0"
            bob.wait_for_selector("#turn-log tr[data-phase='1'] >> nth=0")  # the turn's log survives the reload
        for page in (alice, bob, sam):
            wait_for_bots(page, expected)
            page.wait_for_selector(f"#game-status:has-text('Turn {turn + 1}')")
            page.wait_for_selector("#game-root[data-animating='0']")
            assert bot_squares(page) == expected
            rows = page.locator("#turn-log tbody tr").count()
            assert rows >= 2, "the turn log has a row per phase and bot"
        assert alice.locator("#replay-turn option").count() == turn
        # Check point colours (003): alice's next is green, bob's (the only opponent) black, others red.
        nxt = {bot["id"]: bot["next_checkpoint"] for bot in record.state_after["bots"]}
        colours = alice.eval_on_selector_all(
            "svg.rr-board g.el-checkpoint",
            "els => Object.fromEntries(els.map(e => [e.dataset.checkpoint, e.getAttribute('class').split(' ').pop()]))",
        )
        assert colours == {
            str(n): "cp-mine" if n == nxt["1"] else "cp-leader" if n == nxt["2"] else "cp-other" for n in (1, 2)
        }

    # Replay of turn 1 from its stored start, then back to the live state.
    alice.click(".rr-speed[data-speed='4']")
    alice.select_option("#replay-turn", "1")
    alice.click("#replay-button")
    alice.wait_for_selector("#game-root[data-replayed='1']", timeout=30_000)
    alice.wait_for_selector("#game-root[data-animating='0']")
    assert bot_squares(alice) == expected
    assert "Replay of turn 1" in alice.locator("#rr-log-title").inner_text()

    alice.screenshot(path=str(ARTIFACTS / "game-desktop-after-three-turns.png"), full_page=True)
    alice.set_viewport_size(PHONE)
    alice.screenshot(path=str(ARTIFACTS / "game-phone-player.png"), full_page=True)
    for page in (alice, sam):  # nothing wider than a phone: no sideways scrolling
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Nothing the spectator received carries a hand: not the page, not a socket message.
    assert sam_frames, "the spectator's socket received messages"
    for frame in sam_frames:
        message = json.loads(frame)
        assert "hand" not in keys_in(message)
        if message["type"] == "snapshot":
            assert message["game"]["me"] is None
    snapshot = sam.evaluate("url => fetch(url).then(r => r.json())", f"/api/games/{game.pk}/")
    assert snapshot["me"] is None and "hand" not in keys_in(snapshot)
    assert sam.locator("button.chip").count() == 0
    assert alice_console.errors + bob_console.errors + sam_console.errors == []
