"""Which squares a bot can reach from a square, for the bundled-course checks: a generous walk that
treats force fields as shootable, receptacles as fillable, trapdoors and sliding walls as closed or open
in some phase, and teleporters and portals as their links; walls, windows, shockers, one-way walls the
wrong way, pits, the backs of portals and rails over pits crossed sideways stop it, and a magnet lets a
bot off only its way."""

from collections import deque

from engine.elements.portals import exit_of, portal_on
from engine.geometry import DIRECTIONS, neighbour, opposite

STOPS = {"window", "shocker"}


def _steps(course, at):
    tiles = course.tiles
    tile = tiles.get(at)
    for heading in DIRECTIONS:
        if tile is not None and tile.type == "magnet" and heading != tile.dir:
            continue
        if tile is not None and tile.type == "rail" and tile.over_pit and heading not in tile.sides:
            continue
        portal = portal_on(course, at, heading)
        if portal is not None:
            target = exit_of(course, portal)
        else:
            if course.wall_between(at, heading):
                continue
            edge = course.edges.get((at, heading))
            if edge is not None and (edge.type in STOPS or (edge.type == "one_way_wall" and edge.dir != heading)):
                continue
            target = neighbour(at, heading)
            if portal_on(course, target, opposite(heading)) is not None:
                continue  # the back of a portal
        if target is None or not course.on_course(target) or target in course.pits:
            continue
        landing = tiles.get(target)
        if landing is not None and landing.type == "rail" and landing.over_pit and opposite(heading) not in landing.sides:
            continue
        yield target
    ceiling = course.ceiling.get(at)
    if ceiling is not None and ceiling.type == "teleporter":
        for other in course.of_type("teleporter"):
            if other.colour == ceiling.colour and other.at != at:
                yield other.at


def reachable(course, start):
    seen = {start}
    queue = deque([start])
    while queue:
        at = queue.popleft()
        for target in _steps(course, at):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return seen
