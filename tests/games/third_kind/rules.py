"""Tally's rules, pure like an engine package (the standard library only; every step returns a new state).

Two to four players. Each turn every player still in picks 1, 2 or 3 from their hand; the picks are added to
their totals at once. The first turn that ends with a total of TARGET or more ends the game: the highest total
wins, a tie going to the player listed first. A player removed from the game is out; the last one in wins.
"""

from __future__ import annotations

TARGET = 7
PICKS = (1, 2, 3)


def new_game(player_ids: list[str]) -> dict:
    return {"players": [{"id": pid, "total": 0, "out": False} for pid in player_ids], "winner": None}


def hands(state: dict) -> dict[str, list[int]]:
    return {p["id"]: list(PICKS) for p in state["players"] if not p["out"]}


def pick_problem(state: dict, player_id: str, pick) -> str | None:
    if isinstance(pick, bool) or pick not in PICKS:
        return "pick: 1, 2 or 3"
    if not any(p["id"] == player_id and not p["out"] for p in state["players"]):
        return "that player is out"
    return None


def play(state: dict, picks: dict[str, int]) -> tuple[dict, list[dict]]:
    players = [dict(p, total=p["total"] + picks.get(p["id"], 0)) if not p["out"] else dict(p)
               for p in state["players"]]
    events = [{"type": "picked", "bot": pid, "pick": pick} for pid, pick in sorted(picks.items())]
    winner = None
    if any(p["total"] >= TARGET for p in players if not p["out"]):
        winner = max((p for p in players if not p["out"]), key=lambda p: p["total"])["id"]
        events.append({"type": "won", "bot": winner})
    return {"players": players, "winner": winner}, events


def remove(state: dict, player_ids: list[str]) -> tuple[dict, list[dict]]:
    players = [dict(p, out=p["out"] or p["id"] in player_ids) for p in state["players"]]
    left = [p for p in players if not p["out"]]
    winner = left[0]["id"] if len(left) == 1 else state["winner"]
    return {"players": players, "winner": winner}, [{"type": "out", "bot": pid} for pid in player_ids]


def places(state: dict) -> dict[str, int]:
    ordered = sorted(state["players"], key=lambda p: (p["id"] != state["winner"], p["out"], -p["total"]))
    return {p["id"]: index for index, p in enumerate(ordered, start=1)}
