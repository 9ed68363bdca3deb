"""`python -m engine ...` run in this process: the same `engine.__main__.main` with its output captured, without
a new interpreter's start (about half a second each here). The command line's wiring (`python -m engine`, the
exit code reaching the shell) keeps real subprocess tests of its own (test_course.py, rambots/test_scenarios.py)."""

from __future__ import annotations

import io
import subprocess
from contextlib import redirect_stderr, redirect_stdout

from engine.__main__ import main


def run_cli(*args: str) -> subprocess.CompletedProcess:
    stdout, stderr = io.StringIO(), io.StringIO()
    with redirect_stdout(stdout), redirect_stderr(stderr):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse refuses a command line this way
            code = exit_.code if isinstance(exit_.code, int) else 2
    return subprocess.CompletedProcess(["python", "-m", "engine", *args], code, stdout.getvalue(), stderr.getvalue())
