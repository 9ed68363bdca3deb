"""What the benchmarks share: their error, and a PostgreSQL database of their own made (or made again) for a
run. A plain module (no `tests` package import), so a benchmark that runs another checkout's code
(tests/bench/hot_path.py --root) can import it from its own folder."""

from __future__ import annotations

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
