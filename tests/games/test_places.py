"""Final places reach the site: the stored state, the snapshot, the turn record and the finishing events."""


from games.models import Game, Hand
from games.selectors import snapshots, turns
from games.services import lobby, moves
from games.services import turns as turns_services
from tests.games.factories import started_game

HAND = ["B", "B", "1", "L", "R", "U", "L", "R", "2"]


PLAYERS = ("ann", "ben", "cat")  # the `players` fixture (tests/conftest.py)


def _play(game, programs):
    """Every seat still racing plays its program of `programs` (by seat number) from a fixed hand."""
    for seat in game.seats.filter(ejected_at__isnull=True).order_by("number"):
        if seat.number in programs:
            Hand.objects.filter(seat=seat, turn=game.turn).update(chips=HAND)
            moves.submit_program(user=seat.user, game_id=game.pk, turn=game.turn, chips=programs[seat.number])
    turns_services.resolve_turn(game_id=game.pk, turn=game.turn)
    game.refresh_from_db()


def test_a_game_won_by_the_last_bot_alive_gives_every_bot_its_place(courses, players):
    """Tiny Yard, one life: ann backs off the south edge in phase 1, ben in phase 3; cat only turns."""
    game = started_game(users=players, course=courses["tiny-yard"], lives=1)
    assert snapshots.game_snapshot(game=game, user=players[0])["places"] is None
    _play(game, {1: ["B", "L", "R", "L", "R"], 2: ["1", "B", "B", "L", "R"], 3: ["L", "R", "L", "R", "U"]})

    assert game.status == Game.Status.FINISHED and game.winner.number == 3
    places = {"3": 1, "2": 2, "1": 3}  # ben lost his last life later than ann
    assert game.state["places"] == places
    for user in (*players, None):
        assert snapshots.game_snapshot(game=game, user=user)["places"] == places
    assert turns.resolved_turn(game=game, number=1)["after"]["places"] == places
    resolved, finished = game.events.filter(kind__in=["turn_resolved", "game_finished"]).order_by("version")
    assert resolved.data["places"] == places
    assert finished.data == {"winner_seat": 3, "places": places}


def test_a_resignation_that_ends_the_game_ranks_the_resigning_bot_last(courses, players):
    """ann loses her only life in turn 1; in turn 2 cat resigns, so ben is the last bot in the race. cat
    outlasted ann but forfeits: she ranks below her (docs/rules.md "Final places")."""
    game = started_game(users=players, course=courses["tiny-yard"], lives=1)
    _play(game, {1: ["B", "L", "R", "L", "R"], 2: ["L", "R", "L", "R", "U"], 3: ["R", "L", "R", "L", "U"]})
    assert game.status == Game.Status.PROGRAMMING
    assert snapshots.game_snapshot(game=game, user=players[1])["places"] is None
    assert "places" not in game.state

    lobby.leave_game(user=players[2], game_id=game.pk)
    game.refresh_from_db()
    places = {"2": 1, "1": 2, "3": 3}
    assert game.status == Game.Status.FINISHED and game.winner.number == 2
    assert snapshots.game_snapshot(game=game, user=players[0])["places"] == places
    assert game.events.filter(kind="game_finished").get().data == {"winner_seat": 2, "places": places}
    assert {bot["id"]: bot.get("out") for bot in game.state["bots"]} == {"1": [1, 1], "2": None, "3": [2, 0]}
