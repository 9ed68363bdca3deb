"""Reports: views of a turn's events in the shapes the rule documents print them. Pure functions of the
state before the turn and the turn's events; nothing here changes a rule.

`stage_table` is 001's per-stage table ("How the board works"): for each stage and robot its mode, the card
it played, what moved it (its card, pushes, "obstruction encountered"), the mechanisms that acted on it, its
combat, its hit points and its check points; then the end of the turn (mode, reinstate square, flags, reboot).
Squares are written as 001 writes them, `r<row>c<column>`, column 1 the westernmost, row 1 the southernmost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import rulesets
from .geometry import DIRECTIONS, neighbour

MECHANISM_CAUSES = {"pit": "pit", "belt": "conveyor", "pusher": "pusher", "turntable": "gear", "crusher": "crusher",
                    "laser": "laser turret", "fence": "fence", "edge": "fell off the board"}  # fmt: skip


def square_name(at: Sequence[int] | None, height: int) -> str:
    if at is None:
        return "-"
    return f"r{height - at[1]}c{at[0] + 1}"


def _line(squares: list[Sequence[int]], height: int) -> str:
    """Squares a shot passes, as 001 writes them: r4-6c7 for a column, r4c5-7 for a row."""
    if not squares:
        return "-"
    cols = sorted({sq[0] + 1 for sq in squares})
    rows = sorted({height - sq[1] for sq in squares})
    if len(cols) == 1 and len(rows) > 1:
        return f"r{rows[0]}-{rows[-1]}c{cols[0]}"
    if len(rows) == 1 and len(cols) > 1:
        return f"r{rows[0]}c{cols[0]}-{cols[-1]}"
    return square_name(squares[0], height)


def _shot_squares(event: dict[str, Any]) -> list[Sequence[int]]:
    first, last = event.get("from"), event.get("to")
    if first is None or last is None:
        return []
    squares, at = [tuple(first)], tuple(first)
    for _ in range(128):
        if at == tuple(last):
            break
        dx, dy = (last[0] > at[0]) - (last[0] < at[0]), (last[1] > at[1]) - (last[1] < at[1])
        at = (at[0] + dx, at[1] + dy)
        squares.append(at)
    return squares


def stage_table(state: Any, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """001's report of one turn: {"stages": [{"stage": n, "robots": {id: row}}], "end": {id: row}}."""
    height, hp_max = state.course.height, rulesets.get(state.ruleset).max_damage
    ids = [bot.id for bot in state.bots]
    mode = {bot.id: "destroyed" if bot.at is None else ("virtual" if bot.virtual else "real") for bot in state.bots}
    hp = {bot.id: hp_max - bot.damage for bot in state.bots}
    flags = {bot.id: bot.next_checkpoint - 1 for bot in state.bots}
    reinstate = {bot.id: square_name(bot.spawn_at, height) for bot in state.bots}
    reboot: set[str] = set()
    stages: list[dict[str, Any]] = []
    rows: dict[str, dict[str, Any]] = {}

    def row(bot_id: str) -> dict[str, Any]:
        return rows.setdefault(bot_id, {"mode": mode[bot_id], "cards": "-", "push": [], "mechanisms": [],
                                        "combat": [], "hp": hp[bot_id], "checkpoints": []})  # fmt: skip

    phase = 0
    for event in events:
        if event.get("phase") != phase and event.get("step") not in ("respawn", "priority", "repairs", "winning"):
            if rows:
                stages.append({"stage": phase, "robots": {i: rows[i] for i in ids if i in rows}})
            phase, rows = event.get("phase", phase), {}
            for bot_id in ids:
                row(bot_id)
        kind, bot_id = event["type"], event.get("bot")
        if bot_id not in mode:
            continue  # a turret's shot: its damage shows on the robots it hit
        if event.get("step") in ("respawn", "priority", "repairs", "winning"):
            if kind == "respawned":
                mode[bot_id] = "virtual" if event.get("virtual") else "real"
                hp[bot_id] = hp_max
            elif kind == "repaired":
                hp[bot_id] = hp_max - event["damage"]
            elif kind == "reboot_next":
                reboot.add(bot_id)
            continue
        here = row(bot_id)
        if kind == "chip":
            here["cards"] = f"{event['chip']}@{event['number']}" if "number" in event else event["chip"]
        elif kind == "moved":
            here["push"].append(f"move to {square_name(event['to'], height)}")
        elif kind == "pushed" and event.get("by") in mode:
            here["push"].append(f"pushed to {square_name(event['to'], height)}")
        elif kind == "blocked" and event.get("step") == "chips":
            here["push"].append("obstruction encountered")
        elif kind == "rotated" and event.get("cause") == "chip":
            here["push"].append(f"face {event['to']}")
        elif kind in ("carried", "pushed", "rotated"):
            cause = "belt" if kind == "carried" else event.get("by") if kind == "pushed" else event.get("cause")
            here["mechanisms"].append(MECHANISM_CAUSES.get(cause, cause))
        elif kind == "damaged":
            hp[bot_id] = hp_max - event["damage"]
            here["hp"] = hp[bot_id]
            if event.get("cause") != "bot laser":
                here["mechanisms"].append(f"{MECHANISM_CAUSES.get(event['cause'], event['cause'])} -{event['amount']} HP")
        elif kind == "repaired":
            hp[bot_id] = hp_max - event["damage"]
            here["hp"] = hp[bot_id]
        elif kind == "destroyed":
            mode[bot_id] = here["mode"] = "destroyed"
            here["mechanisms"].append(f"destroyed ({MECHANISM_CAUSES.get(event['cause'], event['cause'])})")
        elif kind == "real":
            mode[bot_id] = here["mode"] = "real"
        elif kind == "shot" and event.get("source") == "bot":
            names = ", ".join(event.get("hit", [])) or "no hit"
            here["combat"].append(f"{_line(_shot_squares(event), height)}: {names}")
        elif kind == "checkpoint":
            flags[bot_id] = event["number"]
            here["checkpoints"].append(f"flag {event['number']}")
        elif kind == "reinstate_point":
            reinstate[bot_id] = square_name(event["at"], height)
            here["checkpoints"].append(f"reinstate {reinstate[bot_id]}")
        elif kind == "register_fused":
            here["mechanisms"].append(f"register {event['register']} fused ({event['card']})")
    if rows:
        stages.append({"stage": phase, "robots": {i: rows[i] for i in ids if i in rows}})
    end = {bot_id: {"mode": mode[bot_id], "reinstate": reinstate[bot_id], "flags": flags[bot_id],
                    "hp": hp[bot_id], "reboot": bot_id in reboot} for bot_id in ids}  # fmt: skip
    return {"stages": [stage for stage in stages if stage["stage"]], "end": end}



# --- 000's views: the register report and the end-of-race awards ------------------------------------------

_HEADING = {neighbour((0, 0), heading): heading for heading in DIRECTIONS}  # one square's step -> its heading


def _letter(event: dict[str, Any]) -> str:
    dx, dy = event["to"][0] - event["from"][0], event["to"][1] - event["from"][1]
    return _HEADING.get((dx, dy), "?")


def register_report(state: Any, events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """000's report of a round, register by register: each robot's damage, its move (its instruction, and N, E,
    S or W for each square it was pushed or carried, in the order it happened: "S,B" is pushed south, then
    backed up) and notes ("Pushed by a"), the robots in that register's priority order."""
    damage = {bot.id: bot.damage for bot in state.bots}
    ids = [bot.id for bot in state.bots]
    registers: list[dict[str, Any]] = []
    rows: dict[str, dict[str, Any]] = {}
    order: list[str] = list(state.priority)
    phase = None
    for event in events:
        if event.get("phase") != phase:
            if rows:
                registers.append(_register(phase, order, rows, damage))
            phase, rows = event.get("phase"), {bot_id: {"move": [], "notes": []} for bot_id in ids}
        kind, bot_id = event["type"], event.get("bot")
        if kind == "register_order":
            order = list(event["order"]) + [i for i in order if i not in event["order"]]
        if bot_id not in rows:
            continue
        row = rows[bot_id]
        if kind == "chip":
            row["move"].append(event["chip"])
        elif kind in ("pushed", "carried"):
            row["move"].append(_letter(event))
            if kind == "pushed" and event.get("by") in rows:
                row["notes"].append(f"Pushed by {event['by']}")
        elif kind in ("damaged", "repaired"):
            damage[bot_id] = event["damage"]
        elif kind == "destroyed":
            damage[bot_id] = 0
            row["notes"].append(f"Destroyed ({event['cause']})")
        elif kind in ("checkpoint", "finished", "powered_down", "upgraded"):
            note = {"checkpoint": f"Touched flag {event.get('number')}", "finished": f"Finished {event.get('place')}",
                    "powered_down": "Powered down", "upgraded": f"Upgraded: {event.get('upgrade')}"}[kind]  # fmt: skip
            row["notes"].append(note)
        elif kind == "respawned":
            damage[bot_id] = event.get("damage", damage[bot_id])
    if rows:
        registers.append(_register(phase, order, rows, damage))
    return [register for register in registers if register["register"]]


def _register(phase: Any, order: list[str], rows: dict, damage: dict) -> dict[str, Any]:
    return {"register": phase, "rows": [
        {"name": bot_id, "dmg": damage[bot_id], "move": ",".join(rows[bot_id]["move"]), "notes": rows[bot_id]["notes"]}
        for bot_id in order if bot_id in rows
    ]}  # fmt: skip


AWARDS = (
    # (key, title, the figure, the best is the most (True) or the least (False))
    ("pacifist", "Pacifist robot: dealt the least damage", "dealt", False),
    ("terminator", "Terminator robot: dealt the most damage", "dealt", True),
    ("shover", "Shover robot: pushed the most robots to their doom", "kills", True),
    ("friendly", "Friendly robot: pushed the fewest robots to their doom", "kills", False),
    ("camouflaged", "Camouflaged robot: took the least damage", "taken", False),
    ("swiss_cheese", "Swiss cheese robot: took the most damage", "taken", True),
    ("clumsy", "Clumsy robot: fell off the board the most", "falls", True),
    ("cautious", "Cautious robot: fell off the board the least", "falls", False),
    ("energizer", "Energizer robot: powered down the least", "power_downs", False),
    ("hibernating", "Hibernating robot: powered down the most", "power_downs", True),
    ("best_record", "Best damage record (dealt - taken)", "record", True),
    ("worst_record", "Worst damage record (dealt - taken)", "record", False),
)
KILL_DAMAGE = 3  # 000: "pushing a player and causing them to die counts as 3 damage"


def race_figures(bot_ids: Sequence[str], turns: Sequence[Sequence[dict[str, Any]]]) -> dict[str, dict[str, int]]:
    """Per robot, over the race's turns: damage dealt (its lasers and rams, 3 for each robot it pushed to its
    death), robots pushed to their doom, damage taken, falls (into a pit or off the edge), power downs."""
    figures = {bot_id: dict.fromkeys(("dealt", "kills", "taken", "falls", "power_downs"), 0) for bot_id in bot_ids}
    for events in turns:
        pushed_by: dict[str, tuple[Any, str]] = {}  # robot -> (phase, the robot that last pushed it)
        for event in events:
            kind, bot_id = event["type"], event.get("bot")
            if bot_id not in figures:
                continue
            if kind == "pushed" and event.get("by") in figures:
                pushed_by[bot_id] = (event.get("phase"), event["by"])
            elif kind == "damaged":
                figures[bot_id]["taken"] += event["amount"]
                if event.get("by") in figures:
                    figures[event["by"]]["dealt"] += event["amount"]
            elif kind == "destroyed":
                if event.get("cause") in ("pit", "edge"):
                    figures[bot_id]["falls"] += 1
                    phase, pusher = pushed_by.get(bot_id, (None, None))
                    if pusher is not None and phase == event.get("phase") and pusher != bot_id:
                        figures[pusher]["kills"] += 1  # the last robot to push it (in the register it fell)
                        figures[pusher]["dealt"] += KILL_DAMAGE
            elif kind == "powered_down":
                figures[bot_id]["power_downs"] += 1
    for values in figures.values():
        values["record"] = values["dealt"] - values["taken"]
    return figures


def awards(bot_ids: Sequence[str], turns: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """000's end-of-race awards that the game itself can decide (not "Smart" and "Confused", which need a
    judge): each with its winners (every robot tied on the best figure) and the figure."""
    figures = race_figures(bot_ids, turns)
    out = []
    for key, title, figure, most in AWARDS:
        values = {bot_id: figures[bot_id][figure] for bot_id in bot_ids}
        best = max(values.values()) if most else min(values.values())
        out.append({"award": key, "title": title, "bots": [b for b in bot_ids if values[b] == best], "value": best})
    return out
