"""Phone, Zoom board (issue 37, item 5): zooming in puts my robot in view, and while a turn plays the zoomed
board follows it. Maglev Freightyard (16x24) on a 390x844 phone, my robot moved to a far corner.
Screenshots: var/test-artifacts/zoom-follow-*.png."""

import json

import pytest

import engine
from games.models import Game, Hand
from games.services import moves
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_screen_layout import PHONE, signed_in_page
from tests.games.factories import started_game
from tests.helpers import wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.animated, pytest.mark.django_db(transaction=True)]

INSIDE = """([bot, box]) => { const b = document.querySelector(bot).getBoundingClientRect();
  const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
  const r = document.querySelector(box).getBoundingClientRect();
  return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom; }"""


def far_start(game, bot_id, programs) -> dict:
    """The game's state with my robot put where this turn takes it furthest (at least 6 squares), alive."""
    course = engine.parse_course(game.course_data)
    seed = engine.derive_seed(game.seed, 1, "resolve")
    best, best_state = 0, None
    for x in range(0, course.width, 2):
        for y in range(0, course.height, 2):
            for heading in "NESW":
                state = json.loads(json.dumps(game.state))
                mine = next(bot for bot in state["bots"] if bot["id"] == bot_id)
                if any(bot["at"] == [x, y] for bot in state["bots"] if bot["id"] != bot_id):
                    continue
                mine["at"], mine["dir"] = [x, y], heading
                try:
                    after, _ = engine.resolve_turn(engine.state_from_dict(state, course), programs, seed)
                except engine.InputError:
                    continue
                end = next(bot for bot in after.bots if bot.id == bot_id)
                if end.at is None or end.lives < mine["lives"]:
                    continue
                far = max(abs(end.at[0] - x), abs(end.at[1] - y))
                if far > best:
                    best, best_state = far, state
    assert best >= 6, f"no start takes my robot far enough ({best})"
    return best_state


def test_zoom_keeps_my_robot_in_view_and_follows_it(live_stack, new_page, courses, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(users=[alice, bob], course=courses["maglev-freightyard"])
    me = game.seats.get(user=alice)
    # A start square and heading from which this turn's programs carry my robot far (found with the engine, as
    # the worker will resolve it): a box that did not follow would lose it.
    hand = Hand.objects.get(seat=me, turn=1).chips
    order = sorted(range(len(hand)), key=lambda i: (hand[i] not in ("3", "2", "1"), i))
    program = [hand[i] for i in order[:5]]
    other_seat = game.seats.get(user=bob)
    other = Hand.objects.get(seat=other_seat, turn=1).chips[:5]
    state = far_start(game, me.bot_id, {me.bot_id: program, other_seat.bot_id: other})
    Game.objects.filter(pk=game.pk).update(state=state)
    page, console = signed_in_page(new_page, live_stack.base_url, alice, PHONE)
    page.goto(f"{live_stack.base_url}/games/{game.pk}/?speed=2")
    page.wait_for_selector("button.chip >> nth=4")
    page.wait_for_load_state("networkidle")
    robot, box = f"g.bot[data-bot='{me.bot_id}']", ".rr-board-scroll"
    page.click("#board-zoom")
    page.wait_for_selector(".rr-zoomed")
    page.wait_for_function(INSIDE, arg=[robot, box])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "zoom-follow-zoomed.png"))
    # The turn: every move chip of my hand first.
    moves.submit_program(user=alice, game_id=game.pk, turn=1, chips=program)
    moves.submit_program(user=bob, game_id=game.pk, turn=1, chips=other)
    wait_until(lambda: Game.objects.get(pk=game.pk).turn == 2, "the turn to be resolved", timeout=30)
    page.wait_for_selector("#game-root[data-animating='1']", timeout=15_000)
    outside = page.evaluate("""([robot, box]) => new Promise(done => {
      const found = [];
      const check = () => {
        const b = document.querySelector(robot).getBoundingClientRect(), r = document.querySelector(box).getBoundingClientRect();
        const x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
        if (x < r.left || x > r.right || y < r.top || y > r.bottom) {
          found.push([Math.round(x), Math.round(y), Math.round(r.left), Math.round(r.top), Math.round(r.right),
                      Math.round(r.bottom), document.querySelector('#phase-status')?.textContent || '']);
        }
      };
      const timer = setInterval(check, 100);
      const stop = () => { if (document.querySelector('#game-root').dataset.animating === '0') {
        clearInterval(timer); done(found); } else setTimeout(stop, 100); };
      stop();
    })""", [robot, box])
    seen_outside = len(outside)
    print("out of the box:", outside)
    page.screenshot(path=str(ARTIFACTS / "zoom-follow-after-turn.png"))
    assert page.evaluate(INSIDE, [robot, box])
    assert seen_outside <= 3, f"my robot was out of the zoomed box in {seen_outside} checks"
    assert not console.errors, console.errors
