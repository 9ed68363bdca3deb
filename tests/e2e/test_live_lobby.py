"""The lobby, live, through the real stack (uvicorn, the Redis channel layer, Chromium): bob sits on the
lobby while alice creates games; each public one appears without a reload (a private one never does), its
seat count follows when bob joins from another tab, it leaves Open games when it starts (and shows under
bob's My games, with his "your move"), a cancelled one disappears, and when messages were lost and the socket
dropped, the lobby reconnects by itself and resyncs from the server. No console errors. Screenshots of the lobby, desktop and phone; no sideways
scrolling on the phone."""

import json
import re

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import DESKTOP, PHONE, create_game, sign_up
from tests.helpers import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def new_game(page, base, *, seats, visibility="public"):
    page.goto(f"{base}/")
    page.select_option("#id_course", label="Tiny Yard")
    page.fill("#id_max_seats", str(seats))
    page.select_option("#id_visibility", visibility)
    return create_game(page, base)


def test_the_lobby_follows_games_live(live_stack, courses, new_page):
    base = live_stack.base_url
    alice, alice_console = new_page("alice", DESKTOP)
    bob, bob_console = new_page("bob", DESKTOP)
    # Bob's lobby socket goes through Playwright, which can drop what the server sends while `deaf` is on
    # (what a lost channel-layer message or a dead connection does) and cut the socket.
    deaf, lobby_sockets, dropped = {"on": False}, [], []

    def relay(ws):
        server = ws.connect_to_server()
        server.on_message(lambda message: dropped.append(message) if deaf["on"] else ws.send(message))
        lobby_sockets.append(ws)

    bob.route_web_socket(re.compile(r".*/ws/lobby/$"), relay)
    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")
    bob.wait_for_selector("#lobby-root[data-synced='1']")  # the lobby socket's first message was drawn
    assert bob.locator("#open-games-empty").is_visible()
    # With no games, a list stays out of the page after the live lobby drew (as the server leaves it out):
    # only its "none" line shows, so the first list on the page is never an empty, invisible one.
    assert bob.locator("#my-games-empty").is_visible()
    assert bob.locator("#my-games, #open-games").count() == 0

    # ---- a private game never shows; a public one appears, thumbnail and all, without a reload
    _, secret = new_game(alice, base, seats=2, visibility="private")
    game_url, game = new_game(alice, base, seats=3)
    row = bob.locator(f"#open-games li[data-game-id='{game.pk}']")
    row.wait_for()
    assert "1/3 seats" in row.inner_text() and "created by alice" in row.inner_text()
    row.locator(".thumb svg.rr-board").wait_for()
    assert bob.locator(f"li[data-game-id='{secret.pk}']").count() == 0
    assert bob.locator("#open-games-empty").is_hidden()

    # ---- bob takes a seat in another tab: the seat count changes, and the game is his too
    tab = bob.context.new_page()
    tab.goto(game_url)
    tab.click("#join-game")
    tab.wait_for_selector("#game-status")
    bob.wait_for_selector(f"#open-games li[data-game-id='{game.pk}']:has-text('2/3 seats')")
    bob.wait_for_selector(f"#my-games li[data-game-id='{game.pk}']:has-text('Lobby · 2/3 seats')")
    assert bob.locator("#my-games-empty").is_hidden()

    # ---- alice starts it: it leaves Open games, and bob's My games shows it running, his move
    alice.goto(game_url)
    alice.click("#start-game")
    alice.click("#start-confirm-yes")  # 2 of 3 seats taken: it asks first
    bob.wait_for_selector(f"#open-games li[data-game-id='{game.pk}']", state="detached")
    mine = bob.locator(f"#my-games li[data-game-id='{game.pk}']")
    bob.wait_for_selector(f"#my-games li[data-game-id='{game.pk}']:has-text('Programming, turn 1')")
    mine.locator(".badge:has-text('your move')").wait_for()

    # ---- a cancelled game disappears (and rows that did not change are left alone: same element, same focus)
    mine.locator("a").focus()
    mine.evaluate("li => { li.dataset.probe = 'kept'; }")
    doomed_url, doomed = new_game(alice, base, seats=2)
    bob.locator(f"#open-games li[data-game-id='{doomed.pk}']").wait_for()
    alice.goto(doomed_url)
    alice.click("#cancel-game")
    alice.click("#confirm-yes")
    alice.wait_for_url(f"{base}/")
    bob.wait_for_selector(f"#open-games li[data-game-id='{doomed.pk}']", state="detached")
    assert mine.get_attribute("data-probe") == "kept"
    assert bob.evaluate("() => document.activeElement?.closest('li')?.dataset.probe") == "kept"

    # ---- messages are lost, then the socket drops: on reconnect the lobby is read again and is whole
    deaf["on"] = True
    _, missed = new_game(alice, base, seats=2)

    def heard_about_missed() -> bool:
        return any(json.loads(message).get("game", {}).get("id") == missed.pk for message in dropped)

    # The server's message about the game reached bob's socket and was dropped there (Playwright delivers the
    # socket's messages while one of its calls runs: the poll waits with bob's page).
    wait_until(heard_about_missed, "the lobby's message about the new game", timeout=20,
               pause=lambda seconds: bob.wait_for_timeout(seconds * 1000))
    assert bob.locator(f"#open-games li[data-game-id='{missed.pk}']").count() == 0  # it was not heard
    deaf["on"] = False
    connections = len(lobby_sockets)
    lobby_sockets[-1].close()  # the browser sees its socket close, and reconnects by itself
    bob.locator(f"#open-games li[data-game-id='{missed.pk}']").wait_for()
    assert len(lobby_sockets) == connections + 1
    assert bob.locator(f"#my-games li[data-game-id='{game.pk}']").count() == 1

    # ---- screenshots: desktop, and a phone without sideways scrolling
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    bob.screenshot(path=str(ARTIFACTS / "live-lobby-desktop.png"), full_page=True)
    phone, phone_console = new_page("bob-phone", PHONE)
    phone.goto(f"{base}/accounts/login/")
    phone.fill("#id_username", "bob")
    phone.fill("#id_password", "a long passphrase 42")
    phone.click("#login-submit")
    phone.wait_for_selector("#lobby-root[data-synced='1']")
    phone.locator(f"#my-games li[data-game-id='{game.pk}'] .thumb svg.rr-board").wait_for()
    phone.screenshot(path=str(ARTIFACTS / "live-lobby-phone.png"), full_page=True)
    wide = phone.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map(e => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 8)""")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], wide
    assert alice_console.errors == [] and bob_console.errors == [] and phone_console.errors == []
