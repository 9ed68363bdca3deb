"""Arena remains (003 "Arena Remains"): what a dead bot leaves on the course, and who collects it.

"When a bot (not drone) dies, its remains will be dropped in the 9 squares nearest the point of death. A bot
collects remains immediately when at the same location as the remains (even mid-phase or mid-chip). For each
remains collected, the bot receives 1 repair and +100 battery charge. Remains dropped in pits are lost.
Remains are affected by elements (belts, pushers). Remains will be last in priority order. Multiple remains at
the same location at the end of a phase will be reduced to one. Remains dropped on live bots will be collected
by the bot with the earliest priority."

Within a turn each piece is a turn-local actor (`Turn.actors`, kind "remains", never in the result): the
elements that move actors (belts, pushers, teleporters, rails, magnets, oil, vents) move it as they move a
bomb, after every bot. Unlike a bomb, nothing hurts a piece (lasers pass over it, crushers and vents leave
it): it is only lost in a hole (pit, open trapdoor, opening screen, empty receptacle) or off the course. The
primitives' events for a piece become `remains_moved` (bot null); its other events are dropped. Between turns
the pieces are `State.remains`, one per square. docs/rules.md "Arena remains".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .modules.actions import REMAINS_BATTERY, collect_remains_battery
from .state import Bot
from .steps import runs_in

if TYPE_CHECKING:
    from .geometry import Square
    from .turn import Mover, Turn

KIND = "remains"
REMAINS_REPAIR = 1  # per piece (003 "Arena Remains")
_PREFIX = "~remains"  # piece ids: never in an event, never a bot id (bot ids are checked printable names)
# What the movement primitives emit for a moved piece -> `remains_moved` `by`; other events of a piece vanish.
_MOVED_BY = {"carried": "belt", "moved": "move", "slid": "oil", "teleported": "teleporter"}


def new_piece(turn: Turn, at: Square) -> Mover:
    from .turn import Mover

    turn.remains_serial += 1
    piece_id = f"{_PREFIX}{turn.remains_serial}"
    piece = Mover(
        Bot(id=piece_id, at=at, dir="N", spawn_at=at, spawn_dir="N", lives=1, virtual=True, battery=0),
        kind=KIND,
    )
    turn.actors[piece_id] = piece
    turn.remains_ids[piece_id] = None
    return piece


def pieces(turn: Turn) -> list[Mover]:
    """The pieces on the course, oldest first."""
    found = map(turn.actors.__getitem__, turn.remains_ids)
    return [piece for piece in found if piece.at is not None]


def collector(turn: Turn, at: Square) -> Mover | None:
    """The live bot (real or virtual, not a drone) with the earliest priority on `at`."""
    for bot in turn.bots_at(at):
        if bot.drone_of is None:
            return bot
    return None


def collect(turn: Turn, bot: Mover, count: int, at: Square) -> None:
    """`bot` collects `count` pieces on `at`: 1 repair and +100 battery each."""
    repaired = min(bot.damage, REMAINS_REPAIR * count)
    bot.damage -= repaired
    collect_remains_battery(bot, count)
    turn.emit(
        "remains_collected", bot.id, at=list(at), pieces=count, repaired=repaired, damage=bot.damage,
        battery=REMAINS_BATTERY * count,
    )  # fmt: skip


def bot_arrived(turn: Turn, bot: Mover) -> None:
    """A bot stands on a new square: it collects the pieces there at once."""
    if bot.drone_of is not None or bot.at is None:
        return
    at = bot.at
    found = [piece for piece in map(turn.actors.__getitem__, turn.remains_ids) if piece.at == at]
    if found:
        for piece in found:
            piece.at = None
        collect(turn, bot, len(found), at)


def piece_arrived(turn: Turn, piece: Mover) -> None:
    """A piece was moved onto a square: a bot there collects it at once."""
    bot = collector(turn, piece.at)
    if bot is not None:
        at = piece.at
        piece.at = None
        collect(turn, bot, 1, at)


def drop(turn: Turn, bot: Mover, where: Square | None) -> None:
    """A bot (not a drone) died at `where` in an arena: a piece on each of the 3x3 squares around it that is on
    the course (the point of death may be off the course: a bot that fell off its edge). A piece landing in a
    hole is lost; one landing on live bots goes to the first of them in priority."""
    if where is None or bot.drone_of is not None or turn.course.mode != "arena":
        return
    x, y = where
    on_course = turn.course.on_course
    squares = [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if on_course((x + dx, y + dy))]
    if not squares:
        return
    turn.emit("remains_dropped", bot.id, at=list(where), squares=[list(square) for square in squares])
    for square in squares:
        found = turn.hole(square)
        if found is not None:
            turn.emit("remains_lost", None, at=list(square), reason=found[1])
            continue
        taker = collector(turn, square)
        if taker is not None:
            collect(turn, taker, 1, square)
            continue
        new_piece(turn, square)


def translate(turn: Turn, type_: str, fields: dict[str, Any]) -> None:
    """An event a primitive emitted for a piece: a move becomes `remains_moved`, the rest is dropped."""
    if type_ == "pushed":
        by = fields.get("by") or "push"
    else:
        by = _MOVED_BY.get(type_)
        if by is None:
            return
    moved = {"from": fields["from"], "to": fields["to"], "by": by}
    if "sub" in fields:
        moved["sub"] = fields["sub"]
    turn.emit("remains_moved", None, **moved)


@runs_in("remains")
def merge_remains(turn: Turn) -> None:
    """End of every phase (and the start of the turn, for remains as given): pieces in a hole are lost, pieces
    sharing a square with a bot go to it (a bot teleported or respawned onto
    them), and several pieces on one square become one."""
    if not turn.remains_ids:
        return
    by_square: dict[Square, list[Mover]] = {}
    for piece in pieces(turn):
        by_square.setdefault(piece.at, []).append(piece)
    for at, group in by_square.items():
        found = turn.hole(at)  # only remains given in a state can be there (a pit, an open trapdoor)
        if found is not None:
            for piece in group:
                turn.lose_actor(piece, found[1], at)
            continue
        taker = collector(turn, at)
        if taker is not None:
            for piece in group:
                piece.at = None
            collect(turn, taker, len(group), at)
        elif len(group) > 1:
            for piece in group[1:]:
                piece.at = None
            turn.emit("remains_merged", None, at=list(at), pieces=len(group))


def remaining(turn: Turn) -> frozenset[Square]:
    return frozenset(piece.at for piece in pieces(turn))
