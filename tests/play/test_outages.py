"""Outages end by themselves. On the production stack (two app servers, two play workers, one
database, one Redis), with a visitor, a player and two live pages on both servers all along,
the database's connections killed every half second for 20 s, or Redis cut off for 30 s: no
page answers 500 (while the database is away a page says to try again in a moment: 503), no
worker stops, no move is lost or made twice, and every table moves again within 10 s after."""

import contextlib
import functools
import http.client
import itertools
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.db import connection
from django.urls import reverse

from cards101.rules import PRESETS
from play import services as play
from play.models import PlayTable
from tests.play.test_play import as_move, posted_moves
from tests.play.test_play_servers import log_in, send
from tests.play.test_production_stack import replayed, wait_until
from tests.servers import (
    FAST_PLAY,
    HOST,
    RedisProxy,
    Stack,
    Worker,
    production_environment,
    running_stack,
    stop_clock,
)

pytestmark = pytest.mark.django_db(transaction=True)

# Matches to 1000 points, so that no table ends while the test watches it.
LONG = PRESETS["classic"].replace(lose_over=1000)
BOT_TABLES = 4
# How soon after an outage every table moves again and every page answers again.
WITHIN = 10
PAGES = {"home page", "table page", "board fetch", "bob's board", "bob's move"}
ASKED = PAGES | {"event stream"}  # a stream stays open through an outage: asked once


@pytest.fixture
def stack(transactional_db, redis_prefix, redis_proxy, tmp_path) -> Iterator[Stack]:
    """The production stack with its Redis behind the test's proxy; bots wait 0.2 s."""
    environment = (
        production_environment(redis_prefix, tmp_path)
        | FAST_PLAY
        | {"PLAY_BOT_DELAY": "0.2", "REDIS_URL": redis_proxy.url}
    )
    with running_stack(environment, tmp_path) as stack:
        yield stack


@dataclass
class Answer:
    what: str
    status: int | None  # None: no answer at all
    asked: float  # time.monotonic()
    answered: float
    retry_after: str | None


@dataclass
class Post:
    """One of bob's moves: what he posted, on which version, and what the answer said."""

    version: str
    move: tuple
    outcome: str  # "taken" (the board came back without a refusal), "refused" or "unknown"


class Traffic:
    """People on both app servers all along: a visitor reading the home page, a table's page
    and its board; bob playing his table against a bot (the board he is shown, the first move
    it offers); and each server's event stream of the table, as a browser's EventSource
    (reconnecting after a second). Every answer is kept."""

    def __init__(self, stack: Stack, watched: PlayTable, bobs: PlayTable, cookies) -> None:
        self.servers = stack.servers
        self.watched, self.bobs, self.cookies = watched, bobs, cookies
        self.answers: list[Answer] = []
        self.posts: list[Post] = []
        self.heard: dict[int, list[tuple[float, int]]] = {s.port: [] for s in self.servers}
        self.streams: list[http.client.HTTPConnection] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self._visit, daemon=True),
            threading.Thread(target=self._play, daemon=True),
            *(
                threading.Thread(target=self._listen, args=(server,), daemon=True)
                for server in self.servers
            ),
        ]

    def __enter__(self) -> "Traffic":
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        with self.lock:
            for stream in self.streams:
                if stream.sock is not None:
                    _shut(stream.sock)
        for thread in self.threads:
            thread.join(timeout=15)

    def answered_since(self, moment: float) -> set[str]:
        """What has been answered (2xx) when asked after `moment`."""
        with self.lock:
            return {a.what for a in self.answers if a.asked > moment and a.status in (200, 204)}

    def statuses(self) -> Counter:
        with self.lock:
            return Counter((a.what, a.status) for a in self.answers)

    def _ask(self, what: str, call: Callable) -> tuple[int | None, str]:
        asked = time.monotonic()
        try:
            response, body = call()
        except (OSError, http.client.HTTPException):
            response, body = None, ""
        status = response.status if response else None
        retry_after = response.getheader("Retry-After") if response else None
        with self.lock:
            self.answers.append(Answer(what, status, asked, time.monotonic(), retry_after))
        return status, body

    def _visit(self) -> None:
        page = reverse("play:table", args=[self.watched.pk])
        fetch = {"HX-Request": "true", "X-Forwarded-For": "198.51.100.7"}
        for server in itertools.cycle(self.servers):
            if self.stopping.is_set():
                return
            self._ask("home page", functools.partial(server.request, "GET", "/"))
            self._ask("table page", functools.partial(server.request, "GET", page))
            board = functools.partial(server.request, "GET", f"{page}?v=0", headers=fetch)
            self._ask("board fetch", board)
            self.stopping.wait(0.2)

    def _play(self) -> None:
        page = reverse("play:table", args=[self.bobs.pk])
        action = reverse("play:move", args=[self.bobs.pk])
        for server in itertools.cycle(self.servers):
            if self.stopping.is_set():
                return
            board = functools.partial(send, server, "GET", page, self.cookies)
            status, body = self._ask("bob's board", board)
            offered = posted_moves(body, action) if status == 200 else []
            if not offered:
                self.stopping.wait(0.2)
                continue
            posted = offered[0]
            move = functools.partial(send, server, "POST", action, self.cookies, posted)
            status, body = self._ask("bob's move", move)
            if status is None or status >= 500:
                outcome = "unknown"
            else:
                outcome = "refused" if 'role="alert"' in body else "taken"
            self.posts.append(Post(posted["version"], as_move(posted), outcome))

    def _listen(self, server: Worker) -> None:
        events = reverse("play:events", args=[self.watched.pk]) + "?v=0"
        headers = {"X-Forwarded-Proto": "https", "Accept": "text/event-stream"}
        while not self.stopping.is_set():
            stream = http.client.HTTPConnection(HOST, server.port, timeout=30)
            with self.lock:
                self.streams.append(stream)
            opened = {}

            def open_(stream=stream, opened=opened):
                stream.request("GET", events, headers=headers)
                opened["response"] = stream.getresponse()
                return opened["response"], ""

            status, _body = self._ask("event stream", open_)
            if status == 200:
                with contextlib.suppress(OSError, http.client.HTTPException):
                    for line in opened["response"]:
                        if line.startswith(b"data: "):
                            self.heard[server.port].append((time.monotonic(), int(line[6:])))
            stream.close()
            self.stopping.wait(1)


def _shut(sock) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(2)


def start_tables(alice, bob) -> tuple[list[PlayTable], PlayTable]:
    """Alice's tables against three bots, her seat played for her once her 1 s timer has run
    out twice; and bob's table against one bot, which he plays himself."""
    bot_tables = [
        play.create_table(
            by=alice,
            preset="classic",
            variant=LONG,
            seats=["me", "random", "greedy", "random"],
            move_seconds=1,
            seed=seed,
        )
        for seed in range(BOT_TABLES)
    ]
    bobs = play.create_table(
        by=bob, preset="classic", variant=LONG, seats=["me", "greedy"], seed=BOT_TABLES
    )
    return bot_tables, bobs


def versions(tables: list[PlayTable]) -> dict[int, int]:
    return dict(
        PlayTable.objects.filter(pk__in=[t.pk for t in tables]).values_list("pk", "version")
    )


def seconds_until_each_moves(tables: list[PlayTable], since: float) -> dict[int, float]:
    """How long after `since` each table moved (its version went up), waiting at most WITHIN
    seconds from `since`."""
    before, moved = versions(tables), {}
    while len(moved) < len(tables) and time.monotonic() - since < WITHIN:
        for pk, version in versions(tables).items():
            if version > before[pk] and pk not in moved:
                moved[pk] = round(time.monotonic() - since, 1)
        time.sleep(0.1)
    assert len(moved) == len(tables), f"not moving again within {WITHIN} s: {moved}"
    return moved


def kill_connections(seconds: float, every: float = 0.5) -> int:
    """End every connection to the test database but this test's own, every `every` seconds
    for `seconds`: an outage of the database as its clients see it (PostgreSQL restarting,
    a network cut), on this test's database alone. Returns how many were ended."""
    ended, deadline = 0, time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            ended += cursor.fetchone()[0]
            time.sleep(every)
    return ended


def fits(posts: list[Post], kept: list[tuple]) -> bool:
    """Whether bob's kept moves are his posts in order, each at most once: every move the
    site took, no move it refused, and any of those whose answer was lost."""

    @functools.cache
    def from_(post: int, move: int) -> bool:
        if post == len(posts):
            return move == len(kept)
        this = posts[post]
        taken = (
            this.outcome != "refused"
            and move < len(kept)
            and kept[move] == this.move
            and from_(post + 1, move + 1)
        )
        return taken or (this.outcome != "taken" and from_(post + 1, move))

    return from_(0, 0)


def check_everything_kept(stack: Stack, tables: list[PlayTable], bobs: PlayTable, traffic):
    """Both workers still run (and work again) and stop at SIGTERM; every table's kept moves
    are numbered without a gap and replay from its seed to its state (none lost, none made
    twice); bob's moves are kept as the site answered them."""
    assert all(clock.process.poll() is None for clock in stack.clocks), [
        clock.log.read_text()[-3000:] for clock in stack.clocks
    ]

    def recovered(log: str) -> bool:
        return log.count("the database failed") == log.count("the database answers again")

    # Working again, each of them (the tables moving may be the other's work): every outage
    # it logged, it has logged the end of, within as long as the tables had.
    wait_until(
        lambda: all(recovered(clock.log.read_text()) for clock in stack.clocks),
        WITHIN,
        "both workers say the database answers again",
    )
    for clock in stack.clocks:
        log = stop_clock(clock)
        assert clock.process.returncode == 0 and "stopped after" in log, log[-3000:]
        assert recovered(log), log
    for table in [*tables, bobs]:
        table.refresh_from_db()
        numbers = list(table.moves.values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1))
        assert replayed(table).to_json() == table.state
    kept = [as_move(move) for move in bobs.moves.filter(by="").values_list("move", flat=True)]
    taken = [post for post in traffic.posts if post.outcome == "taken"]
    assert taken and fits(traffic.posts, kept), (traffic.posts, kept)


def warm_up(traffic: Traffic, tables: list[PlayTable]) -> None:
    """Until everything works: every kind of request answered, every table moving at the
    bots' pace (alice's seats played for her), bob's moves taken."""
    try:
        wait_until(lambda: traffic.answered_since(0) == ASKED, 60, "every page answering")
    except AssertionError as error:
        raise AssertionError(f"{error}: {traffic.statuses()}") from None
    wait_until(
        lambda: all(seat.is_away for t in tables for seat in t.seats.filter(position=0)),
        30,
        "alice's seats played for her",
    )
    seconds_until_each_moves(tables, time.monotonic())


@pytest.mark.postgresql
def test_the_database_connections_killed_for_20_s_give_no_500_and_every_table_moves_again(
    stack, alice, bob
):
    tables, bobs = start_tables(alice, bob)
    cookies = log_in(stack.servers[0], "bob", "bob-password")
    with Traffic(stack, tables[0], bobs, cookies) as traffic:
        warm_up(traffic, tables)
        began = time.monotonic()
        ended_connections = kill_connections(20)
        ended = time.monotonic()
        at = versions(tables)
        moved_again = seconds_until_each_moves(tables, ended)
        wait_until(
            lambda: traffic.answered_since(ended) == PAGES,
            WITHIN,
            "every page answering again",
        )
        # Each server's live page hears the table move again.
        wait_until(
            lambda: all(
                any(when > ended and version > at[tables[0].pk] for when, version in heard)
                for heard in traffic.heard.values()
            ),
            WITHIN,
            "both event streams hearing the table again",
        )
    answers = traffic.answers
    statuses = Counter((a.what, a.status) for a in answers)
    print(
        f"\ndatabase outage: {ended_connections} connections ended in 20 s; answers {statuses};"
        f" tables moving again after {moved_again} s"
    )
    assert ended_connections > 0
    assert {a.status for a in answers} <= {200, 204, 503}, statuses
    unavailable = [a for a in answers if a.status == 503]
    assert unavailable, statuses  # the outage was felt, and only while it lasted
    assert all(a.answered > began and a.asked < ended for a in unavailable), (began, ended)
    assert all(a.retry_after for a in unavailable)
    check_everything_kept(stack, tables, bobs, traffic)


# On the stack it is cut from in production (PostgreSQL, CI's second pass): Redis's outage is
# the same whichever database is behind it, and the drill waits out its 30 s in real time.
@pytest.mark.postgresql
def test_redis_cut_for_30_s_stops_no_table_and_every_page_answers(
    stack, redis_proxy: RedisProxy, alice, bob
):
    tables, bobs = start_tables(alice, bob)
    cookies = log_in(stack.servers[0], "bob", "bob-password")
    with Traffic(stack, tables[0], bobs, cookies) as traffic:
        warm_up(traffic, tables)
        before = versions(tables)
        redis_proxy.cut()
        time.sleep(30)
        during = versions(tables)
        redis_proxy.restore()
        ended = time.monotonic()
        moved_again = seconds_until_each_moves(tables, ended)
        at = versions(tables)
        wait_until(
            lambda: all(
                any(when > ended and version >= at[tables[0].pk] for when, version in heard)
                for heard in traffic.heard.values()
            ),
            WITHIN,
            "both event streams hearing the table again",
        )
    statuses = Counter((a.what, a.status) for a in traffic.answers)
    print(f"\nRedis outage: answers {statuses}; tables moving again after {moved_again} s")
    # Without the cache every page is made afresh and sessions are read from the database.
    assert {a.status for a in traffic.answers} <= {200, 204}, statuses
    # The tables went on playing all along.
    assert all(during[pk] > before[pk] for pk in before), (before, during)
    check_everything_kept(stack, tables, bobs, traffic)
