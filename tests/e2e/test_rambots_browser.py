"""RAMbots in the browser on the real stack (issue 21): uvicorn, the Celery worker, Redis and Chromium, three people
in three browser contexts (ada on a desktop, bob on a phone, cy on a desktop).

ada creates a three-player RAMbots game with the lobby's form; bob and cy join from the game's page and it
starts. Each builds the goal stack for their left neighbour by tapping pool pieces and sending it; nobody's page
shows another's stack. Then the race to the last goal is set up on the board (the test moves the pieces in the
database, as a shortcut past many rounds): ada has tagged three goals, and her last goal's colour stands upright
on the square her bot faces. In the browser ada lays one piece pointing that way and compiles; bob compiles
nothing, cy too. The round runs, ada's bot RAMs the upright piece, tags her fourth goal and wins: every page
shows the results with ada first.

Screenshots (var/test-artifacts/rambots-*.png)."""

import json
import re

import pytest

from games.models import Game, Program
from tests.conftest import ROOT
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import sign_up
from tests.helpers import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
# The Speedbots draft's autosave delay (frontend/src/rambots/panel.ts).
DRAFT_DELAY_MS = int(re.search(r"DRAFT_DELAY_MS = (\d+)", (ROOT / "frontend/src/rambots/panel.ts").read_text())[1])


def shoot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"rambots-{name}.png"), full_page=True)


def no_sideways_scroll(page):
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]


def build_goal_stack(page):
    """Tap one pool piece of each colour (the first offered) and send the stack; what was sent, top first."""
    page.wait_for_selector("#ram-goals-submit")
    for colour in ("red", "yellow", "green", "blue"):
        page.locator(f".ram-pool .ram-piece[data-piece$='-{colour}']:not([disabled])").first.click()
    sent = page.eval_on_selector_all(".ram-goal-stack .ram-goal[data-piece]", "els => els.map(e => e.dataset.piece)")
    page.click("#ram-goals-submit")
    return sent


def test_three_players_play_rambots_to_a_winner(live_stack, new_page):
    base = live_stack.base_url
    ada, ada_console = new_page("ada", DESKTOP)
    bob, bob_console = new_page("bob", PHONE)
    cy, cy_console = new_page("cy", DESKTOP)
    for page, name in ((ada, "ada"), (bob, "bob"), (cy, "cy")):
        sign_up(page, base, name)

    # ada picks RAMbots in the lobby's form and creates a game for three.
    ada.check("#create-kind input[value='rambots']")
    ada.fill("#id_rambots-max_seats", "3")
    shoot(ada, "lobby-desktop")
    ada.click("#create-rambots-submit")
    ada.wait_for_url(f"{base}/games/*/")
    game = Game.objects.get(pk=int(ada.url.rstrip("/").rsplit("/", 1)[1]))
    assert game.kind == "rambots" and game.max_seats == 3
    for page in (bob, cy):
        page.goto(f"{base}/games/{game.pk}/")
        page.click("#join-game")
        page.wait_for_url(f"{base}/games/{game.pk}/")
    wait_until(lambda: Game.objects.get(pk=game.pk).status == Game.Status.PROGRAMMING, "the start")

    # The goal step: each builds a stack in the browser.
    stacks = {}
    for page, name in ((ada, "ada"), (bob, "bob"), (cy, "cy")):
        page.goto(f"{base}/games/{game.pk}/")
        stacks[name] = build_goal_stack(page)
        assert len(stacks[name]) == 4
        wait_until(lambda name=name: Program.objects.filter(seat__game=game, seat__user__username=name, turn=0).exists(),
                   f"{name}'s goal stack")
    shoot(bob, "goals-sent-phone")
    stored = {p.seat.user.username: p.chips for p in Program.objects.filter(seat__game=game, turn=0)}
    assert stored == stacks
    wait_until(lambda: Game.objects.get(pk=game.pk).turn == 1, "the goal step to resolve")
    # bob built cy's stack: cy sees it now that every stack is built, ada sees only its top.
    for page in (ada, cy):
        page.reload()
        page.wait_for_selector("#ram-compile")
    cy_text = json.dumps(cy.evaluate("() => fetch(location.pathname.replace('/games/', '/api/games/'))"
                                     ".then(r => r.json())"))
    ada_view = ada.evaluate("() => fetch(location.pathname.replace('/games/', '/api/games/')).then(r => r.json())")
    assert json.dumps(stacks["bob"]) in cy_text
    cy_player = next(p for p in ada_view["rambots"]["players"] if p["id"] == "3")
    assert cy_player["goals"] is None and cy_player["goal_top"] == stacks["bob"][0]

    # Set up the last goal: ada (seat 1) has tagged three; the colour of her last goal stands upright ahead of her.
    game.refresh_from_db()
    state = game.state
    me = next(p for p in state["players"] if p["id"] == "1")
    last = me["goals"][-1]
    me["pool"] = sorted(me["pool"] + me["goals"][:-1])
    me["goals"], me["tagged"] = [last], 3
    me["bot"] = {"at": [2, 2], "dir": "E"}
    colour = last.split("-")[1]
    others = [p for p in state["players"] if p["id"] != "1"]
    for index, player in enumerate(others):
        player["bot"]["at"] = [7, 7 - index]
    for index, beacon in enumerate(state["beacons"]):
        beacon["at"] = [3, 2] if beacon["colour"] == colour else [0, 5 + index % 3] if index < 3 else [5, 7]
        beacon["dir"] = "up" if beacon["colour"] == colour else "N"
    squares = [tuple(b["at"]) for b in state["beacons"]] + [tuple(p["bot"]["at"]) for p in state["players"]]
    assert len(set(squares)) == len(squares)
    Game.objects.filter(pk=game.pk).update(state=state)

    # ada lays one piece pointing east and compiles; bob and cy compile nothing.
    ada.reload()
    ada.wait_for_selector("#ram-compile")
    ada.locator(".ram-pool .ram-piece").first.click()
    ada.click(".ram-slot[data-slot='0'] .ram-dir[data-dir='E']")
    shoot(ada, "program-desktop")
    ada.click("#ram-compile")
    for page in (bob, cy):
        page.reload()
        page.wait_for_selector("#ram-compile")
        page.click("#ram-compile")
    shoot(bob, "compiled-phone")
    wait_until(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, "the winning round")
    game.refresh_from_db()
    assert game.winner.user.username == "ada"
    assert next(p for p in game.state["players"] if p["id"] == "1")["tagged"] == 4

    for page, name in ((ada, "desktop"), (bob, "phone")):
        page.wait_for_selector("#results:not([hidden])", timeout=40_000)
        assert "ada" in page.inner_text("#results")
        shoot(page, f"results-{name}")
    no_sideways_scroll(bob)
    for console in (ada_console, bob_console, cy_console):
        assert [e for e in console.errors if "favicon" not in e] == []


def test_a_person_plays_a_whole_rambots_game_against_two_computers(live_stack, new_page):
    """No shortcut: erin creates a three-player game with two Normal computer players in the lobby's form, builds
    her goal stack, then plays every round from the browser (a piece of her pool pointing at the board's centre,
    or nothing when her pool is empty) until somebody tags their fourth goal; the results show the winner."""
    base = live_stack.base_url
    page, console = new_page("erin", PHONE)
    sign_up(page, base, "erin")
    page.check("#create-kind input[value='rambots']")
    page.fill("#id_rambots-max_seats", "3")
    page.fill("#id_rambots-computers", "2")
    page.select_option("#id_rambots-strength", "normal")
    page.click("#create-rambots-submit")
    page.wait_for_url(f"{base}/games/*/")
    game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert [s.computer for s in game.seats.order_by("number")] == ["", "normal", "normal"]
    # Instant playback, as a player in a hurry may choose (the first test watches rounds at 1x): a busy machine's
    # slow animation must not hold the next round's Compile past the waits below.
    page.goto(f"{page.url.split('?')[0]}?speed=0")
    build_goal_stack(page)
    for _ in range(40):
        wait_until(lambda: Game.objects.get(pk=game.pk).status in (Game.Status.PROGRAMMING, Game.Status.FINISHED)
                   and Game.objects.get(pk=game.pk).turn > 0, "the next round")
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        turn = game.turn
        page.wait_for_selector("#ram-compile:not([disabled])", timeout=40_000)
        piece = page.locator(".ram-pool .ram-piece:not([disabled])")
        if piece.count():
            piece.first.click()
            page.click(".ram-slot[data-slot='0'] .ram-dir[data-dir='S']")
        page.click("#ram-compile")
        wait_until(lambda turn=turn: Game.objects.get(pk=game.pk).turn > turn
                   or Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, f"round {turn} to run")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner is not None, f"no winner after {game.turn} rounds"
    winner = next(p for p in game.state["players"] if p["id"] == game.winner.bot_id)
    assert winner["tagged"] == 4 and winner["goals"] == []
    page.wait_for_selector("#results:not([hidden])", timeout=40_000)
    assert game.winner.user.profile.display_name in page.inner_text("#results") or \
        game.winner.user.username in page.inner_text("#results")
    shoot(page, "whole-game-results-phone")
    no_sideways_scroll(page)
    assert [e for e in console.errors if "favicon" not in e] == []


def test_a_program_compiled_on_one_page_shows_on_the_other_and_is_not_undone(live_stack, new_page):
    """ada has a Speedbots game open on her desktop and her phone. She compiles on the desktop: the phone takes the
    compiled program from the server (locked, with Uncompile), and sends nothing of its own, so the program
    stays compiled. (A stale page's draft once uncompiled it.)"""
    from django.contrib.auth import get_user_model

    from games.services import lobby, moves
    from tests.e2e.test_computer_players_browser import log_in

    users = [get_user_model().objects.create_user(name, password="a long passphrase 42") for name in ("ada", "bob", "cy")]
    game = lobby.create_game(user=users[0], kind="rambots", max_seats=3, options={"speedbots": True})
    for user in users[1:]:
        lobby.join_game(user=user, game_id=game.pk)
    for user in users:
        seat = game.seats.get(user=user)
        pool = next(p for p in Game.objects.get(pk=game.pk).state["players"] if p["id"] == seat.bot_id)["pool"]
        stack = [next(piece for piece in pool if piece.endswith(colour)) for colour in ("red", "yellow", "green", "blue")]
        moves.submit_move(user=user, game_id=game.pk, data={"turn": 0, "goals": stack})
    wait_until(lambda: Game.objects.get(pk=game.pk).turn == 1, "the goal step to resolve")

    desktop, desktop_console = new_page("ada-desktop", DESKTOP)
    phone, phone_console = new_page("ada-phone", PHONE)
    base = live_stack.base_url
    for page in (desktop, phone):
        log_in(page, base, "ada")
        page.goto(f"{base}/games/{game.pk}/")
        page.wait_for_selector("#ram-compile:not([disabled])")
    sent = []
    phone.on("request", lambda r: r.url.endswith("/move/") and sent.append(r.post_data))
    piece = desktop.locator(".ram-pool .ram-piece:not([disabled])").first.get_attribute("data-piece")
    desktop.locator(f".ram-pool .ram-piece[data-piece='{piece}']").first.click()
    desktop.click(".ram-slot[data-slot='0'] .ram-dir[data-dir='E']")
    desktop.click("#ram-compile")
    wait_until(lambda: Program.objects.filter(seat__game=game, seat__number=1, turn=1).exists(), "the compile")
    phone.wait_for_selector(f".ram-slot.filled[data-slot='0'][data-piece='{piece}'][data-dir='E']")
    phone.wait_for_selector("#ram-uncompile")
    assert phone.locator(".ram-pool .ram-piece:not([disabled])").count() == 0
    phone.locator(".ram-pool .ram-piece").first.click(force=True)  # a tap on the locked pool does nothing
    # Had the tap edited the program, its draft would be on its way now: the page's autosave timer (set by the
    # tap) fires before a timer of the same delay set after it, and the draft's request starts before a request
    # the page sends after that (Playwright reports requests in the order the page starts them).
    phone.evaluate("""delay => new Promise(done => setTimeout(done, delay))
                      .then(() => fetch('/api/auth/csrf/'))""", DRAFT_DELAY_MS)
    assert sent == []
    assert Program.objects.get(seat__game=game, seat__number=1, turn=1).chips == [{"piece": piece, "dir": "E"}]
    shoot(phone, "second-page-compiled-phone")
    for console in (desktop_console, phone_console):
        assert [e for e in console.errors if "favicon" not in e] == []
