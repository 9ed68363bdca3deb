"""Game modes in the browser on the real stack (issue 16): an arena game played to its end by two players
(the last bot alive wins; the dead bot's remains are on the board; the results show the arena's standings),
and a solo puzzle started from the puzzle page and played to success with its shipped solution."""

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

import engine
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_modules import api
from tests.e2e.test_program_socket import expect_program

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SOLUTIONS = json.loads((Path(__file__).resolve().parents[1] / "engine" / "puzzle_solutions.json").read_text())


def click_program(page, program):
    """Click the hand's chips in the program's order (each chip the first unused one of its kind)."""
    hand = page.eval_on_selector_all("button.chip:not(.stored)", "els => els.map(e => e.dataset.chip)")
    used = set()
    for chip in program:
        index = next(i for i, c in enumerate(hand) if c == chip and i not in used)
        used.add(index)
        page.click(f"button.chip[data-index='{index}']")
    with expect_program(page) as answer:
        page.click("#submit-program")
    assert answer.value.status == 200, answer.value.text()


def ending_programs(game):
    """Programs for this turn, from the dealt hands, found with the engine as the worker will play the turn:
    bob's bot leaves the arena and alice's stays (None when this deal allows no such pair)."""
    from games.models import Hand

    state = engine.state_from_dict(game.state, engine.parse_course(game.course_data))
    hands = {h.seat.bot_id: h.chips for h in Hand.objects.filter(seat__game=game, turn=game.turn).select_related("seat")}
    seed = engine.derive_seed(game.seed, game.turn, "resolve")
    keep = sorted(set(itertools.permutations(hands["1"], 5)), key=lambda p: sum(c in "123B" for c in p))[:10]
    # Bob starts in the south-east corner facing north: backing up, or turning right or round and moving on,
    # takes him off the course.
    out = [p for p in sorted(set(itertools.permutations(hands["2"], 5)))
           if p[0] == "B" or (p[0] in "RU" and p[1] in "123")][:200]  # fmt: skip
    for mine in keep:
        for theirs in out:
            after, _ = engine.resolve_turn(state, {"1": list(mine), "2": list(theirs)}, seed)
            if after.winner == "1":
                return list(mine), list(theirs)
    return None


def waiting_programs(game):
    """Programs for a turn whose deal lets bob's bot leave while alice's stays by no pair `ending_programs`
    tries: a pair, found with the engine, after which both bots are still in the arena, so the game goes on to
    the next deal (issue 33: both players once played their hand's non-moves first, and alice's moves took
    her out of the arena; bob won). Each plays as few moves as the hand allows."""
    from games.models import Hand

    state = engine.state_from_dict(game.state, engine.parse_course(game.course_data))
    hands = {h.seat.bot_id: h.chips for h in Hand.objects.filter(seat__game=game, turn=game.turn).select_related("seat")}
    seed = engine.derive_seed(game.seed, game.turn, "resolve")
    fewest = {bot: sorted(set(itertools.permutations(hands[bot], 5)), key=lambda p: sum(c in "123B" for c in p))[:40]
              for bot in ("1", "2")}  # fmt: skip
    for mine in fewest["1"]:
        for theirs in fewest["2"]:
            after, _ = engine.resolve_turn(state, {"1": list(mine), "2": list(theirs)}, seed)
            if not after.finished:
                return list(mine), list(theirs)
    raise AssertionError("no tried pair of programs keeps both bots in the arena")


def test_an_arena_game_to_its_end(live_stack, courses, new_page):
    from games.models import Game
    from tests.e2e.test_play_three_turns import sign_up, wait_for_turn

    base = live_stack.base_url
    alice, alice_console = new_page("alice", {"width": 1366, "height": 900})
    bob, bob_console = new_page("bob", {"width": 390, "height": 844})
    for page, user in ((alice, "alice"), (bob, "bob")):
        sign_up(page, base, user)
    created = api(alice, "POST", "/api/games/", {"course": "scrap-pit", "max_seats": 2, "lives": 1})
    assert created["status"] == 201, created
    game_id = created["body"]["id"]
    assert api(bob, "POST", f"/api/games/{game_id}/join/")["status"] == 200
    for page in (alice, bob):
        page.goto(f"{base}/games/{game_id}/?speed=0")
        page.wait_for_selector("#game-mode:has-text('Arena: last bot alive wins')")
        page.wait_for_selector("#submit-program")
        # No reboot in an arena: the toggle is gone and the line says why.
        assert page.is_hidden("label.rr-reboot")
        assert "No rebooting in an arena" in page.inner_text("#rr-reboot-help")
    game = Game.objects.get(pk=game_id)
    for turn in range(1, 6):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        for page in (alice, bob):
            page.wait_for_selector(f"#game-status:has-text('Turn {turn} — programming')")
        programs = ending_programs(game)
        assert programs is not None or turn < 5, "no deal let the game end"
        if programs is None:  # a deal with no way out for bob: both stay in the arena, the game goes on
            programs = waiting_programs(game)
        for page, program in zip((alice, bob), programs, strict=True):
            click_program(page, program)
        wait_for_turn(game, turn)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.state["winner"] == "1"
    snap = api(alice, "GET", f"/api/games/{game_id}/")["body"]
    assert snap["standings_summary"] == "alice wins (last bot alive)"
    for page in (alice, bob):
        page.wait_for_selector("#results:not([hidden])")
        page.wait_for_selector("#results-standings li")
        rows = page.eval_on_selector_all("#results-standings li", "els => els.map(e => e.textContent)")
        assert rows[0].startswith("1st alice") and "last bot alive" in rows[0], rows
        assert rows[1].startswith("2nd bob") and "out in turn" in rows[1], rows
        assert page.inner_text(".rr-results-summary").startswith("alice wins (last bot alive) after")
        # The dead bot's remains, as the state has them (none when they all fell off or were collected).
        page.wait_for_function("n => document.querySelectorAll('.layer-remains g.remains').length === n",
                               arg=len(snap["remains"]))
    alice.screenshot(path=str(ARTIFACTS / "modes-arena-desktop.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "modes-arena-phone.png"), full_page=True)
    assert alice_console.errors == [] and bob_console.errors == []


def test_a_solo_puzzle_from_the_puzzle_page_to_success(live_stack, courses, new_page):
    from games.models import Game
    from tests.e2e.test_play_three_turns import sign_up, wait_for_turn

    base = live_stack.base_url
    slug = "puzzle-first-steps"
    page, console = new_page("solver", {"width": 390, "height": 844})
    sign_up(page, base, "solver")
    page.goto(f"{base}/puzzles/")
    card = page.locator(f"li.puzzle[data-slug='{slug}']")
    assert "0 tried" in card.inner_text() and "Reach check point 1 within 3 turns" in card.inner_text()
    page.screenshot(path=str(ARTIFACTS / "modes-puzzles-phone.png"), full_page=True)
    card.locator("button.play-puzzle").click()
    page.wait_for_url(f"{base}/games/*/")
    game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    page.goto(f"{page.url}?speed=0")
    page.wait_for_selector("#game-mode:has-text('Puzzle: Reach check point 1 within 3 turns')")
    for number, turn in enumerate(SOLUTIONS[slug], start=1):
        page.wait_for_selector(f"#game-status:has-text('Turn {number} — programming')")
        hand = page.eval_on_selector_all("button.chip:not(.stored)", "els => els.map(e => e.dataset.chip)")
        assert Counter(hand) == Counter(turn["hands"]["1"]), "every solver is dealt the puzzle's hands"
        click_program(page, turn["programs"]["1"])
        wait_for_turn(game, number)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.state["outcome"] == "solved"
    page.wait_for_selector("#results:not([hidden])")
    used = len(SOLUTIONS[slug])
    assert page.inner_text(".rr-results-summary") == f"Solved in {used} of 3 turns."
    assert f"solved in {used} of 3 turns" in page.inner_text("#results-standings")
    page.screenshot(path=str(ARTIFACTS / "modes-puzzle-solved-phone.png"), full_page=True)
    page.goto(f"{base}/puzzles/")
    card = page.locator(f"li.puzzle[data-slug='{slug}']")
    assert "1 tried" in card.inner_text() and "1 solved" in card.inner_text() and f"best: {used} turns" in card.inner_text()
    assert card.locator(f".puzzle-mine a[href='/games/{game.pk}/']").count() == 1
    page.set_viewport_size({"width": 1366, "height": 900})
    page.screenshot(path=str(ARTIFACTS / "modes-puzzles-desktop.png"), full_page=True)
    assert console.errors == []
