"""RoboRacer (seed 003 and the other rulesets of `engine/`) as a game kind: the adapter over the services and
selectors that play it (docs/game-kinds.md)."""

from __future__ import annotations

from games import services
from games.kinds.roboracer import selectors
from games.models import Game
from games.selectors import seats
from roboracer.common.errors import InvalidInput
from roboracer.courses.models import Course


class RoboRacer:
    name = "roboracer"
    title = "RoboRacer"
    takes_chips = True  # programs of chips from a dealt hand, sent to /program/
    rated = True  # rated as roboracer.ratings.selectors.is_rated says

    # -- the lobby ------------------------------------------------------------------------------------------
    def board_name(self, game) -> str:
        if Game.course.is_cached(game):
            return game.course.name
        # Only the name: the course row's layout is not read on every deal (docs/performance.md).
        return Course.objects.filter(pk=game.course_id).values_list("name", flat=True).first() or ""

    def min_players(self, game) -> int:
        return game.course.min_players

    def summary(self, game) -> dict:
        return {"kind": self.name, "course": game.course.slug, "course_id": game.course_id,
                "course_name": game.course.name}

    def computers_play(self, game) -> bool:
        return game.course_data.get("mode", "race") in seats.COMPUTER_MODES

    def create_serializer(self, data):
        from games.api.serializers import CreateGameSerializer

        return CreateGameSerializer(data=data)

    def create_game(self, *, user, **fields):
        from games.api.views import create_roboracer_game

        return create_roboracer_game(user=user, **fields)

    # -- games the site seats itself (tournaments) ---------------------------------------------------------
    uses_courses = True  # a tournament draws each table's course from its pool
    max_table = 8

    def seated_game(self, *, creator, users: list, computers: list, courses: list, rng, options: dict):
        """A tournament table's game: a course of the pool that seats the table, drawn with `rng`."""
        size = len(users) + len(computers)
        fitting = [c for c in courses if c.min_players <= size <= c.max_players] or courses
        return services.create_seated_game(creator=creator, users=users, course=rng.choice(fitting),
                                           computers=computers, **options)

    def outcome(self, game):
        """The finished game's state as `game_finished` receivers read it (`places`, `winner`)."""
        import engine

        return engine.state_from_dict(game.state, engine.parse_course(game.course_data))

    def recreate(self, game, *, user):
        return services.recreate_roboracer(game, user=user)

    # -- a game's life ----------------------------------------------------------------------------------------
    def start(self, game) -> None:
        services.start_roboracer(game)

    def in_game(self, game, seat) -> bool:
        return services._state(game).bot(seat.bot_id).in_game

    def submit_move(self, *, user, game_id: int, data: dict):
        raise InvalidInput(f"a RoboRacer game takes programs at /api/games/{game_id}/program/")

    def resolve(self, game, turn: int):
        return services.resolve_roboracer_turn(game, turn)

    def eject(self, game, seats, *, by: str, reason: str, by_name: str = "") -> list[int]:
        return services.eject_roboracer(game, services._state(game), seats, by=by, reason=reason, by_name=by_name)

    def play_random(self, game, seats, now) -> None:
        services.play_random_roboracer(game, seats, now)

    def computer_move(self, game, seat):
        return services.roboracer_computer_turn(game, seat)

    # -- what viewers see ---------------------------------------------------------------------------------------
    def private_context(self, *, game, state: dict, seat_ids: list[int], hands: dict | None = None) -> dict:
        return selectors.roboracer_private_context(game=game, state=state, seat_ids=seat_ids, hands=hands)

    def public_fields(self, *, game, state: dict, seats: list) -> dict:
        return selectors.roboracer_public_fields(game=game, state=state, seats=seats)

    def viewer_fields(self, *, game, state: dict, seat) -> dict:
        return {}

    def private_fields(self, *, game, state: dict, seat, program, context: dict) -> dict:
        return selectors.roboracer_private_fields(game=game, state=state, seat=seat, program=program, context=context)

    def public_turn(self, *, game, turn) -> dict:
        return selectors.roboracer_turn(game=game, turn=turn)


KIND = RoboRacer()
