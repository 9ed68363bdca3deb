"""RoboRacer's part of what viewers see: the bots, the board, the hands and programs, the modes, a resolved turn."""

from __future__ import annotations

from typing import Any

import engine
from engine.state import board_from_dict
from games.models import Game, Hand, Program, Scan, Seat, Turn
from games.selectors import puzzles

# Bot modules are public: 003 shows every bot's module, charges and battery in the status panel. Never the
# stored chip nor scan_due (the owner's `me` has them).
SNAPSHOT_BOT_FIELDS = (
    "id", "at", "dir", "damage", "lives", "next_checkpoint", "virtual", "rebooting", "battery", "module", "drone_of",
)
MODE_BOT_FIELDS = ("team", "target",  # game modes (issue 16): only on the bots that have them
                   "powered_down", "power_down_next", "upgrades", "upgrade_state")  # classic (issue 19)


def roboracer_private_context(*, game: Game, state: dict, seat_ids: list[int], hands: dict | None = None) -> dict:
    """What RoboRacer snapshots read once for all their viewers: their hands (unless the caller has them: a
    deal's), scans and bots."""
    if hands is None:
        hands = {hand.seat_id: hand.chips for hand in Hand.objects.filter(seat_id__in=seat_ids, turn=game.turn)}
    else:
        hands = {seat_id: chips for seat_id, chips in hands.items() if seat_id in seat_ids}
    # A Scanner's results, each for its owner alone; read only when the game has Scanners (one query).
    scans = (
        {scan.seat_id: scan for scan in Scan.objects.filter(seat_id__in=seat_ids, turn=game.turn)}
        if seat_ids and engine.modules.scanning(game.modules) and game.status == Game.Status.PROGRAMMING else {}
    )
    bots = {bot["id"]: bot for bot in state.get("bots", [])} if seat_ids else {}
    return {"hands": hands, "scans": scans, "bots": bots}


def roboracer_public_fields(*, game: Game, state: dict, seats: list) -> dict:
    """The RoboRacer part of every viewer's snapshot: the bots, the board, the modules, the modes."""
    return {
        "lives": game.lives,
        "bots": _public_bots(state),
        "board": _public_board(state),
        "priority": state.get("priority", []),
        "radiation": state.get("radiation", []),
        "winner": state.get("winner"),
        "places": state.get("places"),
        "modules": list(game.modules),
        "prices": dict(state.get("prices") or {}),
        **modes_snapshot(game=game, state=state, seats=seats),  # game modes (issue 16; docs/modes.md)
    }


def roboracer_private_fields(*, game: Game, state: dict, seat: Seat, program: Program | None, context: dict) -> dict:
    """The RoboRacer part of a player's own `me`: the hand, the program, the frozen registers, the modules."""
    bot = context["bots"].get(seat.bot_id, {})
    return {
        "hand": context["hands"].get(seat.pk, []),
        "program": program.chips if program else None,
        "reboot": program.reboot if program else False,
        "frozen": _frozen(state, seat.bot_id),
        **_private_modules(bot, program, context["scans"].get(seat.pk)),
        **_private_classic(bot, program),
    }


def _private_modules(bot: dict, program: Program | None, scan: Scan | None) -> dict:
    """The module part of a player's own `me`: the action sent with this turn's program (after a scan, the
    Scanner's activation even before a program is sent), the stored chip, whether a Scanner's charge is due,
    and the latest scan of this turn. Never in anyone else's snapshot."""
    action = program.action if program is not None else None
    if scan is not None and action is None:
        action = {"activate": {}}
    return {
        "action": action,
        "stored_chip": bot.get("stored_chip"),
        "scan_due": bool(bot.get("scan_due", False)),
        "scan": {"turn": scan.turn, "programs": scan.programs} if scan is not None else None,
    }


def _private_classic(bot: dict, program) -> dict:
    """classic (000): the owner's own upgrade switches, the instruction its flywheel saved (it is in the hand:
    hidden from the others) and the power down it asked for with this turn's program."""
    if "upgrade_use" not in bot:
        return {}
    action = (program.action or {}) if program else {}
    return {"upgrade_use": bot.get("upgrade_use", {}), "saved_chip": bot.get("saved_chip"),
            "power_down": bool(action.get("power_down"))}  # fmt: skip


def _public_bots(state: dict) -> list[dict]:
    """The bots as anyone may see them (SNAPSHOT_BOT_FIELDS): position, facing, damage, lives, progress, and
    whether the bot sits this turn out rebooting (asked for with last turn's program, revealed when it ran)."""
    return [
        {**{key: bot.get(key) for key in SNAPSHOT_BOT_FIELDS}, **{key: bot[key] for key in MODE_BOT_FIELDS if key in bot}}
        for bot in (state or {}).get("bots", [])
    ]


def roboracer_turn(*, game: Game, turn: Turn) -> dict:
    """A resolved RoboRacer turn: the bots before and after, the events, and the programs (revealed once the
    turn ran)."""
    return {
        "turn": turn.number,
        "events": turn.events,
        "programs": turn.programs,
        "reboots": turn.reboots,
        "actions": public_actions(ruleset=game.ruleset, actions=turn.actions),
        "before": _public_state(turn.state_before),
        "after": _public_state(turn.state_after),
        "report": _turn_report(game, turn),
    }


def public_actions(*, ruleset: str, actions: dict | None) -> dict:
    """A resolved turn's actions as every viewer sees them ({bot id: action}): what every player saw happen, never
    what only the owner may see (classic's flywheel instruction, circuit breaker threshold: docs/api.md)."""
    shown = engine.rulesets.get(ruleset).public_action
    if shown is None:
        return dict(actions or {})
    public = {bot_id: shown(action) for bot_id, action in (actions or {}).items()}
    return {bot_id: action for bot_id, action in public.items() if action is not None}


def _turn_report(game: Game, turn) -> Any:
    """The rule document's own report of the turn (001's per-stage table, 000's register report), a view of the
    public events; None for the rulesets without one (docs/rulesets.md)."""
    rules = engine.rulesets.get(game.ruleset)
    if rules.report is None:
        return None
    state = engine.state_from_dict(turn.state_before, engine.parse_course(game.course_data))
    return rules.report(state, turn.events)


def _public_state(state: dict) -> dict:
    return {
        "bots": _public_bots(state),
        "board": _public_board(state),
        "priority": state.get("priority", []),
        "radiation": state.get("radiation", []),
        "places": state.get("places"),
        "remains": state.get("remains", []),
        "winning_team": state.get("winning_team"),
        "outcome": state.get("outcome"),
    }


def _public_board(state: dict) -> dict:
    """What the elements remember (broken tiles, downed force fields...), with only the revealed part of the
    teleporter loop (engine.public_board)."""
    return engine.public_board(board_from_dict((state or {}).get("board", {})))


def _frozen(state: dict, bot_id: str) -> list[dict]:
    for bot in state.get("bots", []):
        if bot["id"] == bot_id:
            ruleset = state.get("ruleset", engine.rulesets.DEFAULT)
            frozen = engine.frozen_registers(engine.bot_from_dict(bot, ruleset=ruleset), ruleset)
            return [{"register": index, "chip": chip} for index, chip in sorted(frozen.items())]
    return []


MODE_TEXT = {"race": "Race", "arena": "Arena: last bot alive wins", "puzzle": "Puzzle"}


def ruleset_snapshot(*, game: Game) -> dict:
    """What the game screen needs to know of the game's rules (docs/rulesets.md): its name and title, the rule
    document, whether cards carry numbers, the damage that destroys a bot and whether anything damages one at
    all, whether a destruction costs a robot,
    and the game's options."""
    rules = engine.rulesets.get(game.ruleset)
    return {
        "name": rules.name, "title": rules.title, "document": rules.document, "numbered": rules.numbered,
        "max_damage": rules.max_damage, "damage": rules.damage, "counts_lives": rules.counts_lives,
        "modules": rules.modules,
        "options": {**rules.options, **(game.options or {})},
    }  # fmt: skip


def modes_snapshot(*, game: Game, state: dict, seats: list) -> dict:
    """The game mode's part of the snapshot (docs/modes.md): the mode, team play, arena remains, the puzzle and
    its outcome, whether reboots exist, the game's ruleset, and once the game is over the mode's standings."""
    rules = engine.rulesets.get(game.ruleset)
    course = game.course_data or {}
    mode = course.get("mode", "race")
    puzzle = course.get("puzzle") if mode == "puzzle" else None
    out = {
        "mode": mode,
        "mode_text": MODE_TEXT.get(mode, mode),
        "teams": game.teams,
        "remains": state.get("remains", []),
        "winning_team": state.get("winning_team"),
        "outcome": state.get("outcome"),
        "can_reboot": mode != "arena" and rules.reboots,
        "ruleset": ruleset_snapshot(game=game),
        "puzzle": None if puzzle is None else {
            "goal": puzzle.get("goal"),
            "goal_text": puzzles.puzzle_goal_text(puzzle),
            "turn_limit": puzzle.get("turn_limit"),
            "players": puzzle.get("players", 1),
            "description": puzzle.get("description", ""),
            "targets": [target["id"] for target in puzzle.get("targets", [])],
            "turns_used": max(0, (state.get("turn") or 1) - 1) if state else 0,
        },
        "standings": None,
        "standings_summary": None,
    }
    if game.status == Game.Status.FINISHED and state:
        out["standings"], out["standings_summary"] = standings(game=game, state=state, seats=seats, mode=mode)
        if rules.awards:  # 000's end-of-race awards, from the whole race's turn log (docs/rulesets.md)
            names = {seat.bot_id: seat.user.username if seat.user_id else seat.bot_id for seat in seats}
            turns = [turn.events for turn in game.turns.order_by("number")]
            out["awards"] = [
                {**entry, "players": [names.get(bot_id, bot_id) for bot_id in entry["bots"]]}
                for entry in engine.reports.awards([seat.bot_id for seat in seats], turns)
            ]
    return out


def standings(*, game: Game, state: dict, seats: list, mode: str) -> tuple[list[dict], str]:
    """The results of a finished game as its mode ranks them: races by final place, arenas by survival (last
    alive first, then the reverse order of going out), team games with the winning team first, puzzles by the
    outcome and the turns used."""
    by_bot = {seat.bot_id: seat for seat in seats}
    bots = [bot for bot in state.get("bots", []) if not bot.get("drone_of") and not bot.get("target")]
    places = state.get("places") or {}
    turns_used = max(0, (state.get("turn") or 1) - 1)
    winner = state.get("winner")
    winning_team = state.get("winning_team")

    def row(bot, place, detail):
        seat = by_bot.get(bot["id"])
        return {
            "place": place, "bot": bot["id"], "seat": seat.number if seat else None,
            "user": seat.user.get_username() if seat else None, "team": bot.get("team"), "detail": detail,
        }  # fmt: skip

    if mode == "puzzle":
        outcome = state.get("outcome")
        limit = ((game.course_data or {}).get("puzzle") or {}).get("turn_limit")
        text = (f"Solved in {turns_used} of {limit} turns" if outcome == "solved"
                else f"Failed after {turns_used} turn{'s' if turns_used != 1 else ''}")  # fmt: skip
        rows = [row(bot, 1, text.lower()) for bot in bots]
        return rows, text

    if mode == "arena":
        ordered = sorted(bots, key=lambda bot: (bot["id"] != winner, places.get(bot["id"], 99)))
        rows = []
        for bot in ordered:
            out = bot.get("out")
            if bot["id"] == winner:
                detail = "last bot alive"
            elif out is None:
                detail = "still standing"
            else:
                detail = f"out in turn {out[0]}" + (", ejected" if bot.get("ejected") else "")
            rows.append(row(bot, places.get(bot["id"]), detail))
    else:
        ordered = sorted(bots, key=lambda bot: places.get(bot["id"], 99))
        rows = [
            row(bot, places.get(bot["id"]), "completed the course" if bot["id"] == winner
                else f"{max(0, bot.get('next_checkpoint', 1) - 1)} check point(s)")
            for bot in ordered
        ]  # fmt: skip
    if state.get("winning_team") is not None or any(bot.get("team") for bot in bots):
        rows.sort(key=lambda r: (r["team"] != winning_team, r["place"] or 99))
        summary = f"{winning_team.capitalize()} team wins" if winning_team else "No team won"
        return rows, summary
    if winner is not None:
        seat = by_bot.get(winner)
        name = seat.user.get_username() if seat else winner
        return rows, f"{name} wins" + (" (last bot alive)" if mode == "arena" else "")
    return rows, "No winner"
