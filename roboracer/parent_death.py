"""Linux's parent-death signal (prctl PR_SET_PDEATHSIG): a child asks the kernel to send it a signal when the
process that started it dies, however it dies (SIGKILL included), so no scheduler or server outlives its
supervisor. A no-op elsewhere (macOS, BSD): there `make run` relies on its pid file alone (roboracer.run)."""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def supported() -> bool:
    return _libc is not None


def die_with_parent(parent_pid: int, signum: int = signal.SIGTERM) -> None:
    """Receive `signum` when the parent dies. `parent_pid` is the parent as the caller knew it: if it died
    before the request reached the kernel, the signal is sent at once instead. Safe between fork and exec
    (`subprocess.Popen(preexec_fn=...)`): one system call, no allocation worth mentioning."""
    if _libc is None:
        return
    if _libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) != 0:
        return
    if os.getppid() != parent_pid:  # the parent was already gone: the kernel will not tell us
        os.kill(os.getpid(), signum)


def preexec(parent_pid: int | None = None):
    """A `preexec_fn` for subprocess.Popen: the child gets SIGTERM when this process dies."""
    parent_pid = parent_pid or os.getpid()
    return lambda: die_with_parent(parent_pid)
