"""Where the CPU goes: py-spy sampling of the site's processes during a benchmark, and the tables printed from it.

`Profiler(out_dir).start({"web": [pid, ...], "worker": [...]})` attaches one `py-spy record` per process
(raw collapsed stacks, one file per process, --nonblocking so the sampled process never pauses);
`.stop()` ends them and `table(...)` reads the files back. py-spy samples only threads that run Python code
(no --idle), so a sample is CPU time spent (or held waiting inside a C call such as a socket send).

Two tables per process group:
- by layer: each sample goes to the innermost frame that belongs to a known layer (JSON, PostgreSQL driver,
  Django ORM, sessions and auth, DRF, Channels, Redis client, the ASGI server, the engine, our own code...);
- by our own functions (games/, roboracer/, engine/), inclusive: the share of samples that have the function
  anywhere on the stack, i.e. what it costs with everything it calls.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

# (layer, pattern on the frame's file part). The first layer whose pattern matches the innermost matching
# frame takes the sample; order matters only between patterns that could both match one file.
LAYERS: list[tuple[str, re.Pattern]] = [(name, re.compile(pattern)) for name, pattern in [
    ("JSON encode/decode", r"(^|/)json/|orjson|rest_framework/utils/encoders|renderers\.py|parsers\.py"),
    ("PostgreSQL driver (psycopg)", r"psycopg"),
    ("Django ORM (query building, model instances)", r"django/db/"),
    ("sessions, auth, CSRF, middleware", r"django/contrib/(sessions|auth)|django/middleware|csrf|"
                                         r"django/core/handlers|axes|csp"),
    ("Django REST framework (views, serializers)", r"rest_framework"),
    ("Channels (consumers, layer, routing)", r"channels/|channels_redis"),
    ("Redis client", r"(^|/)redis/|kombu/transport/redis"),
    ("Celery and kombu", r"celery/|kombu/|billiard/"),
    ("asgiref (sync/async threads)", r"asgiref"),
    ("ASGI server (uvicorn, websockets, httptools)", r"uvicorn|websockets|httptools|h11"),
    ("asyncio event loop", r"asyncio|uvloop"),
    ("the engine (rules)", r"(^|/)engine/"),
    ("our site code (games/, roboracer/)", r"(^|/)(games|roboracer)/"),
    ("Django, other", r"django/"),
    ("Python standard library, other", r"python3\.\d+/"),
]]
OURS = re.compile(r"\((?:[^()]*/)?(games|roboracer|engine)/[^()]*\)$")


class Profiler:
    def __init__(self, out_dir: Path, rate: int = 100):
        self.out_dir, self.rate = out_dir, rate
        self.processes: list[subprocess.Popen] = []
        self.files: dict[str, list[Path]] = {}

    @staticmethod
    def available() -> bool:
        return shutil.which("py-spy") is not None or (Path(sys.executable).parent / "py-spy").exists()

    def start(self, groups: dict[str, list[int]]) -> None:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        for group, pids in groups.items():
            for pid in pids:
                path = self.out_dir / f"{group}-{pid}.txt"
                self.files.setdefault(group, []).append(path)
                self.processes.append(subprocess.Popen(
                    [spy, "record", "--pid", str(pid), "--format", "raw", "--rate", str(self.rate), "--nonblocking", "--gil",
                     "--function", "--output", str(path)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def stop(self) -> None:
        for process in self.processes:
            process.send_signal(signal.SIGINT)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()

    def stacks(self, group: str) -> Counter:
        counts: Counter = Counter()
        for path in self.files.get(group, []):
            if path.exists():
                for line in path.read_text(errors="replace").splitlines():
                    stack, _, count = line.rpartition(" ")
                    if count.isdigit():
                        counts[stack] += int(count)
        return counts


def layer_of(frame: str) -> str | None:
    where = frame[frame.rfind("(") + 1:] if "(" in frame else frame
    for name, pattern in LAYERS:
        if pattern.search(where):
            return name
    return None


def tables(profiler: Profiler, cpu: dict[str, float], turns: int, top: int = 25) -> list[str]:
    """The two tables for each profiled group, as text lines; `cpu` is the group's CPU seconds during play
    (from /proc), which the sample shares are scaled to, in ms per turn."""
    lines = []
    for group in profiler.files:
        stacks = profiler.stacks(group)
        total = sum(stacks.values())
        if not total:
            lines.append(f"{group}: no samples")
            continue
        per_turn = cpu.get(group, 0.0) * 1000 / max(turns, 1)
        by_layer: Counter = Counter()
        inclusive: Counter = Counter()
        for stack, count in stacks.items():
            frames = stack.split(";")
            layer = next((found for frame in reversed(frames) if (found := layer_of(frame))), "other (native, idle)")
            by_layer[layer] += count
            for frame in set(frames):
                if OURS.search(frame):
                    inclusive[frame] += count
        lines.append(f"{group}: {total} samples, {per_turn:.1f} ms of CPU per turn (from /proc)")
        lines.append("  by layer (innermost known frame):")
        for layer, count in by_layer.most_common():
            lines.append(f"    {100 * count / total:5.1f} %  {per_turn * count / total:6.1f} ms/turn  {layer}")
        lines.append("  our functions, inclusive (with what they call):")
        for frame, count in inclusive.most_common(top):
            lines.append(f"    {100 * count / total:5.1f} %  {per_turn * count / total:6.1f} ms/turn  {frame}")
    return lines
