"""{{ seconds|duration }}: 90 -> "1 min 30 s", 86400 -> "1 day"; the lobby's timer figures."""

from django import template

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
