"""The site features of the game screen through the real stack (uvicorn, a Celery worker, Chromium):
two players chat (each line appears on the other's screen live, markup as text), the clocks count
down, a spectator reads the chat but has no input and no hand, a "your move" notice reaches a player
waiting in the lobby when the next turn is dealt, and `!archive` takes the game off the lobby's
My games. No console errors. Screenshots of the game screen with chat, desktop and phone."""

import re

import pytest

from games.models import Game, Hand
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import DESKTOP, PHONE, create_game, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
EVIL = "<img src=x onerror=alert(1)>"


def move_seconds(page, seat):
    text = page.inner_text(f".seat-clock[data-seat='{seat}']")
    match = re.search(r"move (\d+):(\d\d)", text)
    assert match, text
    return int(match.group(1)) * 60 + int(match.group(2))


def submit_first_chips(page, game, user, turn, last=False):
    hand = Hand.objects.get(seat__game=game, seat__user__username=user, turn=turn).chips
    page.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(hand))
    frozen = page.locator(".register.locked").count()
    for index in range(5 - frozen):
        page.click(f"button.chip[data-index='{index}']")
    page.click("#submit-program")
    if not last:  # the last program in runs the turn at once, and the editor gives way
        page.wait_for_selector(".rr-program-message:has-text('Program submitted')")


def test_chat_clocks_spectator_notice_and_archive(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, alice_console = new_page("alice", DESKTOP)
    bob, bob_console = new_page("bob", PHONE)
    sam, sam_console = new_page("sam", PHONE)
    dialogs = []
    for page in (alice, bob, sam):
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    for page, user in ((alice, "alice"), (bob, "bob"), (sam, "sam")):
        sign_up(page, base, user)

    alice.select_option("#id_course", label="Tiny Yard")
    alice.fill("#id_max_seats", "2")
    alice.fill("#id_lives", "9")
    alice.select_option("#id_timer_preset", "realtime")  # 2 minutes a move: the clock visibly ticks
    game_url, game = create_game(alice, base)
    bob.goto(game_url)
    bob.click("#join-game")
    bob.wait_for_url(game_url)
    sam.goto(game_url)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for page in (alice, bob, sam):
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")

    # ---- chat, live both ways; markup is text
    alice.fill("#chat-input", f"hello bob {EVIL}")
    alice.press("#chat-input", "Enter")
    line = bob.locator("#chat-log li.chat-msg:not(.system)", has_text="hello bob")
    line.wait_for()
    assert line.locator(".chat-text").inner_text() == f"hello bob {EVIL}"
    assert bob.locator("#chat-log img").count() == 0
    assert "own" in alice.locator("#chat-log li", has_text="hello bob").get_attribute("class")
    assert "own" not in line.get_attribute("class")
    bob.fill("#chat-input", "@all hi alice, good luck")
    bob.click("#chat-send")
    alice.locator("#chat-log li", has_text="hi alice, good luck").wait_for()
    assert "@all" not in alice.locator("#chat-log li", has_text="hi alice").inner_text()
    assert dialogs == []

    # ---- the spectator reads along but cannot write, and holds no hand
    sam.locator("#chat-log li", has_text="hi alice, good luck").wait_for()
    assert sam.locator("#chat-input").is_hidden() and sam.locator("#chat-send").is_hidden()
    assert sam.locator(".chat-readonly").is_visible()
    assert sam.locator("button.chip").count() == 0 and sam.locator(".register").count() == 0

    # ---- clocks: both seats think, their move time counts down once a second
    alice.wait_for_selector(".seat-clock[data-seat='1'].running")
    first = move_seconds(alice, 1)
    assert 100 <= first <= 120, first
    alice.wait_for_timeout(2500)  # a sampling window: how far the clock counts down in it (2 to 4 s)
    assert first - 4 <= move_seconds(alice, 1) <= first - 2
    assert move_seconds(sam, 2) <= 120

    alice.screenshot(path=str(ARTIFACTS / "game-chat-desktop.png"), full_page=True)
    bob.locator(".rr-chat").scroll_into_view_if_needed()
    bob.screenshot(path=str(ARTIFACTS / "game-chat-phone.png"), full_page=True)
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # ---- a "your move" notice reaches bob in the lobby when turn 2 is dealt
    submit_first_chips(bob, game, "bob", 1)
    bob.goto(f"{base}/")
    # bob's notifications socket is open (the server joined it to his group before accepting it) before the
    # turn resolves.
    bob.wait_for_function("() => window.roboracerNotices?.socket?.ws?.readyState === WebSocket.OPEN")
    submit_first_chips(alice, game, "alice", 1, last=True)
    notice = bob.locator(f".rr-notice[data-game='{game.pk}']")
    notice.wait_for(timeout=40_000)
    assert notice.locator("a").inner_text().startswith(f"Your move in game {game.pk} (Tiny Yard), turn 2")
    assert bob.title().startswith("(1) ")
    # ... but not on the page of that same game, which deals the hand itself.
    alice.wait_for_selector("#game-status:has-text('Turn 2')", timeout=40_000)
    assert alice.locator(".rr-notice").count() == 0

    # ---- !archive: the game leaves alice's My games
    alice.fill("#chat-input", "!archive")
    alice.press("#chat-input", "Enter")
    alice.wait_for_selector("#chat-info:has-text('Archived')")
    alice.wait_for_selector("#archived-note:visible")
    alice.goto(f"{base}/")
    alice.wait_for_selector("h2#mine-heading")
    assert alice.locator(f"#my-games li[data-game-id='{game.pk}']").count() == 0

    assert alice_console.errors + bob_console.errors + sam_console.errors == []


def test_private_game_invite_link_leave_and_cancel(live_stack, courses, new_page):
    """The creator of a private game copies its invite link; bob takes a seat through it, then leaves
    (asked first); alice cancels the game (asked first) and lands in the lobby, the game gone."""
    base = live_stack.base_url
    alice, alice_console = new_page("alice", DESKTOP)
    bob, bob_console = new_page("bob", PHONE)
    alice.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    sign_up(alice, base, "alice2")
    sign_up(bob, base, "bob2")

    alice.select_option("#id_course", label="Tiny Yard")
    alice.fill("#id_max_seats", "3")
    alice.select_option("#id_visibility", "private")
    game_url, game = create_game(alice, base)
    alice.wait_for_selector("#game-status:has-text('Lobby')")
    invite = alice.input_value("#invite-url")
    assert invite.startswith(f"{base}/games/{game.pk}/") and invite != game_url
    alice.click("#copy-invite")
    alice.wait_for_selector(".rr-copy-status:has-text('Copied')")
    assert alice.evaluate("navigator.clipboard.readText()") == invite

    bob.goto(invite)
    bob.click("#invite-join")
    bob.wait_for_url(game_url)
    bob.wait_for_selector("li.rr-seat[data-seat='2']")
    alice.wait_for_selector("li.rr-seat[data-seat='2']")  # live, through seat_joined
    assert bob.input_value("#invite-url") == invite  # a seated player may pass the link on
    assert bob.locator("#cancel-game").is_hidden()  # only the creator cancels

    # Bob leaves: asked first, "Stay" keeps him; then he leaves and is back in the lobby.
    bob.click("#leave-game")
    bob.click("#confirm-no")
    assert bob.locator(".rr-confirm:not(.rr-start-confirm)").is_hidden()
    bob.click("#leave-game")
    bob.click("#confirm-yes")
    bob.wait_for_url(f"{base}/")
    alice.wait_for_function("() => !document.querySelector(\"li.rr-seat[data-seat='2']\")")

    alice.click("#cancel-game")
    assert "Cancel this game for everyone" in alice.inner_text(".rr-confirm:not(.rr-start-confirm)")
    alice.click("#confirm-yes")
    alice.wait_for_url(f"{base}/")
    assert alice.locator(f"#my-games li[data-game-id='{game.pk}']").count() == 0
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert alice_console.errors + bob_console.errors == []
