"""The rating history as a small SVG line chart, computed here and drawn by the template (no chart library:
a polyline, a few labels)."""

from __future__ import annotations

from datetime import date, datetime

# User units; the SVG scales to its box (at most 480 px wide, ratings.css), so 13-unit labels read at about
# 11 px on a phone and 15 px on a desktop.
WIDTH, HEIGHT = 400, 170
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 42, 10, 10, 26


def history_chart(*, start: int, history: list[dict]) -> dict | None:
    """The chart of `history` ([{"at", "rating"}...], oldest first) after a starting rating `start`: the view
    box, the polyline's points, one dot per game, and the y axis' labels (lowest, highest). None without
    games."""
    if not history:
        return None
    values = [start] + [point["rating"] for point in history]
    low, high = min(values), max(values)
    if high - low < 20:  # a flat line sits in the middle of a 20-point band
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    step = inner_w / (len(values) - 1)

    def y(value: float) -> float:
        return round(PAD_TOP + (high - value) / (high - low) * inner_h, 1)

    points = [(round(PAD_LEFT + index * step, 1), y(value)) for index, value in enumerate(values)]
    dots = [
        {"x": x, "y": py, "rating": value, "at": history[index - 1]["at"], "day": _day(history[index - 1]["at"]),
         "number": index, "change": value - values[index - 1],
         # The hover label sits above the dot, or below it near the top; kept inside the box sideways.
         "label_x": min(max(x, PAD_LEFT + 80), WIDTH - PAD_RIGHT - 80), "label_y": py - 12 if py > PAD_TOP + 24 else py + 22}
        for index, ((x, py), value) in enumerate(zip(points, values, strict=True)) if index > 0
    ]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": PAD_LEFT,
        "right": WIDTH - PAD_RIGHT,
        "top": PAD_TOP,
        "bottom": HEIGHT - PAD_BOTTOM,
        "label_y": HEIGHT - 6,
        "points": " ".join(f"{x},{py}" for x, py in points),
        "dots": dots,
        "high": round(high),
        "low": round(low),
        "games": len(history),
        "first": values[0],
        "last": values[-1],
        # The x axis' ends in dates (issue 38 item 14): the first rated game's day and the last's.
        "first_day": dots[0]["day"],
        "last_day": dots[-1]["day"],
    }


def _day(at) -> str:
    """A point's day as players read it: "28 Nov 2026" (an ISO string or a date)."""
    if isinstance(at, str):
        try:
            at = datetime.fromisoformat(at)
        except ValueError:
            return at[:10]
    if isinstance(at, (date, datetime)):
        return f"{at.day} {at:%b %Y}"
    return ""
