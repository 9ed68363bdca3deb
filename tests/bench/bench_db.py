"""What the benchmarks share: their error, a PostgreSQL database of their own made (or made again) for a
run, and the CPU of processes read from /proc. A plain module (no `tests` package import), so a benchmark
that runs another checkout's code (tests/bench/hot_path.py --root) can import it from its own folder."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit


class BenchError(Exception):
    pass


def prepare_database(url: str, fresh: bool) -> None:
    """Check PostgreSQL answers; (re)create the database when `fresh`, else create it if missing."""
    import psycopg

    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise BenchError(f"DATABASE_URL must be a PostgreSQL URL, not {url}")
    name = parts.path.lstrip("/")
    admin = urlunsplit(("postgresql", parts.netloc, "/postgres", "", ""))
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
            exists = conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone()
            if exists and fresh:
                conn.execute(f'drop database "{name}" with (force)')
                exists = None
            if not exists:
                conn.execute(f'create database "{name}"')
    except psycopg.OperationalError as error:
        raise BenchError(f"PostgreSQL unreachable at {parts.hostname}:{parts.port or 5432}: {error}") from None


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15])  # utime, stime, and those of reaped children
        except OSError:
            pass
    return total / CLOCK_TICKS


def pids_named(name: str, argument: str = "") -> list[int]:
    """Processes called `name` (and with `argument` in their command line)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as handle:
                    if handle.read().strip() != name:
                        continue
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if argument.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found
