"""Open event streams (issue 24): what 10,000 browsers holding a table's event stream cost one
app server process, and how fast other people's pages answer meanwhile.

One app server (gunicorn with one uvicorn worker, `config.asgi`, DJANGO_DEBUG=0) on a
PostgreSQL cluster of the benchmark's own and Redis, as in production. bench/stream_holder.py,
a process of its own, opens STREAMS streams of one table (`/play/<pk>/events/`), 100 from each
loopback address (the most one address may hold), and holds them. The app server's worker
process is read from /proc before and while they are held: threads, open file descriptors and
resident memory (per stream: the difference divided by the streams). Other people's pages are
timed one request after another (new connection each, as a browser opening a page) before the
streams open and while they are held: the home page, the lobby, a table's board for a visitor,
its unchanged refresh (204) and the board of a player signed in at it. Then a version is
published on Redis, and the holder notes when each of the streams heard it; and the server's
CPU while it only holds them (a heartbeat comment every 20 s a stream) is read over HOLD_SECONDS.
A 101st stream from a full address is answered 429.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.common import ROOT, Check, Options, Section, load_average, log, markdown_table
from bench.live import (
    HOST,
    PYTHON,
    REDIS,
    TICKS,
    Process,
    _children,
    _gunicorn,
    _stat,
    base_environment,
    free_port,
    manage,
    private_postgres,
    rss,
    site,
    spawn,
    stop,
    threads,
    tree,
    wait_until_ready,
)

NAME = "streams"
TITLE = "Open event streams: 10,000 on one app server process"
STREAMS = 10_000
PER_ADDRESS = 100
PAGE_REQUESTS = 100
HOLD_SECONDS = 30
# Targets: no thread per stream (a few for the pool that reads versions), and other people's
# pages answered as fast as a person expects while the streams are held.
THREADS_ADDED_AT_MOST = 10
PAGES_P95_TARGET = 0.250


@dataclass
class Footprint:
    threads: int
    descriptors: int
    rss: int
    cpu: float


def footprint(pid: int) -> Footprint:
    stat = _stat(pid)
    return Footprint(
        threads=threads(pid),
        descriptors=len(os.listdir(f"/proc/{pid}/fd")),
        rss=rss(pid),
        cpu=(int(stat[12]) + int(stat[13])) / TICKS if stat else 0.0,
    )


def run(options: Options) -> Section:
    tmp = Path(tempfile.mkdtemp(prefix="bench-streams-"))
    try:
        with one_app_server(tmp) as (server, env):
            return measure(server, env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def one_app_server(tmp: Path) -> Iterator[tuple[Process, dict[str, str]]]:
    import redis

    prefix = f"bench-streams-{secrets.token_hex(4)}"
    with private_postgres() as postgres:
        env = base_environment() | {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": f"{postgres.url}/postgres",
            "REDIS_URL": REDIS,
            "DJANGO_CACHE_KEY_PREFIX": prefix,
            "DJANGO_STATIC_ROOT": str(tmp / "static"),
            "ALLAUTH_TRUSTED_PROXY_COUNT": "0",
        }
        manage(env, "migrate", "--no-input")
        manage(env, "collectstatic", "--no-input", "-v0")
        port = free_port()
        server = spawn("app-server", _gunicorn(port), env, tmp, port=port)
        try:
            wait_until_ready(server)
            yield server, env
        finally:
            stop(server)
            client = redis.Redis.from_url(REDIS, socket_timeout=5)
            for key in client.scan_iter(match=f"{prefix}*"):
                client.delete(key)
            client.close()


def worker_pid(server: Process) -> int:
    """The uvicorn worker gunicorn started (the process that holds the streams)."""
    pids = [pid for pid in tree(server.popen.pid, _children()) if pid != server.popen.pid]
    return max(pids, key=lambda pid: rss(pid))


def time_pages(port: int, pages: dict[str, tuple[str, dict[str, str]]]) -> dict[str, list[float]]:
    """Seconds for each page, PAGE_REQUESTS times, one request after another (the pages
    interleaved), each on a new connection."""
    times: dict[str, list[float]] = {name: [] for name in pages}
    for _ in range(PAGE_REQUESTS):
        for name, (path, headers) in pages.items():
            began = time.perf_counter()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            conn.close()
            times[name].append(time.perf_counter() - began)
            if response.status not in (200, 204):
                raise RuntimeError(f"GET {path} answered {response.status}")
    return times


def measure(server: Process, env: dict[str, str]) -> Section:
    people = site(env, "people")
    table, (alice, _bob) = people["table"], people["sessions"]
    version = version_of(server.port, table)
    signed_in = {"Cookie": f"{people['cookie']}={alice}"}
    pages = {
        "home page": ("/", {}),
        "lobby": ("/play/", {}),
        "a table's board (visitor)": (f"/play/{table}/", {}),
        "its unchanged refresh (204)": (f"/play/{table}/?v={version}", {"HX-Request": "true"}),
        "the board of a player at it": (f"/play/{table}/", signed_in),
    }
    pid = worker_pid(server)
    time_pages(server.port, pages)  # warm up
    quiet = time_pages(server.port, pages)
    before = footprint(pid)
    log(f"[{NAME}] app server worker {pid}: {before}")

    holder = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "bench.stream_holder",
            str(server.port),
            f"/play/{table}/events/?v=0",
            str(STREAMS),
            str(PER_ADDRESS),
        ],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        opened = json.loads(holder.stdout.readline())
        log(f"[{NAME}] streams: {opened}")
        time.sleep(2)
        held = footprint(pid)
        log(f"[{NAME}] holding: {held}")
        full = refused_from_full_address(server.port, table)
        loaded = time_pages(server.port, pages)
        fan_out = publish_and_hear(holder, env, table, version + 1)
        log(f"[{NAME}] a version reached the streams: {fan_out}")
        cpu_began = footprint(pid).cpu
        time.sleep(HOLD_SECONDS)
        idle_cpu = footprint(pid).cpu - cpu_began
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    time.sleep(2)
    after = footprint(pid)
    return report(opened, before, held, after, quiet, loaded, fan_out, idle_cpu, full)


def version_of(port: int, table: int) -> int:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request("GET", f"/play/{table}/")
    body = conn.getresponse().read().decode()
    conn.close()
    marker = 'data-live-version="'
    start = body.index(marker) + len(marker)
    return int(body[start : body.index('"', start)])


def refused_from_full_address(port: int, table: int) -> int:
    """The status of one more stream from an address that holds its 100 (the first one)."""
    with socket.create_connection((HOST, port), timeout=30, source_address=("127.0.0.2", 0)) as s:
        s.sendall(f"GET /play/{table}/events/ HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        return int(s.recv(64).split()[1])


def publish_and_hear(holder: subprocess.Popen, env: dict[str, str], table: int, version: int):
    """Publish `version` of the table on Redis, as a move's commit does, and how long after
    the streams heard it (median, p95, last, in seconds)."""
    import redis

    holder.stdin.write(f"expect {version}\n")
    holder.stdin.flush()
    time.sleep(0.5)  # the holder is waiting before the version is sent
    client = redis.Redis.from_url(REDIS, socket_timeout=5)
    sent_at = time.time()
    client.publish(f"{env['DJANGO_CACHE_KEY_PREFIX']}live:play.playtable:{table}", str(version))
    client.close()
    heard = json.loads(holder.stdout.readline())
    return {"heard": heard["heard"]} | {
        name: None if heard[f"{name}_at"] is None else heard[f"{name}_at"] - sent_at
        for name in ("median", "p95", "last")
    }


def _ms(seconds: float | None) -> str:
    return "–" if seconds is None else f"{seconds * 1000:.0f} ms"


def _p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95)]


def report(opened, before, held, after, quiet, loaded, fan_out, idle_cpu, full) -> Section:
    count = opened["opened"]
    per_stream_kib = (held.rss - before.rss) / max(count, 1) / 1024
    rows = [
        ["streams opened", f"{count:,} of {STREAMS:,} ({opened['answers']})"],
        ["time to open them", f"{opened['seconds']:.1f} s"],
        ["threads of the worker", f"{before.threads} → {held.threads} → {after.threads}"],
        [
            "open file descriptors",
            f"{before.descriptors:,} → {held.descriptors:,} → {after.descriptors:,}",
        ],
        [
            "resident memory",
            f"{before.rss / 2**20:.0f} MiB → {held.rss / 2**20:.0f} MiB → "
            f"{after.rss / 2**20:.0f} MiB",
        ],
        ["memory per stream", f"{per_stream_kib:.1f} KiB"],
        [
            "a version published on Redis, heard by every stream",
            f"median {_ms(fan_out['median'])}, p95 {_ms(fan_out['p95'])}, "
            f"last {_ms(fan_out['last'])} ({fan_out['heard']:,} heard)",
        ],
        [
            f"the worker's CPU while only holding them ({HOLD_SECONDS} s)",
            f"{idle_cpu / HOLD_SECONDS * 100:.1f}% of a core",
        ],
        ["a 101st stream from one address", f"answered {full}"],
    ]
    page_rows = [
        [
            name,
            f"{_ms(statistics.median(quiet[name]))} / {_ms(_p95(quiet[name]))}",
            f"{_ms(statistics.median(loaded[name]))} / {_ms(_p95(loaded[name]))}",
        ]
        for name in quiet
    ]
    worst = max(_p95(times) for times in loaded.values())
    checks = [
        Check(
            f"{STREAMS:,} streams open on one process",
            f"{count:,}",
            count == STREAMS,
        ),
        Check(
            f"the streams add at most {THREADS_ADDED_AT_MOST} threads (none per stream)",
            f"{held.threads - before.threads}",
            held.threads - before.threads <= THREADS_ADDED_AT_MOST,
        ),
        Check(
            f"other people's pages, p95 while {STREAMS:,} streams are held, under "
            f"{PAGES_P95_TARGET * 1000:.0f} ms",
            _ms(worst),
            worst <= PAGES_P95_TARGET,
        ),
        Check("a stream past one address's share is refused (429)", str(full), full == 429),
    ]
    markdown = "\n".join(
        [
            f"Load average (1, 5, 15 min) when it ran: {load_average()}.",
            "",
            markdown_table(["", "before → holding → after"], rows),
            "",
            f"Other people's pages, median / p95 of {PAGE_REQUESTS} requests each, one after "
            "another, each on a new connection:",
            "",
            markdown_table(
                ["page", "no streams", f"{STREAMS:,} streams held"],
                page_rows,
            ),
        ]
    )
    return Section(NAME, TITLE, markdown, checks)
