"""Command line: `python -m engine validate FILE`, `python -m engine simulate FILE`,
`python -m engine report FILE` (a scenario's turn as 001's per-stage table, docs/formats.md "Reports") and
`python -m engine plans [--markdown]` (every ruleset's step plan, engine.plans; the markdown is the table of
docs/architecture.md "Step plans") and `python -m engine catalog` (every element's, module's and ruleset's display
name and help as JSON, engine.catalog)."""

from __future__ import annotations

import argparse
import json
import sys

from . import kinds
from .builder import course_warnings
from .course import parse_course
from .errors import InputError
from .reports import stage_table
from .scenario import SCENARIO_FORMAT, parse_scenario, simulate


def _with_squares(entry: dict) -> str:
    squares = " ".join(f"[{x}, {y}]" for x, y in entry["squares"])
    return f"{entry['message']} (squares: {squares})" if squares else entry["message"]


def _names_a_kind(path: str):
    """The kind (engine.kinds) whose scenario format the file's text names, or None."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        return kinds.named_in(handle.read())


def _kind_scenario(kind, command: str, path: str, data: dict) -> int:
    """A scenario of a kind of engine.kinds, e.g. `rambots-scenario/1` (docs/formats.md "RAMbots scenarios")."""
    try:
        if command == "validate":
            kind.parse_scenario(data)
            print(f"{path}: valid scenario ({kind.FORMAT})")
        elif command == "report":
            print(f"{path}: 'report' is for RoboRacer scenarios; use 'simulate' for {kind.FORMAT}", file=sys.stderr)
            return 2
        else:
            print(json.dumps(kind.simulate(data), indent=2))
    except InputError as error:
        print(f"{path}: {error}", file=sys.stderr)
        return 2
    return 0


def _plans(markdown: bool) -> int:
    from .plans import plan_rows, plan_table_markdown, plans

    if markdown:
        print(plan_table_markdown())
        return 0
    for name, plan in plans().items():
        print(f"{name}:")
        for part, step, when, runners in plan_rows(plan):
            print(f"  {part:18} {step:20} {when:40} {runners.replace('`', '')}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="RoboRacer rules engine")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("validate", help="check a course or scenario file").add_argument("file")
    commands.add_parser("simulate", help="resolve a scenario's turn and print the result").add_argument(
        "file"
    )
    commands.add_parser("report", help="resolve a scenario's turn and print 001's per-stage table").add_argument(
        "file"
    )
    commands.add_parser("plans", help="print every ruleset's step plan").add_argument(
        "--markdown", action="store_true", help="as the tables of docs/architecture.md"
    )
    commands.add_parser("catalog", help="print every element's, module's and ruleset's name and help as JSON").add_argument(
        "--browser", action="store_true", help="only what the game screen reads, compact (the build's catalog.json)"
    )
    args = parser.parse_args(argv)
    if args.command == "plans":
        return _plans(args.markdown)
    if args.command == "catalog":
        from .catalog import browser_catalog, catalog

        if args.browser:
            print(json.dumps(browser_catalog(), ensure_ascii=False, separators=(",", ":")))
        else:
            print(json.dumps(catalog(), indent=2, ensure_ascii=False))
        return 0
    try:
        with open(args.file, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, json.JSONDecodeError) as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 2
    except RecursionError:
        if _names_a_kind(args.file) is None:
            raise
        print(f"{args.file}: the JSON is nested too deeply", file=sys.stderr)
        return 2
    kind = kinds.by_format(data.get("format")) if isinstance(data, dict) else None
    if kind is not None:
        return _kind_scenario(kind, args.command, args.file, data)
    try:
        if args.command == "validate":
            if isinstance(data, dict) and data.get("format") == SCENARIO_FORMAT:
                parse_scenario(data)
                print(f"{args.file}: valid scenario")
            else:
                course = parse_course(data)
                for warning in course_warnings(course, data):
                    print(f"{args.file}: warning: {_with_squares(warning)}", file=sys.stderr)
                print(f"{args.file}: valid course {course.name!r} ({course.width}x{course.height})")
        elif args.command == "report":
            state = parse_scenario(data)[0]
            print(json.dumps(stage_table(state, simulate(data)["events"]), indent=2))
        else:
            print(json.dumps(simulate(data), indent=2))
    except InputError as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
