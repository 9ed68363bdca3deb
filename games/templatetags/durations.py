"""{{ seconds|duration }}: 90 -> "1 min 30 s", 86400 -> "1 day"; {{ game|timer_figures }}: "2 min a move,
10 min game time" (or "no game time"); the lobby's timer figures; {{ "realtime"|preset_name }}: "Real-time"."""

from django import template

import engine
from games.models import Game
from roboracer.common import catalog

register = template.Library()


@register.filter
def duration(seconds) -> str:
    seconds = int(seconds or 0)
    parts = []
    for unit, size in (("day", 86400), ("h", 3600), ("min", 60), ("s", 1)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {unit}{'s' if unit == 'day' and count > 1 else ''}")
    return " ".join(parts[:2]) or "0 s"


@register.filter
def timer_figures(game) -> str:
    """A game's move and game time in words; a game without game time (0) says "no game time"."""
    game_time = f"{duration(game.game_time)} game time" if game.game_time else "no game time"
    return f"{duration(game.move_time)} a move, {game_time}"


@register.filter
def module_names(game) -> str:
    """The game's bot modules in words: "Modules: Shield, Turbo", "All 17 modules"."""
    names = list(game.modules or [])
    if len(names) == len(engine.MODULE_NAMES):
        return f"All {len(names)} modules"
    return "Modules: " + ", ".join(catalog.module_name(name) for name in names)


@register.filter
def preset_name(value) -> str:
    """A timer preset's name as players read it ("realtime" -> "Real-time"; the challenges card showed the stored
    value); an unknown value reads as the default's."""
    return Game.Preset(value).label if value in Game.Preset.values else Game.Preset.REALTIME.label
