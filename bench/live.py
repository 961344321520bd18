"""Live play in a real browser (issue 19): how soon the other person is offered their move, on
the stack `make run` starts and on the production stack, quiet and under the load of 200
moving tables with 4 watchers each.

Two people (two Chromium contexts, two accounts) sit at one 2-seat table and take turns. For
each move, the clicking page notes `Date.now()` right before it dispatches the click on a card
(or draw, or pass); a MutationObserver in the other page notes `Date.now()` when its `#board`
first shows the heading "Your turn" for the new version. Both pages run in one browser, so
both times come from one clock. A move after which the mover keeps the turn, or that ends the
round, offers the other nothing and is not a sample (the round's next deal is clicked, not
measured). The pages also note when the move's POST was answered (resource timing), when the
other page's EventSource heard the new version, and when its board fetch started and was
answered (htmx events): the report splits the time between them.

The stacks, each started and stopped here on 127.0.0.1, with nothing of them left behind:

- `make run`: `manage.py serve` (uvicorn and one play worker) with DJANGO_DEBUG=1, on a fresh
  SQLite file (migrated first) and no Redis: versions travel through the database's
  `core_liveevent` table.
- production: two app servers, each gunicorn with one `uvicorn_worker.UvicornWorker`
  (`config.asgi`), and two play workers, DJANGO_DEBUG=0, DJANGO_CONN_MAX_AGE=0 (Django's
  advice under ASGI; `connection_probe` shows why), on PostgreSQL and Redis (127.0.0.1:6379,
  under a key prefix of its own, emptied afterwards). PostgreSQL is a cluster of the
  benchmark's own (`private_postgres`): each open event stream holds a connection, and 800 of
  them would fill the machine's shared server and lock everyone else out. The two people's
  browsers are on different servers, so every move crosses Redis. No proxy is in front, so the
  HTTPS redirect is turned off with DJANGO_SECURE_SSL_REDIRECT=0 (the settings' switch for a
  proxy that redirects); the browsers get their session and CSRF cookies from the benchmark
  (the site marks them Secure).
- the load, on the production stack: LOAD_TABLES tables of four `greedy` bots (their creator
  resigned, so the site plays every seat), each making one move every LOAD_MOVE_SECONDS,
  driven by the two play workers; LOAD_WATCHERS watchers per table (bench/live_watchers.py,
  one asyncio process, the watchers of a table shared between the two servers) hold its event
  stream open and fetch the board after each move as a browser does. Memory per connection is
  the app servers' RSS after the streams opened less before, divided by the streams (and the
  same for PostgreSQL's PSS); CPU is read from /proc.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench import harness
from bench.common import (
    ROOT,
    Check,
    Options,
    Section,
    busy_core,
    load_average,
    log,
    markdown_table,
)

NAME = "live"
TITLE = "Live play: a move seen by the other player, and 800 watchers (`/play/<pk>/events/`)"
HOST = "127.0.0.1"
MEDIAN_TARGET = 0.150
P95_TARGET = 0.250
# The load: tables, watchers per table, and how often each table moves (the bots' delay and
# the pause before the next deal). Every move costs each of the table's watchers a board fetch,
# about 10 ms of an app server's CPU here, so two cores carry well under 200 fetches a second
# even with nothing else running. 200 tables moving every 20 s are 10 moves and 40 board
# fetches a second: a busy evening's site, leaving room for Chromium, PostgreSQL, the workers
# and whatever else the machine runs.
LOAD_TABLES = 200
LOAD_WATCHERS = 4
LOAD_MOVE_SECONDS = 20.0
# PostgreSQL as Debian installs it; the benchmark runs a cluster of its own (see
# private_postgres), so that its connections never crowd the machine's shared server.
POSTGRES_BIN = Path("/usr/lib/postgresql")
POSTGRES_CONNECTIONS = 1000
# Connections in each process's pool on the production stack (the site's default).
POOL_SIZE = 10
REDIS = "redis://127.0.0.1:6379/0"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
PYTHON = sys.executable


def run(options: Options) -> Section:
    chromium = shutil.which("chromium")
    if chromium is None:
        raise RuntimeError("Debian's chromium is not on PATH (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="bench-live-"))
    results: dict[str, Latency] = {}
    load: Load | None = None
    probe: Probe | None = None
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, headless=True, args=CHROMIUM_ARGS
            )
            try:
                with make_run_stack(tmp / "make-run") as stack:
                    results["make run"] = two_people(browser, stack, options.live_moves)
                    with busy_core():
                        results["make run, busy"] = two_people(browser, stack, options.live_moves)
                with production_stack(tmp / "production") as stack:
                    probe = connection_probe(stack, tmp / "production")
                    results["production"] = two_people(browser, stack, options.live_moves)
                    load = under_load(browser, stack, options.live_moves)
                    results["production, loaded"] = load.latency
            finally:
                browser.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return report(results, load, probe)


# --- processes ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


# The benchmark's two people are machines that move the moment the page lets them (about
# three moves a second), past the site's limit on moves at a person's pace.
RATE_LIMITS = "move=100000/m,deal=100000/m"


def base_environment() -> dict[str, str]:
    """This process's environment less every setting of the site: each stack sets its own
    (but the rate limits on moves and deals, above)."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "ALLAUTH_", "PLAY_", "BENCH_"))
        and name not in ("REDIS_URL", "DATABASE_URL")
    } | {"DJANGO_RATE_LIMITS": RATE_LIMITS}


def manage(env: dict[str, str], *args: str, timeout: float = 300) -> str:
    done = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def site(env: dict[str, str], *args: str) -> dict:
    """bench/live_site.py in the stack's environment: accounts and tables, as JSON."""
    done = subprocess.run(
        [PYTHON, "-m", "bench.live_site", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode:
        raise RuntimeError(f"bench.live_site {' '.join(args)} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


@dataclass
class Process:
    name: str
    popen: subprocess.Popen
    log_path: Path
    port: int | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def log_tail(self, lines: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""


def spawn(name: str, command: list[str], env: dict[str, str], tmp: Path, port=None) -> Process:
    log_path = tmp / f"{name}.log"
    return Process(name, harness.spawn(command, env, log_path), log_path, port)


def stop(process: Process) -> None:
    harness.stop_group(process.popen)


def wait_until_ready(process: Process, timeout: float = 60) -> None:
    harness.wait_until_answers(
        process.popen, process.port, "/accounts/login/", timeout, process.name, process.log_tail
    )


@dataclass
class Stack:
    name: str
    env: dict[str, str]
    servers: list[Process]
    workers: list[Process] = field(default_factory=list)
    postgres: PostgresCluster | None = None


@contextlib.contextmanager
def make_run_stack(tmp: Path) -> Iterator[Stack]:
    """What `make run` starts, on a fresh SQLite file: `manage.py serve` (uvicorn and one play
    worker), DJANGO_DEBUG=1, no Redis."""
    tmp.mkdir(parents=True)
    env = base_environment() | {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
    }
    manage(env, "migrate", "--no-input")
    port = free_port()
    serve = spawn("serve", [PYTHON, "manage.py", "serve", "--port", str(port)], env, tmp, port=port)
    try:
        wait_until_ready(serve)
        log(f"[{NAME}] make run stack: manage.py serve (pid {serve.popen.pid}) on port {port}")
        yield Stack("make run", env, [serve])
    finally:
        stop(serve)
        log(f"[{NAME}] make run stack stopped")


@contextlib.contextmanager
def private_postgres() -> Iterator[PostgresCluster]:
    """A PostgreSQL cluster of the benchmark's own (Debian's binaries, its default settings
    but max_connections=1000) on a free port of 127.0.0.1, trust auth, user postgres; stopped
    and deleted afterwards. Each open event stream holds a database connection (see the
    report), so 800 of them would fill the machine's shared server (max_connections 100)
    and refuse everyone else's connections."""
    versions = sorted(POSTGRES_BIN.glob("*/bin/initdb"), key=lambda path: int(path.parts[-3]))
    if not versions:
        raise RuntimeError(f"no PostgreSQL under {POSTGRES_BIN} (apt-get install postgresql)")
    bin_dir = versions[-1].parent
    data = Path(tempfile.mkdtemp(prefix="bench-live-pg-"))
    # PostgreSQL refuses to run as root: as root, the cluster is the postgres account's.
    as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_owner:
        shutil.chown(data, "postgres", "postgres")
    port = free_port()
    options = (
        f"-p {port} -c listen_addresses={HOST} -c unix_socket_directories={data} "
        f"-c max_connections={POSTGRES_CONNECTIONS}"
    )

    def run(*command: str) -> None:
        subprocess.run(
            [*as_owner, *command], check=True, capture_output=True, text=True, timeout=120
        )

    started = False
    try:
        run(str(bin_dir / "initdb"), "-D", str(data / "db"), "-A", "trust", "-U", "postgres")
        run(
            str(bin_dir / "pg_ctl"),
            "-D",
            str(data / "db"),
            "-o",
            options,
            "-l",
            str(data / "log"),
            "-w",
            "start",
        )
        started = True
        pid = int((data / "db" / "postmaster.pid").read_text().split()[0])
        log(f"[{NAME}] PostgreSQL {versions[-1].parts[-3]} of our own on port {port}")
        yield PostgresCluster(f"postgresql://postgres@{HOST}:{port}", pid)
    finally:
        if started:
            run(str(bin_dir / "pg_ctl"), "-D", str(data / "db"), "-m", "fast", "-w", "stop")
        shutil.rmtree(data, ignore_errors=True)


@dataclass
class PostgresCluster:
    url: str
    pid: int  # the postmaster: every backend is its child


@contextlib.contextmanager
def production_stack(tmp: Path) -> Iterator[Stack]:
    """Two app servers (gunicorn, one uvicorn worker each) and two play workers on a fresh
    PostgreSQL cluster and Redis, DJANGO_DEBUG=0; the cluster is deleted and the Redis keys
    too afterwards."""
    import redis

    tmp.mkdir(parents=True)
    prefix = f"bench-live-{secrets.token_hex(4)}"
    processes: list[Process] = []
    with private_postgres() as postgres:
        try:
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
                # Django: "When using ASGI, persistent connections should be disabled" (each
                # request's thread would keep a connection of its own; see connection_probe).
                "DJANGO_CONN_MAX_AGE": "0",
                "DJANGO_DB_POOL_SIZE": str(POOL_SIZE),
                "PLAY_BOT_DELAY": str(LOAD_MOVE_SECONDS),
                "PLAY_ROUND_PAUSE": str(LOAD_MOVE_SECONDS),
            }
            manage(env, "migrate", "--no-input")
            manage(env, "collectstatic", "--no-input", "-v0")
            servers = []
            for number in (1, 2):
                port = free_port()
                servers.append(spawn(f"app-server-{number}", _gunicorn(port), env, tmp, port=port))
            processes += servers
            workers = [
                spawn(f"play-worker-{number}", [PYTHON, "manage.py", "play_worker"], env, tmp)
                for number in (1, 2)
            ]
            processes += workers
            for server in servers:
                wait_until_ready(server)
            log(
                f"[{NAME}] production stack: app servers on ports "
                f"{', '.join(str(server.port) for server in servers)}, 2 play workers, "
                f"Redis prefix {prefix}"
            )
            yield Stack("production", env, servers, workers, postgres)
        finally:
            for process in processes:
                stop(process)
            client = redis.Redis.from_url(REDIS, socket_timeout=5)
            for key in client.scan_iter(match=f"{prefix}*"):
                client.delete(key)
            client.close()
            log(f"[{NAME}] production stack stopped")


PROBE_REQUESTS = 40


def database_connections(stack: Stack) -> int:
    """Client connections to the stack's database now, less the one asking."""
    import psycopg

    with psycopg.connect(stack.env["DATABASE_URL"]) as conn:
        query = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        return conn.execute(query).fetchone()[0] - 1


@dataclass
class Probe:
    requests: int
    before: int
    after: int
    stopped: int


def connection_probe(stack: Stack, tmp: Path) -> Probe:
    """A third app server like the others but with the site's default database settings (no
    DJANGO_CONN_MAX_AGE: a psycopg pool per process, connections not kept by requests): the
    PostgreSQL connections to the database before and after PROBE_REQUESTS board GETs one
    after the other, and once it has stopped."""

    def connections() -> int:
        return database_connections(stack)

    table = site(stack.env, "people")["table"]
    env = {k: v for k, v in stack.env.items() if k != "DJANGO_CONN_MAX_AGE"}
    port = free_port()
    server = spawn("probe-server", _gunicorn(port), env, tmp, port=port)
    try:
        wait_until_ready(server)
        time.sleep(0.5)
        before = connections()
        for _ in range(PROBE_REQUESTS):
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            conn.request("GET", f"/play/{table}/")
            conn.getresponse().read()
            conn.close()
        time.sleep(1)
        after = connections()
    finally:
        stop(server)
    time.sleep(0.5)
    probe = Probe(PROBE_REQUESTS, before, after, connections())
    log(f"[{NAME}] default database settings under ASGI: {probe}")
    return probe


def _gunicorn(port: int) -> list[str]:
    return [
        PYTHON,
        "-m",
        "gunicorn",
        "config.asgi:application",
        "--worker-class",
        "uvicorn_worker.UvicornWorker",
        "--workers",
        "1",
        "--bind",
        f"{HOST}:{port}",
        "--graceful-timeout",
        "2",
    ]


# --- the browser ---------------------------------------------------------------------------

# In every page, before the site's scripts: the times the measurement reads, all Date.now()
# (one clock for both pages): versions heard by the EventSource, htmx requests starting and
# answered, the first moment each board version shows "Your turn", and the version of the
# board htmx has made live (its forms post through htmx only once it has processed them).
MEASURE = """(() => {
  const live = (window.__live = {
    open: false, ready: 0, events: [], requests: [], moves: [], turns: [],
  });
  const Native = window.EventSource;
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("open", () => { live.open = true; });
      this.addEventListener("version", (event) => {
        live.events.push([Date.now(), Number(event.data)]);
      });
    }
  };
  document.addEventListener("htmx:beforeRequest", (event) => {
    live.requests.push([Date.now(), "start", event.detail.requestConfig.verb]);
  });
  // Before the swap, on the target: the answer has come (the form that sent it is swapped out,
  // so its own afterRequest never reaches the document).
  document.addEventListener("htmx:beforeSwap", (event) => {
    live.requests.push([Date.now(), "end", event.detail.requestConfig.verb]);
  });
  // A move's POST from the network's view: htmx drops its answer when a board fetched meanwhile
  // has replaced the form that sent it (the mover's own stream heard the move first).
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name.includes("/move/")) {
        const origin = performance.timeOrigin;
        live.moves.push([origin + entry.startTime, origin + entry.responseEnd]);
      }
    }
  }).observe({ type: "resource" });
  document.addEventListener("htmx:load", (event) => {
    const board = event.target.id === "board" ? event.target : event.target.querySelector("#board");
    if (board && board.isConnected) live.ready = Number(board.dataset.liveVersion);
  });
  const seen = new Set();
  new MutationObserver(() => {
    const board = document.getElementById("board");
    if (!board) return;
    const version = Number(board.dataset.liveVersion);
    if (seen.has(version)) return;
    const heading = board.querySelector(".my-hand h2");
    if (heading && heading.textContent.trim().startsWith("Your turn")) {
      seen.add(version);
      live.turns.push([Date.now(), version]);
    }
  }).observe(document, { childList: true, subtree: true });
})();"""

BOARD = """() => {
  const board = document.getElementById("board");
  const heading = board.querySelector(".my-hand h2");
  return {
    version: Number(board.dataset.liveVersion),
    mine: !!heading && heading.textContent.trim().startsWith("Your turn"),
    over: !!board.querySelector(".round-end"),
    matchOver: !board.hasAttribute("hx-get"),
    error: (board.querySelector(".errors") || {}).textContent || "",
  };
}"""

# The move a person would make (tests/browser/test_play.py, take_my_turn): a turned-up Queen's
# suit, else the first card that may be played (a Queen orders its first suit), else draw,
# else pass. It waits until htmx has made the board live (20 ms after a swap, htmx's settle
# delay: a click before that posts the plain form and reloads the page, which no person's
# click is fast enough to do), and notes the time right before the click is dispatched.
CLICK = """async (version) => {
  while (window.__live.ready < version) await new Promise((done) => setTimeout(done, 2));
  const board = document.getElementById("board");
  if (Number(board.dataset.liveVersion) !== version) return null;
  const button =
    board.querySelector("form.turned-up button") ||
    board.querySelector(".hand form.inline button.card") ||
    board.querySelector(".hand details.queen-pick .suit-picker button") ||
    board.querySelector("button[name=kind][value=draw]") ||
    board.querySelector("button[name=kind][value=pass]");
  if (!button) return null;
  const at = Date.now();
  button.click();
  return at;
}"""

NEWER = "v => Number(document.getElementById('board').dataset.liveVersion) > v"


def wait_for(page, predicate: str, arg=None, timeout_ms: int = 20_000):
    """Until `predicate(arg)`, a function's source, is truthy in the page: its value. A loop in
    the page itself (Playwright's wait_for_function evaluates strings, which the site's
    Content Security Policy forbids), looking every 2 ms."""
    return page.evaluate(
        f"""async ([arg, timeout]) => {{
          const test = {predicate};
          const end = Date.now() + timeout;
          for (;;) {{
            const value = test(arg);
            if (value) return value;
            if (Date.now() > end) throw new Error("timed out waiting for " + test);
            await new Promise((done) => setTimeout(done, 2));
          }}
        }}""",
        [arg, timeout_ms],
    )


NEXT_ROUND = """async (version) => {
  while (window.__live.ready < version) await new Promise((done) => setTimeout(done, 2));
  const button = document.querySelector("#board .round-end form button");
  if (button) button.click();
  return !!button;
}"""


@dataclass
class Sample:
    """One move's times, in ms after the click: its POST answered in the mover's page, the
    new version heard by the other page's EventSource, that page's board fetch started and
    answered, and "Your turn" shown; and whether the mover's own page fetched its board again
    (its stream heard its own move before the POST's answer came)."""

    answered: float
    heard: float
    fetch_start: float
    fetch_end: float
    shown: float
    mover_fetched: bool


@dataclass
class Latency:
    samples: list[Sample]
    moves: int
    seconds: float
    load_before: str
    load_after: str
    tables: int

    def values(self, name: str = "shown") -> list[float]:
        return sorted(getattr(sample, name) for sample in self.samples)

    def quantile(self, q: float, name: str = "shown") -> float:
        return statistics.quantiles(self.values(name), n=100, method="inclusive")[
            round(q * 100) - 1
        ]

    def median(self, name: str = "shown") -> float:
        return statistics.median(self.values(name))


def two_people(browser, stack: Stack, moves: int) -> Latency:
    """Two people at a 2-seat table, each in a browser context of their own (on different app
    servers when the stack has two), taking turns until `moves` moves have passed the turn to
    the other; a new pair of accounts at a new table if a match ends first."""
    samples: list[Sample] = []
    load_before = load_average()
    began = time.monotonic()
    clicks = tables = 0
    while len(samples) < moves:
        tables += 1
        clicks += _one_table(browser, stack, moves, samples)
    return Latency(samples, clicks, time.monotonic() - began, load_before, load_average(), tables)


def _one_table(browser, stack: Stack, moves: int, samples: list[Sample]) -> int:
    """Two new accounts at a new table play until there are `moves` samples or the match
    ends; returns the moves they made."""
    pair = site(stack.env, "people")
    servers = [stack.servers[0], stack.servers[-1]]
    contexts = []
    token = secrets.token_hex(16)
    try:
        pages = []
        for server, session in zip(servers, pair["sessions"], strict=True):
            context = browser.new_context(base_url=server.url, locale="en-GB")
            contexts.append(context)
            context.set_default_timeout(20_000)
            context.add_cookies(
                [
                    {"name": pair["cookie"], "value": session, "url": server.url},
                    # The token the pages' forms carry; the site would set it as a Secure
                    # cookie, which plain http on 127.0.0.1 need not keep.
                    {"name": pair["csrf_cookie"], "value": token, "url": server.url},
                ]
            )
            context.add_init_script(MEASURE)
            page = context.new_page()
            page.goto(f"/play/{pair['table']}/")
            pages.append(page)
        for page in pages:
            wait_for(page, "() => window.__live.open")
        return _take_turns(pages, moves, samples, stack.name)
    finally:
        for context in contexts:
            context.close()


def _take_turns(pages, moves: int, samples: list[Sample], label: str) -> int:
    clicks = 0
    while len(samples) < moves:
        boards = [page.evaluate(BOARD) for page in pages]
        if any(board["matchOver"] for board in boards):
            log(f"[{NAME}] {label}: the match ended after {clicks} moves; a new table")
            return clicks
        if boards[0]["over"] or boards[1]["over"]:
            _next_round(pages, boards)
            continue
        movers = [number for number, board in enumerate(boards) if board["mine"]]
        if len(movers) != 1:
            # A page still catching up (it shows an older version): wait for it.
            pages[0].wait_for_timeout(10)
            continue
        mover, other = pages[movers[0]], pages[1 - movers[0]]
        version = boards[movers[0]]["version"]
        clicked = mover.evaluate(CLICK, version)
        if clicked is None:
            continue  # the board changed meanwhile: look again
        clicks += 1
        wait_for(mover, NEWER, version)
        after = mover.evaluate(BOARD)
        if after["error"]:
            raise RuntimeError(f"the move was refused: {after['error']}")
        if after["mine"] or after["over"]:
            continue  # the mover keeps the turn, or the round ended: the other is offered nothing
        new = after["version"]
        shown = wait_for(other, "v => (window.__live.turns.find(t => t[1] >= v) || [0])[0]", new)
        samples.append(_sample(clicked, new, shown, mover, other))
        if len(samples) % 50 == 0:
            log(
                f"[{NAME}] {label}: {len(samples)}/{moves} moves, median so far "
                f"{statistics.median(s.shown for s in samples):.0f} ms"
            )
    return clicks


def _next_round(pages, boards) -> None:
    """A round ended: the first person deals the next one (as they would, sooner than the
    server's pause), and both boards are waited for."""
    version = max(board["version"] for board in boards)
    for page in pages:
        wait_for(
            page, "v => Number(document.getElementById('board').dataset.liveVersion) >= v", version
        )
    if not pages[0].evaluate(NEXT_ROUND, version):
        raise RuntimeError("the round is over and no 'Next round' button is offered")
    for page in pages:
        wait_for(page, NEWER, version)


def _sample(clicked: int, version: int, shown: int, mover, other) -> Sample:
    # Resource timing is on the page's own clock, a hair off Date.now(): the move's POST is
    # the first that started after the click (less 5 ms); waited for, its entry comes late.
    answered = wait_for(
        mover, "t => (window.__live.moves.find(([start]) => start >= t - 5) || [])[1]", clicked
    )
    requests = mover.evaluate("window.__live.requests")
    seen = other.evaluate("[window.__live.events, window.__live.requests]")
    heard = next(t for t, v in seen[0] if v >= version)
    fetched = [(t, what) for t, what, verb in seen[1] if verb == "get" and t >= heard]
    start = next((t for t, what in fetched if what == "start"), shown)
    end = next((t for t, what in fetched if what == "end" and t >= start), shown)
    return Sample(
        answered=answered - clicked,
        heard=heard - clicked,
        fetch_start=start - clicked,
        fetch_end=end - clicked,
        shown=shown - clicked,
        mover_fetched=any(
            clicked <= t <= answered and what == "start" and verb == "get"
            for t, what, verb in requests
        ),
    )


# --- the load ------------------------------------------------------------------------------


@dataclass
class Footprint:
    """What the servers hold at one moment."""

    app_rss: int  # bytes, both app servers (gunicorn and its worker)
    app_threads: int
    database_connections: int
    postgres_pss: int  # bytes, the cluster's processes (proportional set size)

    @classmethod
    def of(cls, stack: Stack) -> Footprint:
        servers = [pid for server in stack.servers for pid in tree(server.popen.pid)]
        postgres = tree(stack.postgres.pid) if stack.postgres else []
        return cls(
            app_rss=sum(rss(pid) for pid in servers),
            app_threads=sum(threads(pid) for pid in servers),
            database_connections=database_connections(stack),
            postgres_pss=sum(pss(pid) for pid in postgres),
        )


POLLS = 40


def poll_times(stack: Stack, table: int) -> list[float]:
    """POLLS unchanged polls of a table nobody plays (`GET /play/<pk>/?v=<version>` from htmx:
    one plain query, answered 204 without rendering), one after the other on new connections,
    the servers in turn: how soon a server answers at all, in ms."""
    times = []
    version = None
    for number in range(POLLS + 1):
        server = stack.servers[number % len(stack.servers)]
        conn = http.client.HTTPConnection(HOST, server.port, timeout=30)
        began = time.perf_counter()
        if version is None:
            conn.request("GET", f"/play/{table}/")
            body = conn.getresponse().read().decode()
            version = body.split('data-live-version="', 1)[1].split('"', 1)[0]
        else:
            conn.request("GET", f"/play/{table}/?v={version}", headers={"HX-Request": "true"})
            response = conn.getresponse()
            response.read()
            if response.status != 204:
                raise RuntimeError(f"the unchanged poll answered {response.status}")
            times.append((time.perf_counter() - began) * 1000)
        conn.close()
    return times


@dataclass
class Load:
    latency: Latency
    tables: int
    watchers: int
    opened: int
    seen: dict
    before: Footprint
    after: Footprint
    cpu: dict[str, float]
    window: float
    polls_quiet: list[float]
    polls_loaded: list[float]
    loops_waited: float  # seconds the app servers' main threads waited for a CPU
    pools: int  # processes with a pool of POOL_SIZE connections (app servers, play workers)


def under_load(browser, stack: Stack, moves: int) -> Load:
    """LOAD_TABLES bot tables moving, LOAD_WATCHERS watchers on each, and the two people's
    turns measured again meanwhile."""
    still = site(stack.env, "people")["table"]
    polls_quiet = poll_times(stack, still)
    tables = site(stack.env, "bots", str(LOAD_TABLES), str(LOAD_MOVE_SECONDS))["tables"]
    log(f"[{NAME}] {len(tables)} bot tables moving every {LOAD_MOVE_SECONDS:g} s")
    time.sleep(2)
    before = Footprint.of(stack)
    ports = ",".join(str(server.port) for server in stack.servers)
    command = [
        PYTHON,
        "-m",
        "bench.live_watchers",
        ports,
        ",".join(map(str, tables)),
        str(LOAD_WATCHERS),
        "1800",  # at most; stopped by SIGTERM once the browser's moves are made
    ]
    watchers = subprocess.Popen(
        command,
        cwd=ROOT,
        env=base_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        line = watchers.stdout.readline()
        if not line.startswith("open "):
            raise RuntimeError(f"the watchers did not start: {line}{watchers.stderr.read()}")
        opened = int(line.split()[1])
        log(f"[{NAME}] {opened} watchers hold their event streams")
        time.sleep(5)
        after = Footprint.of(stack)
        log(f"[{NAME}] before {before}, after {after}")
        groups = {
            "app servers": [server.popen.pid for server in stack.servers],
            "play workers": [worker.popen.pid for worker in stack.workers],
            "watchers (asyncio client)": [watchers.pid],
            "PostgreSQL (the benchmark's cluster)": [stack.postgres.pid],
        }
        loops = [pid for server in stack.servers for pid in tree(server.popen.pid)]
        cpu_before, waited_before = cpu_times(groups), waited(loops)
        clock = time.monotonic()
        latency = two_people(browser, stack, moves)
        window = time.monotonic() - clock
        cpu_after, loops_waited = cpu_times(groups), waited(loops) - waited_before
        cpu = {name: (cpu_after[name] - cpu_before[name]) / window * 100 for name in cpu_after}
        polls_loaded = poll_times(stack, still)
    finally:
        if watchers.poll() is None:
            watchers.send_signal(signal.SIGTERM)
        out, err = watchers.communicate(timeout=60)
    seen = json.loads(out.strip().splitlines()[-1]) if out.strip() else {"error": err[-2000:]}
    return Load(
        latency=latency,
        tables=len(tables),
        watchers=len(tables) * LOAD_WATCHERS,
        opened=opened,
        seen=seen,
        before=before,
        after=after,
        cpu=cpu,
        window=window,
        polls_quiet=polls_quiet,
        polls_loaded=polls_loaded,
        loops_waited=loops_waited,
        pools=len(stack.servers) + len(stack.workers),
    )


# --- /proc ---------------------------------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name_end = text.rindex(")")
    return [text[text.index("(") + 1 : name_end], *text[name_end + 2 :].split()]


def _children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))):
            children.setdefault(int(stat[2]), []).append(int(entry.name))
    return children


def tree(pid: int, children: dict[int, list[int]] | None = None) -> list[int]:
    children = _children() if children is None else children
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def rss(pid: int) -> int:
    """A process's resident memory, in bytes."""
    stat = _stat(pid)
    return int(stat[22]) * PAGE if stat else 0


def _status(pid: int, path: str, key: str) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in Path(f"/proc/{pid}/{path}").read_text().splitlines():
            if line.startswith(f"{key}:"):
                return int(line.split()[1])
    return 0


def waited(pids: list[int]) -> float:
    """Seconds the main threads of these processes (an app server's event loop) have spent
    ready to run but waiting for a CPU (`/proc/<pid>/schedstat`, second field)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[1])
    return total / 1e9


def threads(pid: int) -> int:
    return _status(pid, "status", "Threads")


def pss(pid: int) -> int:
    """A process's proportional set size (shared pages divided among their users), bytes:
    PostgreSQL's backends share its buffers, which RSS would count once per backend."""
    return _status(pid, "smaps_rollup", "Pss") * 1024


def cpu_times(groups: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds (user + system) of each group of process trees, plus Redis and the whole
    machine (`/proc/stat`, busy time of all cores)."""
    children = _children()
    times = {}
    for name, pids in groups.items():
        times[name] = sum(
            (int(stat[12]) + int(stat[13])) / TICKS
            for pid in pids
            for p in tree(pid, children)
            if (stat := _stat(p))
        )
    # This process's tree holds the servers, workers and watchers it started, and Chromium.
    own = sum(
        (int(stat[12]) + int(stat[13])) / TICKS
        for p in tree(os.getpid(), children)
        if (stat := _stat(p))
    )
    started = sum(seconds for name, seconds in times.items() if not name.startswith("PostgreSQL"))
    times["this benchmark (Python, Playwright, Chromium)"] = own - started
    times["Redis (the machine's, shared)"] = sum(
        (int(stat[12]) + int(stat[13])) / TICKS
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit()
        and (stat := _stat(int(entry.name)))
        and stat[0].startswith("redis-server")
    )
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    idle = int(fields[3]) + int(fields[4])
    times["the whole machine (all processes, both cores)"] = (
        sum(int(value) for value in fields[:8]) - idle
    ) / TICKS
    return times


# --- the report ----------------------------------------------------------------------------

STACKS = {
    "make run": "`make run`: uvicorn + 1 play worker, SQLite, no Redis, DEBUG on",
    "make run, busy": "`make run` beside a process keeping one of the two cores busy",
    "production": "production: 2 app servers (the two browsers on different ones), 2 play "
    "workers, PostgreSQL, Redis",
    "production, loaded": f"production under the load below ({LOAD_TABLES} tables moving, "
    f"{LOAD_TABLES * LOAD_WATCHERS} streams held)",
}


def report(results: dict[str, Latency], load: Load | None, probe: Probe | None) -> Section:
    checks = []
    rows = []
    for name, latency in results.items():
        median, p95 = latency.median(), latency.quantile(0.95)
        ok = median <= MEDIAN_TARGET * 1000 and p95 <= P95_TARGET * 1000
        checks.append(
            Check(
                f'{name}: click to the other person\'s "Your turn", median ≤ '
                f"{MEDIAN_TARGET * 1000:.0f} ms and p95 ≤ {P95_TARGET * 1000:.0f} ms",
                f"median {median:.0f} ms, p95 {p95:.0f} ms, max {max(latency.values()):.0f} ms",
                ok,
            )
        )
        fetch = [s.fetch_end - s.fetch_start for s in latency.samples]
        refetched = sum(s.mover_fetched for s in latency.samples) / len(latency.samples)
        rows.append(
            [
                STACKS.get(name, name),
                f"{len(latency.samples)} ({latency.moves} moves, {latency.tables} table(s))",
                f"**{median:.0f}** / **{p95:.0f}** / {max(latency.values()):.0f}",
                _pair(latency, "answered"),
                _pair(latency, "heard"),
                f"{statistics.median(fetch):.0f} / {_p95(fetch):.0f}",
                f"{statistics.median(s.shown - s.fetch_end for s in latency.samples):.0f}",
                f"{refetched:.0%}",
                f"{latency.load_before.split()[0]} → {latency.load_after.split()[0]}",
            ]
        )
    parts = [
        "Two people at one 2-seat table in headless Chromium (two contexts, two accounts), "
        "taking turns; a sample is a move after which the other person is to move: from the "
        "click (`Date.now()` in the clicking page, right before the click is dispatched) to the "
        'other page\'s `#board` showing "Your turn" (a MutationObserver there, same clock). '
        "The columns after it split that time, each in ms after the click, median / p95: the "
        "move's POST answered (resource timing in the mover's page), the new version heard by "
        "the other page's EventSource, that page's board fetch (htmx request to answer), and "
        'the swap. "Mover refetched" is the share of moves whose mover\'s own page fetched '
        "its board as well, its stream having heard the move before the POST's answer came. "
        "Everything runs on this one 2-core machine: the servers, PostgreSQL, Redis, Chromium "
        "and the watchers, beside whatever else the machine was doing (the load average).",
        markdown_table(
            [
                "Stack",
                "Samples",
                'Click → "Your turn": median / p95 / max ms',
                "POST answered",
                "Event heard",
                "Board fetch",
                "Fetched → shown (median)",
                "Mover refetched",
                "Load average (1 min)",
            ],
            rows,
        ),
    ]
    if probe is not None:
        leaked = probe.after - probe.before
        checks.append(
            Check(
                "production settings under ASGI: PostgreSQL connections left open by "
                f"{probe.requests} board GETs with the default database settings (a pool), "
                "at most 2",
                f"{leaked} (closed when the server stopped: {probe.after - probe.stopped})",
                leaked <= 2,
            )
        )
        parts.append(
            f"An app server started with the default database settings left **{leaked}** "
            f"PostgreSQL connections open after {probe.requests} board GETs made one after the "
            f"other ({probe.before} before, {probe.after} after, {probe.stopped} once it "
            "stopped). Under ASGI each request's database work runs in a thread of its own, so "
            "a connection kept by a request (`DJANGO_CONN_MAX_AGE` above 0, the default before "
            "issue 19) is never reused and piles up until PostgreSQL's `max_connections` "
            "refuses everyone; the site now takes its connections from a pool per process "
            "(psycopg's), and an event stream gives its request's connection back before it "
            "waits."
        )
    if load is not None:
        parts += _load_report(load, checks)
    return Section(NAME, TITLE, "\n\n".join(parts), checks)


def _load_report(load: Load, checks: list[Check]) -> list[str]:
    seen = load.seen
    before, after = load.before, load.after
    opened = max(load.opened, 1)
    closed = seen.get("streams_closed_early", 0)
    held_connections = after.database_connections - before.database_connections
    checks.append(
        Check(
            f"{load.watchers} event streams opened and held under load",
            f"{load.opened} opened, {closed} closed early, "
            f"errors: {sum(seen.get('errors', {}).values())}",
            load.opened == load.watchers and not closed and not seen.get("errors"),
        )
    )
    # A stream holds none: what the pools lend to the board fetches and moves meanwhile is
    # bounded by their size, however many streams are open.
    ceiling = load.pools * POOL_SIZE
    checks.append(
        Check(
            f"PostgreSQL connections with {load.opened} event streams open, at most what the "
            f"{load.pools} processes' pools hold ({load.pools} × {POOL_SIZE})",
            f"{after.database_connections} ({held_connections:+d} since the streams opened)",
            after.database_connections <= ceiling,
        )
    )
    seconds = seen.get("seconds") or 0
    fetches = seen.get("fetches", 0)
    rate = fetches / seconds if seconds else 0
    app_cpu = load.cpu.get("app servers", 0)
    mib = 2**20
    rows = [
        [
            "Tables moving",
            f"{load.tables} tables of 4 `greedy` bots, one move every {LOAD_MOVE_SECONDS:g} s "
            f"each (≈{load.tables / LOAD_MOVE_SECONDS:.0f} moves/s), by the 2 play workers",
        ],
        [
            "Watchers",
            f"{LOAD_WATCHERS} per table, {LOAD_WATCHERS // 2} on each app server "
            "(anonymous spectators: page, stream, a board fetch per new version)",
        ],
        ["Event streams held", f"**{load.opened}** of {load.watchers}, {closed} closed early"],
        [
            "App servers' RSS before → after opening the streams",
            f"{before.app_rss / mib:.0f} MiB → {after.app_rss / mib:.0f} MiB: "
            f"**{(after.app_rss - before.app_rss) / opened / 1024:.0f} KiB per connection**",
        ],
        [
            "App servers' threads before → after",
            f"{before.app_threads} → {after.app_threads}",
        ],
        [
            "PostgreSQL connections to the database before → after",
            f"{before.database_connections} → **{after.database_connections}**",
        ],
        [
            "PostgreSQL's memory (PSS of the cluster) before → after",
            f"{before.postgres_pss / mib:.0f} MiB → {after.postgres_pss / mib:.0f} MiB: "
            f"{(after.postgres_pss - before.postgres_pss) / opened / 1024:.0f} KiB per "
            "connection",
        ],
        [
            "Versions heard / board fetches by the watchers",
            f"{seen.get('events')} / {fetches} in {seconds:.0f} s (**{rate:.0f} fetches/s**), "
            f"answers {seen.get('statuses')}",
        ],
        [
            "A watcher's board fetch (new connection, GET, read), median / p95",
            _seconds_pair(seen.get("fetch_median"), seen.get("fetch_p95")),
        ],
        ["Errors", str(seen.get("errors") or "none")],
        [
            f"An unchanged poll (204, one query; {POLLS} one after the other), median / p95",
            f"quiet {statistics.median(load.polls_quiet):.0f} / {_p95(load.polls_quiet):.0f} "
            f"ms → under load **{statistics.median(load.polls_loaded):.0f} / "
            f"{_p95(load.polls_loaded):.0f} ms**",
        ],
    ]
    rows += [
        [f"CPU during the browser's {load.window:.0f} s, {name}", f"{percent:.0f}% of a core"]
        for name, percent in load.cpu.items()
    ]
    rows.append(
        [
            "The app servers' main threads (gunicorn, the uvicorn workers' event loops), "
            "ready to run but waiting for a CPU",
            f"{load.loops_waited:.1f} s in {load.window:.0f} s "
            f"(**{load.loops_waited / load.window * 1000:.0f} ms a second**)",
        ]
    )
    ours = sum(
        percent
        for name, percent in load.cpu.items()
        if not name.startswith(("Redis", "the whole machine"))
    )
    whole = load.cpu.get("the whole machine (all processes, both cores)", 0)
    rows.append(
        [
            "CPU of everything else on the machine (the whole machine less the above)",
            f"{max(whole - ours, 0):.0f}% of a core",
        ]
    )
    if rate:
        rows.append(
            [
                "App servers' CPU per watcher fetch (all their CPU ÷ the watchers' fetches, "
                "an upper bound)",
                f"≈{app_cpu / 100 / rate * 1000:.1f} ms",
            ]
        )
    return [markdown_table(["Under load", "Measured"], rows)]


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[94]


def _pair(latency: Latency, name: str) -> str:
    values = latency.values(name)
    return f"{statistics.median(values):.0f} / {_p95(values):.0f}"


def _seconds_pair(first: float | None, second: float | None) -> str:
    if first is None or second is None:
        return "–"
    return f"{first * 1000:.0f} ms / {second * 1000:.0f} ms"
