"""Tally's site adapter: the kind interface of games.kinds, answered over tests.games.third_kind.rules."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from rest_framework import serializers

from games.models import Game
from games.services.lobby import Settings
from games.services.moves import Move
from games.services.turns import Begin, Resolved
from roboracer.common.errors import Conflict, InvalidInput
from tests.games.third_kind import rules


class CreateTallySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[("tally", "Tally")])
    max_seats = serializers.IntegerField(min_value=2, max_value=4, default=2)
    visibility = serializers.ChoiceField(choices=Game.Visibility.choices, default=Game.Visibility.PUBLIC)

    def validate(self, attrs):
        attrs.pop("kind", None)
        return attrs


@dataclass(frozen=True)
class Outcome:
    winner: str | None
    places: dict


class Tally:
    name = "tally"
    title = "Tally"
    takes_chips = False
    move_noun = "picks"
    rated = False
    uses_courses = False
    max_table = 4
    resubmit_after_eject = False
    forfeit_words = "everyone else is out."
    animation_timing = None  # its screen's turn does not hold the clocks (animation_seconds)
    lobby_form = None  # created over the API only
    lobby_hint = ""

    def board_name(self, game) -> str:
        return self.title

    def min_players(self, game) -> int:
        return 2

    def summary(self, game) -> dict:
        return {"kind": self.name, "course": None, "course_id": None, "course_name": self.title}

    def computers_play(self, game) -> bool:
        return True

    def create_serializer(self, data):
        return CreateTallySerializer(data=data)

    def settings(self, *, user, use, computers, max_seats: int = 2, **_ignored) -> Settings:
        if not 2 <= max_seats <= 4:
            raise InvalidInput(f"Tally takes 2 to 4 players, not {max_seats}")
        return Settings(fields={"course": None, "course_data": {}, "max_seats": max_seats,
                                "seed": secrets.randbits(62), "rated": False}, use=use)

    def again(self, game) -> dict:
        return {"max_seats": game.max_seats}

    def outcome(self, state) -> Outcome:
        return Outcome(winner=state["winner"], places=rules.places(state))

    def load(self, game) -> dict:
        return game.state or {}

    def dump(self, state) -> dict:
        return state

    def begin(self, game, seats) -> Begin:
        return Begin(state=rules.new_game([seat.bot_id for seat in seats]), turn=1, event={"kind": self.name})

    def deal(self, game, state) -> dict:
        return rules.hands(state)

    def required_move(self, state, bot_id):
        return None

    def in_game(self, state, seat) -> bool:
        return any(p["id"] == seat.bot_id and not p["out"] for p in state["players"])

    def parse_move(self, game, data) -> tuple[int, Move]:
        if not isinstance(data, dict) or set(data) != {"turn", "pick"} or not isinstance(data["turn"], int):
            raise InvalidInput('a Tally move is {"turn": n, "pick": 1, 2 or 3}')
        return data["turn"], Move(chips=[data["pick"]], echo={"turn": data["turn"], "pick": data["pick"]})

    def check_move(self, game, state, seat, move, hand) -> Move:
        if hand is None:
            raise Conflict("you have nothing to pick this turn")
        problem = rules.pick_problem(state, seat.bot_id, move.chips[0])
        if problem:
            raise InvalidInput(problem)
        return move

    def complete(self, game, state, live, missing) -> list:
        return []

    def resolve(self, game, state, turn, programs) -> Resolved:
        picks = {program.seat.bot_id: program.chips[0] for program in programs}
        new_state, events = rules.play(state, picks)
        return Resolved(state=new_state, events=events, record={"seed": 0, "programs": picks},
                        public={"programs": picks})

    def after_resolution(self, game, turn, events) -> None:
        return None

    def finished(self, state) -> bool:
        return state["winner"] is not None

    def computer_think_seconds(self, game, seat) -> float:
        return 0.0

    def animation_seconds(self, events: list) -> float:
        """Its screen's animation of a turn does not hold the next turn's clocks (docs/game-kinds.md)."""
        return 0.0

    def remove(self, state, bot_ids) -> tuple:
        return rules.remove(state, bot_ids)

    def random_move(self, game, state, seat, hand, *, seed: int) -> Move:
        return Move(chips=[hand[seed % len(hand)]])

    def think(self, game, state, seat, hand, *, strength: str) -> Move:
        return Move(chips=[max(hand)])

    def private_context(self, *, game, state, seat_ids, hands=None) -> dict:
        return {}

    def public_fields(self, *, game, state, seats) -> dict:
        return {"tally": state or None}

    def viewer_fields(self, *, game, state, seat) -> dict:
        return {}

    def private_fields(self, *, game, state, seat, program, context) -> dict:
        return {"tally": {"pick": program.chips[0] if program is not None else None}}

    def public_turn(self, *, game, turn) -> dict:
        return {"turn": turn.number, "events": turn.events, "programs": turn.programs}


KIND = Tally()
