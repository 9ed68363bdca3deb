"""Hypothesis profiles (docs/testing.md). `ci` keeps every property test's full example count; `dev`, the
default outside CI, runs a fifth of it (at least 10) for a quick inner loop. CI=true selects `ci`;
HYPOTHESIS_PROFILE=ci|dev chooses explicitly. A test states its CI count with `examples(n)`:

    @settings(max_examples=examples(150), deadline=None)
"""

from __future__ import annotations

import os

from hypothesis import settings

from tests.testenv import CI

CI_EXAMPLES = 100  # Hypothesis's own default: a test without a count of its own keeps it under `ci`
DEV_EXAMPLES = 20

settings.register_profile("ci", max_examples=CI_EXAMPLES)
settings.register_profile("dev", max_examples=DEV_EXAMPLES)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if CI else "dev")
settings.load_profile(PROFILE)


def examples(ci_count: int) -> int:
    """The example count for this run: `ci_count` under the `ci` profile, a fifth of it (at least 10) under `dev`."""
    if settings.default.max_examples >= CI_EXAMPLES:
        return ci_count
    return max(10, ci_count * settings.default.max_examples // CI_EXAMPLES)
