"""Time that is fair (issue 37, item 1): the next turn's move clocks start once the turn just resolved has been
shown, its animation at 1x from the one timing table (games/kinds/roboracer/timing.json) that the browser
reads too, at most 60 s after the resolution. Programming early is allowed and costs no time; it starts no
one's clock early."""

from datetime import timedelta

from django.utils import timezone

from games import clocks
from games.kinds.roboracer import timing
from games.models import Game, GameEvent, Seat, Turn
from games.services import moves, turns
from tests.games.factories import legal_program, started_game

MS = timing.table()["events_ms"]


def test_a_turns_length_is_its_groups_one_after_another():
    events = [
        # chips: one robot after the other
        {"phase": 1, "step": "chips", "type": "chip", "bot": "a"},
        {"phase": 1, "step": "chips", "type": "moved", "bot": "a"},
        {"phase": 1, "step": "chips", "type": "chip", "bot": "b"},
        {"phase": 1, "step": "chips", "type": "rotated", "bot": "b"},
        # lasers: every robot at once, each its own chain: the longest chain counts
        {"phase": 1, "step": "lasers", "type": "shot", "bot": "a"},
        {"phase": 1, "step": "lasers", "type": "shot", "bot": "b"},
        {"phase": 1, "step": "lasers", "type": "damaged", "bot": "b"},
        # two belt sub-phases are two groups
        {"phase": 1, "step": "belts", "sub": 1, "type": "carried", "bot": "a"},
        {"phase": 1, "step": "belts", "sub": 2, "type": "carried", "bot": "a"},
        # an event the screen does not animate takes no time
        {"phase": 1, "step": "end", "type": "tile_broken"},
    ]
    chips = MS["chip"] + MS["moved"] + MS["chip"] + MS["rotated"]
    lasers = max(MS["shot"], MS["shot"] + MS["damaged"])
    assert timing.animation_ms(events) == chips + lasers + 2 * MS["carried"]
    assert timing.animation_ms([]) == 0


def test_the_wait_is_at_most_a_minute():
    assert clocks.animation_wait(8.5) == 8.5
    assert clocks.animation_wait(95.0) == clocks.MAX_ANIMATION_WAIT == 60
    assert clocks.animation_wait(-1) == 0


def _resolve_first_turn(game, users):
    for user in users:
        moves.submit_program(user=user, game_id=game.pk, turn=1, chips=legal_program(game, user))
    before = timezone.now()
    turns.resolve_turn(game_id=game.pk, turn=1)
    return before, Turn.objects.get(game=game, number=1)


def test_the_next_turns_clocks_start_after_the_animation(courses, make_user):
    users = [make_user("alice"), make_user("bob")]
    game = started_game(users=users, course=courses["bolt-bay"])
    before, turn = _resolve_first_turn(game, users)
    after = timezone.now()
    wait = timing.animation_ms(turn.events) / 1000
    assert 3 < wait < 60  # two robots' five phases take seconds to show
    game.refresh_from_db()
    assert before + timedelta(seconds=wait) <= game.clocks_from <= after + timedelta(seconds=wait)
    for seat in Seat.objects.filter(game=game):
        assert seat.clock_started_at == game.clocks_from
        assert seat.deadline == game.clocks_from + timedelta(seconds=seat.move_left + seat.game_left)
    # The clocks event says so: running, not counting yet, and when it starts.
    reading = GameEvent.objects.filter(game=game, kind="clocks").last().data
    for seat in reading["seats"]:
        assert seat["clock_running"] and seat["move_left"] == 120
        assert abs(seat["starts_in"] - wait) < 1.0


def test_programming_during_the_animation_costs_no_time_and_starts_no_clock(courses, make_user):
    users = [make_user("alice"), make_user("bob")]
    game = started_game(users=users, course=courses["bolt-bay"])
    _resolve_first_turn(game, users)
    game.refresh_from_db()
    alice = Seat.objects.get(game=game, user=users[0])
    # Alice skipped the animation and sends her program before the clocks start: her move time is whole.
    moves.submit_program(user=users[0], game_id=game.pk, turn=2, chips=legal_program(game, users[0]))
    alice.refresh_from_db()
    assert alice.clock_started_at is None and alice.move_left == 120 and alice.game_left == 600
    # Bob's clock has not started early because of her.
    bob = Seat.objects.get(game=game, user=users[1])
    assert bob.clock_started_at == game.clocks_from > timezone.now()
    assert clocks.left_at(bob, timezone.now()).move == 120


def test_the_first_turns_clocks_start_at_once(courses, make_user):
    users = [make_user("alice"), make_user("bob")]
    before = timezone.now()
    game = started_game(users=users, course=courses["bolt-bay"])
    for seat in Seat.objects.filter(game=game):
        assert before <= seat.clock_started_at <= timezone.now()
    reading = GameEvent.objects.filter(game=game, kind="clocks").last().data
    assert all("starts_in" not in seat for seat in reading["seats"])
    assert Game.objects.get(pk=game.pk).clocks_from is None or Game.objects.get(pk=game.pk).clocks_from <= timezone.now()
