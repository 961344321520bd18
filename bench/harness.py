"""The site as the benchmarks see it: a throw-away database and static files, Django set
up in this process, gunicorn serving the same settings on 127.0.0.1, and a small HTTP
load generator (threads and http.client, so nothing needs installing)."""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import ROOT, log

HOST = "127.0.0.1"
_state: dict[str, object] = {}


def temp_dir() -> Path:
    if "dir" not in _state:
        _state["dir"] = Path(tempfile.mkdtemp(prefix="bench-101-"))
    return _state["dir"]  # type: ignore[return-value]


def environment() -> dict[str, str]:
    """The production-like settings: DEBUG off, plain http on 127.0.0.1, a temporary
    SQLite file and STATIC_ROOT; the rest is config.settings as deployed."""
    if "env" not in _state:
        tmp = temp_dir()
        _state["env"] = {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
            "BENCH_STATIC_ROOT": str(tmp / "static"),
        }
    return _state["env"]  # type: ignore[return-value]


def setup_django() -> None:
    """Configure Django in this process on the temporary database, migrated, with the
    static files collected (DEBUG off needs the manifest). Done once per process."""
    if _state.get("django"):
        return
    for name in ("REDIS_URL", "DJANGO_CONN_MAX_AGE"):
        # A shared cache or another connection lifetime would measure another deployment.
        os.environ.pop(name, None)
    os.environ.update(environment())
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    started = time.perf_counter()
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    log(
        f"[harness] migrated {environment()['DATABASE_URL']} and collected static files "
        f"in {time.perf_counter() - started:.1f} s"
    )
    _state["django"] = True


def cleanup() -> None:
    tmp = _state.pop("dir", None)
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)


# --- gunicorn -----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _gunicorn() -> list[str]:
    script = Path(sys.executable).parent / "gunicorn"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gunicorn"]


@dataclass
class Server:
    port: int
    workers: int
    log_path: Path

    def log_tail(self, lines: int = 20) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""


@contextlib.contextmanager
def gunicorn(
    workers: int = 2,
    ready_path: str = "/",
    timeout: float = 30,
    extra_env: dict[str, str] | None = None,
) -> Iterator[Server]:
    """gunicorn (sync workers) serving config.wsgi with `environment()` (plus `extra_env`)
    on a free port of 127.0.0.1; stopped when the block ends, whatever happens in it."""
    port = _free_port()
    log_path = temp_dir() / f"gunicorn-{port}.log"
    command = [
        *_gunicorn(),
        "config.wsgi:application",
        "--chdir",
        str(ROOT),
        "--bind",
        f"{HOST}:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "sync",
        "--log-level",
        "warning",
        "--graceful-timeout",
        "5",
    ]
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_CONN_MAX_AGE")}
    env.update(environment())
    env.update(extra_env or {})
    server = Server(port, workers, log_path)
    process = spawn(command, env, log_path)
    try:
        wait_until_answers(process, port, ready_path, timeout, "gunicorn", server.log_tail)
        log(f"[harness] gunicorn pid {process.pid}, {workers} sync workers on {HOST}:{port}")
        yield server
    finally:
        stop_group(process)
        log(f"[harness] gunicorn pid {process.pid} stopped")


# --- processes ----------------------------------------------------------------------------


def spawn(command: list[str], env: Mapping[str, str], log_path: Path) -> subprocess.Popen:
    """Start `command` in the project's folder, its output to `log_path`, in a process group
    of its own: stopped whole by its id (with what it started) whatever happens."""
    with open(log_path, "wb") as output:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=dict(env),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop_group(process: subprocess.Popen, grace: float = 15) -> None:
    """SIGTERM to the process's group, SIGKILL after `grace` seconds; then whatever it
    started in its group (gunicorn's workers, serve's play worker) goes too."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def wait_until_answers(
    process: subprocess.Popen, port: int, path: str, timeout: float, name: str, log_tail
) -> None:
    """Until GET `path` on `port` answers 200; an error with the end of its log (`log_tail()`)
    if the process stops, answers anything else, or does not answer within `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}:\n{log_tail()}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            conn = http.client.HTTPConnection(HOST, port, timeout=5)
            try:
                conn.request("GET", path)
                status = conn.getresponse().status
            finally:
                conn.close()
            if status == 200:
                return
            raise RuntimeError(f"{name}: GET {path} answered {status}:\n{log_tail()}")
        time.sleep(0.1)
    raise RuntimeError(f"{name} did not answer within {timeout} s:\n{log_tail()}")


# --- load ---------------------------------------------------------------------------------


@dataclass
class Load:
    """A fixed number of GETs of one path: how long they took and what came back."""

    path: str
    requests: int
    threads: int
    seconds: float
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    connections: int = 0
    latencies: list[float] = field(default_factory=list)
    body_bytes: int = 0

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds

    @property
    def ok(self) -> bool:
        return not self.errors and set(self.statuses) == {200}

    def latency(self, quantile: float) -> float:
        return statistics.quantiles(self.latencies, n=100)[int(quantile * 100) - 1]


def load(
    port: int,
    path: str,
    requests: int,
    threads: int,
    headers: Mapping[str, str] | None = None,
) -> Load:
    """GET `path` `requests` times from `threads` threads, each reusing its connection
    when the server keeps it open (gunicorn's sync workers close it after each answer)."""
    shares = [requests // threads + (i < requests % threads) for i in range(threads)]
    sent = {"Connection": "keep-alive", **(headers or {})}
    start = threading.Barrier(threads + 1)
    results: list[tuple[Counter, Counter, int, list[float], int]] = []
    lock = threading.Lock()

    def worker(count: int) -> None:
        statuses, errors, connections, latencies, size = Counter(), Counter(), 0, [], 0
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        clock = time.perf_counter
        start.wait()
        try:
            for _ in range(count):
                began = clock()
                try:
                    if conn.sock is None:
                        connections += 1
                    conn.request("GET", path, headers=sent)
                    response = conn.getresponse()
                    size = len(response.read())
                    statuses[response.status] += 1
                except (OSError, http.client.HTTPException) as error:
                    errors[type(error).__name__] += 1
                    conn.close()
                latencies.append(clock() - began)
        finally:
            conn.close()
            with lock:
                results.append((statuses, errors, connections, latencies, size))

    workers = [threading.Thread(target=worker, args=(share,), daemon=True) for share in shares]
    for thread in workers:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in workers:
        thread.join()
    seconds = time.perf_counter() - began

    result = Load(path, requests, threads, seconds)
    for statuses, errors, connections, latencies, size in results:
        result.statuses.update(statuses)
        result.errors.update(errors)
        result.connections += connections
        result.latencies.extend(latencies)
        result.body_bytes = max(result.body_bytes, size)
    return result


def median_rates(
    label: str,
    targets: Mapping[str, tuple[str, Mapping[str, str], int]],
    options,
    ready_path: str,
) -> dict[str, float]:
    """Each target, name -> (path, headers, the status every answer must have), GET from one
    gunicorn of 2 workers: warmed up, then loaded in `options.passes` interleaved passes so
    that a busy moment of the machine slows them all alike. Returns each one's median req/s;
    any other answer stops the run with the server's log."""
    per_pass = max(1, options.requests // options.passes)
    rates: dict[str, list[float]] = {name: [] for name in targets}
    with gunicorn(workers=2, ready_path=ready_path) as server:
        for path, headers, _status in targets.values():
            load(server.port, path, options.warmup, options.threads, headers)
        for number in range(1, options.passes + 1):
            for name, (path, headers, status) in targets.items():
                result = load(server.port, path, per_pass, options.threads, headers)
                if result.errors or set(result.statuses) != {status}:
                    raise RuntimeError(
                        f"{name}: GET {path} answered {dict(result.statuses)} "
                        f"{dict(result.errors)}\n{server.log_tail()}"
                    )
                rates[name].append(result.per_second)
                log(
                    f"[{label}] pass {number}/{options.passes} {name:9} {result.requests} x GET "
                    f"{path}: {result.per_second:6.1f} req/s"
                )
    return {name: statistics.median(values) for name, values in rates.items()}
