"""The cyclic garbage collector's settings for the long-running processes (web server, Celery worker).

At 100 busy games (make bench-site, with a gc.callbacks probe) full collections paused a web process for
40-75 ms of CPU and the bench's own driver for up to 250 ms: every full collection walked everything Django
had loaded, and short-lived request objects, caught by a young collection every 700 allocations, were
promoted until a full one freed them. Here the startup objects leave the collector's sight (gc.freeze) and
young collections run ten times less often, so request garbage dies young, freed by its reference count.
"""

import gc

YOUNG_THRESHOLD = 10_000  # allocations between young collections (Python's default: 700)


def settle() -> None:
    """Call once the process has loaded what it keeps (after the app is built, before serving)."""
    gc.collect()
    gc.set_threshold(YOUNG_THRESHOLD, 10, 10)
    gc.freeze()
