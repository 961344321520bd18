"""Real app servers for tests: gunicorn processes running the ASGI app (uvicorn workers) with the
production settings on the test database, sharing one Redis, as several machines behind one
proxy would; and play workers (play_worker) beside them."""

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
import redis
from django.db import connection
from django.urls import reverse

from tests.test_deployment import strong_key

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own on the test Redis, emptied afterwards."""
    server = redis.Redis.from_url(REDIS_URL, socket_timeout=2)
    try:
        server.ping()
    except redis.RedisError as error:
        reason = f"no Redis at {REDIS_URL} ({error}); set TEST_REDIS_URL"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the Redis tests: {reason}")
        pytest.skip(reason)
    prefix = f"test-{uuid.uuid4().hex}"
    yield prefix
    for key in server.scan_iter(match=f"{prefix}:*"):
        server.delete(key)
    server.close()


def database_url() -> str:
    """The test database, as a URL the workers can read (they are other processes)."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


def other_client() -> psycopg.Connection:
    """A client of the test database of its own, beside this process's pool (to look at or
    end the others' connections)."""
    database = connection.settings_dict
    return psycopg.connect(
        dbname=database["NAME"],
        user=database["USER"],
        password=database["PASSWORD"],
        host=database["HOST"],
        port=database["PORT"] or 5432,
        autocommit=True,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@dataclass
class Worker:
    port: int
    process: subprocess.Popen
    log: Path

    def request(self, method: str, path: str, body: str = "", headers=None):
        # The proxy in front: HTTPS for Django (the redirect to HTTPS stays on), the client's
        # address in X-Forwarded-For.
        conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
        try:
            conn.request(method, path, body, {"X-Forwarded-Proto": "https", **(headers or {})})
            response = conn.getresponse()
            return response, response.read().decode()
        finally:
            conn.close()


def start_worker(environment: dict[str, str], log_dir: Path) -> Worker:
    port = free_port()
    log = log_dir / f"gunicorn-{port}.log"
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.asgi:application",
        "--worker-class",
        "uvicorn_worker.UvicornWorker",
        "--bind",
        f"{HOST}:{port}",
        "--workers",
        "1",
        "--graceful-timeout",
        "2",
    ]
    with open(log, "wb") as output:
        # Its own process group, so that it is stopped whole whatever happens in the test.
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return Worker(port, process, log)


def wait_until_ready(worker: Worker, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if worker.process.poll() is not None:
            raise RuntimeError(f"the worker stopped:\n{worker.log.read_text()}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            response, _body = worker.request("GET", reverse("account_login"))
            assert response.status == 200, worker.log.read_text()
            return
        time.sleep(0.1)
    raise RuntimeError(f"the worker did not answer in {timeout} s:\n{worker.log.read_text()}")


def end(process: subprocess.Popen, grace: float) -> None:
    """End a process group as a process manager does: SIGTERM, and SIGKILL after `grace`
    seconds."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def production_environment(redis_prefix: str, tmp_path: Path) -> dict[str, str]:
    """The environment of a production process on the test database (tests/worker_settings.py),
    its static files collected."""
    environment = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "tests.worker_settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": strong_key(),
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DATABASE_URL": database_url(),
        "REDIS_URL": REDIS_URL,
        "DJANGO_CACHE_KEY_PREFIX": redis_prefix,
        "ALLAUTH_TRUSTED_PROXY_COUNT": "1",
        "DJANGO_STATIC_ROOT": str(tmp_path / "static"),
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT,
        env=environment,
        check=True,
        timeout=60,
    )
    return environment


@pytest.fixture
def two_workers(transactional_db, redis_prefix, tmp_path) -> Iterator[tuple[Worker, Worker]]:
    """Two gunicorn processes with the production settings (DEBUG off, Redis, behind one
    proxy; tests/worker_settings.py) on the test database, as two app servers behind one
    proxy."""
    environment = production_environment(redis_prefix, tmp_path)
    workers = (start_worker(environment, tmp_path), start_worker(environment, tmp_path))
    try:
        for worker in workers:
            wait_until_ready(worker)
        yield workers
    finally:
        for worker in workers:
            end(worker.process, grace=10)


@dataclass
class Clock:
    """A play worker process (manage.py play_worker): the server's moves at played tables."""

    process: subprocess.Popen
    log: Path


def start_clock(environment: dict[str, str], log: Path) -> Clock:
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "play_worker"],
            cwd=ROOT,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return Clock(process, log)


def stop_clock(clock: Clock) -> str:
    """Stop it as a process manager does (SIGTERM: it ends after the move it is making);
    returns what it wrote."""
    end(clock.process, grace=20)
    return clock.log.read_text()


@dataclass
class Stack:
    servers: tuple[Worker, Worker]
    clocks: tuple[Clock, Clock]
    environment: dict[str, str]


# Bots wait 0.05 s and the next round is dealt 0.2 s after the last, so that whole matches are
# played in seconds.
FAST_PLAY = {"PLAY_BOT_DELAY": "0.05", "PLAY_ROUND_PAUSE": "0.2"}


@contextlib.contextmanager
def running_stack(environment: dict[str, str], tmp_path: Path) -> Iterator[Stack]:
    """Two app servers and two play workers with this environment, stopped afterwards as a
    process manager stops them."""
    servers = (start_worker(environment, tmp_path), start_worker(environment, tmp_path))
    clocks = (
        start_clock(environment, tmp_path / "clock-1.log"),
        start_clock(environment, tmp_path / "clock-2.log"),
    )
    try:
        for server in servers:
            wait_until_ready(server)
        yield Stack(servers, clocks, environment)
    finally:
        for server in servers:
            end(server.process, grace=10)
        for clock in clocks:
            stop_clock(clock)


@pytest.fixture
def production_stack(transactional_db, redis_prefix, tmp_path) -> Iterator[Stack]:
    """Production as docs/deployment.md describes it, on one machine: two app servers (gunicorn with
    uvicorn workers) and two play workers on the test database, sharing one Redis; play is
    fast (FAST_PLAY)."""
    environment = production_environment(redis_prefix, tmp_path) | FAST_PLAY
    with running_stack(environment, tmp_path) as stack:
        yield stack


class RedisProxy:
    """A TCP proxy of the test's own between the stack and the test Redis: `cut()` drops every
    connection through it and refuses new ones until `restore()`, as a Redis restarting would;
    `cut(silently=True)` takes new ones and never answers, as a network that drops packets
    would. The Redis behind it (which other test runs share) is untouched."""

    def __init__(self, url: str) -> None:
        target = urlsplit(url)
        self.upstream = (target.hostname or HOST, target.port or 6379)
        self.listener = socket.create_server((HOST, 0))
        port = self.listener.getsockname()[1]
        credentials = target.netloc.rpartition("@")[0]
        netloc = f"{credentials}@{HOST}:{port}" if credentials else f"{HOST}:{port}"
        self.url = urlunsplit(target._replace(netloc=netloc))
        self.cut_off = threading.Event()
        self.silent = False
        self.lock = threading.Lock()
        self.open: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self, *, silently: bool = False) -> None:
        self.silent = silently
        self.cut_off.set()
        self._close_all()

    def restore(self) -> None:
        self.cut_off.clear()
        self._close_all()  # the connections held unanswered

    def _close_all(self) -> None:
        with self.lock:
            cut, self.open = self.open, set()
        for sock in cut:
            _close(sock)

    def close(self) -> None:
        self.listener.close()
        self.cut()

    def _accept(self) -> None:
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return  # closed
            if self.cut_off.is_set():
                if self.silent:
                    with self.lock:
                        self.open.add(client)  # taken, and never answered
                else:
                    _close(client)  # refused: the connection ends before Redis says a word
                continue
            try:
                upstream = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                _close(client)
                continue
            upstream.settimeout(None)
            with self.lock:
                self.open |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        with self.lock:
            self.open -= {source, sink}
        for sock in (source, sink):
            _close(sock)


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


@pytest.fixture
def redis_proxy(redis_prefix) -> Iterator[RedisProxy]:
    proxy = RedisProxy(REDIS_URL)
    yield proxy
    proxy.close()
