"""Benchmark: the computer players' long legality runs and the short match, moved out of the suite (issue 34).
The suite keeps each property over a sample (tests/engine/test_players.py); this plays them in full:

- every decision legal over 12 turns in each ruleset (Easy, Normal, Hard on one course per ruleset);
- every decision legal over 10 turns with every module on offer and heavy damage (Hard);
- Normal beats Easy in at least 3 of 4 seeded races on Maglev Freightyard (a small `make bench-bots`).

Run: make bench-players  (or .venv/bin/python tests/bench/players.py)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.engine.test_players import (  # noqa: E402 - after the path
    ONE_COURSE_PER_RULESET,
    legal_in_ruleset,
    legal_with_every_module_and_heavy_damage,
    normal_wins,
)


def timed(name: str, run) -> None:
    started = time.perf_counter()
    run()
    print(f"{name:55} ok  {time.perf_counter() - started:6.1f} s", flush=True)


def main() -> None:
    for ruleset in sorted(ONE_COURSE_PER_RULESET):
        timed(f"legal in {ruleset}, 12 turns", lambda ruleset=ruleset: legal_in_ruleset(ruleset, turns=12))
    timed("legal with every module and heavy damage, 10 turns",
          lambda: legal_with_every_module_and_heavy_damage(turns=10))

    def ordered() -> None:
        wins = normal_wins(range(4))
        assert wins >= 3, f"Normal won {wins} of 4 races against Easy"

    timed("Normal beats Easy in >= 3 of 4 seeded races", ordered)


if __name__ == "__main__":
    main()
