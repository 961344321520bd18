"""What the benchmarks share: the machine, timing statistics, a section of the report,
and a long match of legal classic rounds in which nobody loses."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Options:
    """Settings of one run, from the command line of bench/run.py."""

    scoring_runs: int = 300
    requests: int = 2000
    passes: int = 4
    warmup: int = 200
    threads: int = 4
    live_moves: int = 200


@dataclass
class Check:
    """A target a figure must meet: what, the measured value, and whether it passed."""

    what: str
    measured: str
    ok: bool


@dataclass
class Section:
    """One benchmark's part of docs/benchmarks.md."""

    name: str
    title: str
    markdown: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)


def log(message: str) -> None:
    print(message, flush=True)


@contextmanager
def busy_core() -> Iterator[None]:
    """Another process keeping a core busy for as long as the block runs (the machine half
    busy, as a club laptop or a phone's host often is)."""
    process = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        process.kill()
        process.wait()


# --- timing -------------------------------------------------------------------------------


@dataclass
class Timings:
    """Seconds per call of N timed calls."""

    samples: list[float]

    @property
    def runs(self) -> int:
        return len(self.samples)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def best(self) -> float:
        return min(self.samples)

    @property
    def worst(self) -> float:
        return max(self.samples)


def time_calls(function: Callable[[], object], runs: int, warmup: int = 5) -> Timings:
    """Call `function` `warmup` times untimed, then `runs` times, timing each call."""
    for _ in range(warmup):
        function()
    samples = []
    clock = time.perf_counter
    for _ in range(runs):
        start = clock()
        function()
        samples.append(clock() - start)
    return Timings(samples)


def time_interleaved(
    functions: Mapping[str, Callable[[], object]], runs: int, warmup: int = 5
) -> dict[str, Timings]:
    """Time several functions `runs` times each, taking turns call by call, so that a busy
    moment of a shared machine slows them all alike instead of whichever ran then."""
    for _ in range(warmup):
        for function in functions.values():
            function()
    samples: dict[str, list[float]] = {name: [] for name in functions}
    clock = time.perf_counter
    for _ in range(runs):
        for name, function in functions.items():
            start = clock()
            function()
            samples[name].append(clock() - start)
    return {name: Timings(values) for name, values in samples.items()}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} µs"


# --- the machine --------------------------------------------------------------------------


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def machine() -> dict[str, str]:
    """Cores, CPU model, RAM, Python, OS and the versions that matter for the figures."""
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in _read("/proc/cpuinfo").splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or platform.machine(),
    )
    mem_kb = next(
        (
            int(line.split()[1])
            for line in _read("/proc/meminfo").splitlines()
            if line.startswith("MemTotal:")
        ),
        0,
    )
    os_name = next(
        (
            line.split("=", 1)[1].strip().strip('"')
            for line in _read("/etc/os-release").splitlines()
            if line.startswith("PRETTY_NAME=")
        ),
        platform.system(),
    )
    info = {
        "Cores": str(os.cpu_count()),
        "CPU": cpu,
        "RAM": f"{mem_kb / 1024 / 1024:.1f} GiB" if mem_kb else "unknown",
        "Python": f"{platform.python_version()} ({platform.python_implementation()})",
        "OS": f"{os_name}, kernel {platform.release()}",
    }
    try:
        import django

        info["Django"] = django.get_version()
    except ImportError:  # pragma: no cover - the venv has Django
        pass
    try:
        from importlib.metadata import version

        info["gunicorn"] = version("gunicorn")
    except Exception:  # pragma: no cover - only for the report
        pass
    import sqlite3

    info["SQLite"] = sqlite3.sqlite_version
    return info


def load_average() -> str:
    """The 1, 5 and 15-minute load averages: other work on the machine skews the figures."""
    return " ".join(_read("/proc/loadavg").split()[:3]) or "unknown"


# --- a long, legal classic match ----------------------------------------------------------

# Classic rules: one player goes out with a Queen (-20), the other three keep low cards.
# Seen from the player who went out, the next players hold 6, 6 and 8 points (a nine
# counts 0 in classic), so over four rounds everyone scores -20 + 6 + 6 + 8 = 0: totals
# stay between -20 and 20 for ever, nobody passes 101 and the match never ends. Hands
# cycle through a few spellings so that parsing sees more than one card per hand; the
# three hands of a round never share a card.
_QUEENS = ("QH", "QD", "QC")
_HANDS = (
    ("6S", "6C", "JS KS"),  # the next player: 6 points
    ("6H", "6D", "JH KH 9H"),  # the one after: 6 points
    ("8D", "8C", "KD KC"),  # the last: 8 points
)


def classic_rounds(players: Sequence[str], count: int) -> list[dict[str, dict[str, str]]]:
    """`count` rounds of a 4-player classic match, as entered (card codes), nobody losing."""
    if len(players) != 4:
        raise ValueError("the rounds are made for four players")
    rounds = []
    for number in range(count):
        out = number % 4
        variation = (number // 4) % 3
        outcomes = {players[out]: {"out": _QUEENS[number % 3]}}
        for offset in (1, 2, 3):
            player = players[(out + offset) % 4]
            outcomes[player] = {"hand": _HANDS[offset - 1][variation]}
        # Seat order, as the services pass rounds.
        rounds.append({player: outcomes[player] for player in players})
    return rounds


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def verdict(ok: bool) -> str:
    return "meets the target" if ok else "**misses the target**"
