"""The course builder's test drive with an invited player, end to end in Chromium on the real stack: an author
saves a 2-player draft (through the API, with the page's own session and CSRF cookie), sets the editor's
test-drive seats to 2 and clicks Test drive; a private lobby opens; the author copies its invite link; a second
player opens it in another browser and takes a seat; the game starts (a full lobby starts by itself, so the
author's Start button, offered from the first seat on, is only checked to be there); both see
the draft's board, both submit a program and the turn resolves where the engine says. A signed-up stranger
without the link gets a 404 for the game, its API and a wrong invite code."""

import pytest

from games.models import Game, Hand
from roboracer.courses.models import Course
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_play_three_turns import (
    PHONE,
    engine_result,
    program_by_clicks_and_drag,
    program_by_keyboard,
    sign_up,
    wait_for_bots,
    wait_for_turn,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DESKTOP = {"width": 1280, "height": 900}

# A 6x6 course for exactly two: two starts at the bottom, a belt line, a pit, a wall and two check points.
DRAFT = {
    "format": "roboracer-course/1",
    "name": "Invite Alley",
    "width": 6,
    "height": 6,
    "mode": "race",
    "players": [2, 2],
    "elements": [
        {"type": "start", "at": [1, 5], "number": 1, "dir": "N"},
        {"type": "start", "at": [4, 5], "number": 2, "dir": "N"},
        {"type": "checkpoint", "at": [2, 0], "number": 1},
        {"type": "checkpoint", "at": [5, 1], "number": 2},
        {"type": "belt", "at": [3, 3], "dir": "N", "speed": 1, "curves_from": []},
        {"type": "belt", "at": [3, 2], "dir": "N", "speed": 1, "curves_from": []},
        {"type": "pit", "at": [0, 2]},
        {"type": "wall", "at": [2, 3], "side": "E"},
    ],
}


def csrf_headers(page):
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    return {"X-CSRFToken": token, "Referer": page.url}


def no_sideways_scroll(page):
    assert page.evaluate("() => document.documentElement.scrollWidth") <= page.viewport_size["width"]


def draft_board(page):
    """How many of each element the page's board draws (its size checked: the draft's 6x6)."""
    board = page.locator("svg.rr-board").first
    board.locator("g.el-checkpoint >> nth=1").wait_for()
    counts = {kind: board.locator(f"g.el-{kind}").count() for kind in ("start", "checkpoint", "belt", "pit")}
    width, height = (float(v) for v in board.get_attribute("viewBox").split()[2:])
    assert width == height and 600 <= width < 700  # 6x6 squares of 100 units, and the board's frame
    return counts


def test_test_drive_lobby_invite_join_and_one_turn(live_stack, courses, new_page):
    base = live_stack.base_url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    ada, ada_console = new_page("ada", DESKTOP)
    bob, bob_console = new_page("bob", DESKTOP)
    cat, cat_console = new_page("cat", PHONE)
    for page, user in ((ada, "ada"), (bob, "bob"), (cat, "cat")):
        sign_up(page, base, user)

    # ---- the author saves a 2-player draft with the API, on the page's own session
    answer = ada.request.post(f"{base}/api/courses/", data={"data": DRAFT}, headers=csrf_headers(ada))
    assert answer.status == 201, answer.text()
    slug = answer.json()["slug"]
    course = Course.objects.get(slug=slug)
    assert course.state == "private" and course.author.username == "ada"
    assert (course.min_players, course.max_players) == (2, 2)

    # ---- the editor: 2 seats, Test drive: a private lobby on the draft, ada in seat 1
    ada.goto(f"{base}/courses/{slug}/edit/")
    ada.wait_for_selector("#editor-root[data-ready='1'] svg.rr-board")
    assert ada.get_attribute("#ed-seats", "max") == "2"
    ada.fill("#ed-seats", "2")
    ada.click("#ed-test-drive")
    ada.wait_for_url(f"{base}/games/*/")
    game_url = ada.url
    game = Game.objects.get(pk=int(game_url.rstrip("/").rsplit("/", 1)[1]))
    assert game.test_drive and game.visibility == Game.Visibility.PRIVATE and game.course_id == course.pk
    assert (game.status, game.max_seats, game.course_data["elements"]) == (Game.Status.LOBBY, 2, DRAFT["elements"])
    assert [(s.number, s.user.username) for s in game.seats.order_by("number")] == [(1, "ada")]
    ada.wait_for_selector("#game-status:has-text('Lobby — waiting for players (1 of 2 seated)')")
    ada.wait_for_selector("a:has-text('Back to the editor')")
    assert ada.is_visible("#start-game")  # a test drive may start with whoever is seated, even alone

    # ---- the invite link, copied with its button
    ada.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    ada.wait_for_selector("#invite-url", state="visible")
    shown = ada.input_value("#invite-url")
    assert shown == f"{base}/games/{game.pk}/invite/{game.invite_code}/"
    ada.click("#copy-invite")
    ada.wait_for_selector(".rr-invite:has-text('Copied.')")
    invite = ada.evaluate("() => navigator.clipboard.readText()")
    assert invite == shown

    # ---- the lobby on a phone: the invite link readable, nothing wider than the screen
    ada.set_viewport_size(PHONE)
    ada.evaluate("() => window.scrollTo(0, 0)")
    ada.locator("#invite-url").scroll_into_view_if_needed()
    box = ada.locator("#copy-invite").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    no_sideways_scroll(ada)
    ada.evaluate("() => window.scrollTo(0, 0)")
    ada.screenshot(path=str(ARTIFACTS / "course-test-drive-invite-phone.png"), full_page=True)
    ada.set_viewport_size(DESKTOP)

    # ---- a stranger without the link: the game, its API and a wrong code are all a 404
    assert cat.goto(game_url).status == 404
    assert cat.request.get(f"{base}/api/games/{game.pk}/").status == 404
    wrong = game.invite_code[:-1] + ("y" if game.invite_code.endswith("x") else "x")  # never the code itself
    assert cat.goto(f"{base}/games/{game.pk}/invite/{wrong}/").status == 404
    assert cat.request.post(f"{base}/games/{game.pk}/join/", headers=csrf_headers(cat)).status == 404
    assert game.seats.count() == 1

    # ---- bob opens the link in his own browser and takes a seat: the lobby is full, the race starts
    bob.goto(invite)
    assert "ada invites you to a private race: 1/2 seats taken" in bob.inner_text("main")
    bob.locator(".thumb svg.rr-board").wait_for()  # the invite shows the draft itself
    bob.click("#invite-join")
    bob.wait_for_url(game_url)
    game.refresh_from_db()
    assert [(s.number, s.user.username) for s in game.seats.order_by("number")] == [(1, "ada"), (2, "bob")]
    assert game.status == Game.Status.PROGRAMMING and game.turn == 1
    assert cat.goto(game_url).status == 404  # still private once running
    assert bob.goto(invite).url == game_url  # a seated player's invite link goes to the game

    # ---- both see the draft's board: 6x6, its elements, two robots on the starts
    expected_board = {"start": 2, "checkpoint": 2, "belt": 2, "pit": 1}
    hands = {}
    for page, user in ((ada, "ada"), (bob, "bob")):
        page.wait_for_selector("#game-status:has-text('Turn 1 — programming')")
        page.wait_for_selector("#invite-url", state="hidden")  # a running game has nothing to invite to
        assert draft_board(page) == expected_board
        assert sorted(page.eval_on_selector_all("g.bot", "els => els.map(e => [e.dataset.x, e.dataset.y])")) == [
            ["1", "5"], ["4", "5"]]
        hands[user] = Hand.objects.get(seat__game=game, seat__user__username=user, turn=1).chips
        page.wait_for_function("n => document.querySelectorAll('button.chip').length === n", arg=len(hands[user]))
        assert page.eval_on_selector_all("button.chip", "els => els.map(e => e.dataset.chip)") == hands[user]

    # ---- both program; the last submission resolves the turn, both pages end where the engine says
    ada_program = program_by_keyboard(ada, hands["ada"])
    bob_program = program_by_clicks_and_drag(bob, hands["bob"])
    record = wait_for_turn(game, 1)
    assert record.programs == {"1": ada_program, "2": bob_program}
    expected = engine_result(game, record)
    for page in (ada, bob):
        wait_for_bots(page, expected)
        page.wait_for_selector("#game-status:has-text('Turn 2')")
        page.wait_for_selector("#game-root[data-animating='0']")
        assert page.locator("#turn-log tbody tr").count() >= 2
    ada.screenshot(path=str(ARTIFACTS / "course-test-drive-invite-desktop.png"), full_page=True)

    assert ada_console.errors + bob_console.errors == []
    assert [e for e in cat_console.errors if "404" not in e] == []  # the refused page load logs its 404
