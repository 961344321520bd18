"""Live pages: a change committed anywhere reaches every browser watching it at once.

A service that moves the version of something people watch (a played table, a score sheet, a
tournament) calls `announce`; once its transaction commits, the new version is published on
that thing's channel. Every app server process keeps one listener on the channels (a thread of
its own) and hands each version to the Server-Sent Events streams (`stream`) watching it. An
event carries only the version: each browser then fetches the page rendered for itself, so
nothing one viewer may not see ever travels in an event.

Two brokers carry the versions between processes:

- Redis pub/sub when `REDIS_URL` is set: across app servers and workers on many machines.
- The database otherwise (the embedded default `make run` uses): the event is a row of
  `LiveEvent`, which each listener reads a few times a second (one query per process, not per
  browser). On one machine the web server and the worker process share it without Redis.

A browser that reconnects names the last version it had (`Last-Event-ID`, or `?v=` on its first
connection); a stream that finds the current version differs sends it at once, so a missed
event means "fetch the page again", never a page left behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections, models, transaction
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from core.limits import client_address
from core.outages import DATABASE_UNREACHABLE, REDIS_PAUSE
from core.validators import MAX_ID
from core.versions import version_of

logger = logging.getLogger(__name__)

# A comment line this often keeps proxies from closing a quiet stream, and finds a browser
# that has gone.
HEARTBEAT_SECONDS = 20
# How long a browser waits before reconnecting to a stream that closed.
RETRY_MS = 1000
# How often a listener on the database looks for new events.
DATABASE_POLL_SECONDS = 0.03
# The longest a publish on Redis may take (connecting included).
PUBLISH_TIMEOUT_SECONDS = 1
# How soon a stream that could not read its row's version (the database away) tries again.
READ_AGAIN_SECONDS = 1


def channel_of(model: type[models.Model], pk: int) -> str:
    """The channel of one row people watch: "play.playtable:5"."""
    return f"{model._meta.label_lower}:{pk}"


def announce(model: type[models.Model], pk: int, version: int | None = None) -> None:
    """Publish the row's new version once the current transaction commits (at once outside
    one). Without `version`, it is read after the commit (for writes that move it in SQL)."""
    name = channel_of(model, pk)

    def publish() -> None:
        current = version if version is not None else version_of(model, pk)
        if current is not None:
            broker().publish(name, current)

    transaction.on_commit(publish, robust=True)


# The one way a row people watch moves its version: a service calls one of these under the
# row's lock (or its owner's), never a model, and `announce` is called from nowhere else.


def moved(row: models.Model, *fields: str) -> None:
    """Save the locked row's changed `fields` with its version moved on by one; the browsers
    watching it hear of it once the transaction commits."""
    row.version += 1
    row.save(update_fields=[*fields, "version", "updated_at"])
    announce(type(row), row.pk, row.version)


def moved_all(model: type[models.Model], pks: list[int]) -> None:
    """Move these rows' versions in SQL (a change elsewhere, made under their owner's lock,
    moves them without loading them); each is announced, read after the commit."""
    model.objects.filter(pk__in=pks).update(version=models.F("version") + 1)
    for pk in pks:
        announce(model, pk)


# --- brokers ---------------------------------------------------------------------------


class RedisBroker:
    def __init__(self, url: str) -> None:
        import redis

        self.url = url
        # A publish is made after a commit, in the request or the play worker's pass: with
        # Redis away it gives up within a second rather than hold either up.
        self.client = redis.Redis.from_url(url, socket_timeout=PUBLISH_TIMEOUT_SECONDS)
        # Several sites (or test runs) may share one Redis: each hears its own channels.
        self.prefix = f"{settings.LIVE_CHANNEL_PREFIX}live:"
        self.failing = False
        self.asked_after = 0.0

    def publish(self, name: str, version: int) -> None:
        """Publish, or, with Redis away, not: the listeners read every watched version again
        once they hear Redis again, so none published meanwhile is missed. After a failure
        none is tried for a moment (REDIS_PAUSE), so that a Redis that does not answer costs
        a second now and then, not a second a move."""
        import redis

        if time.monotonic() < self.asked_after:
            return
        try:
            self.client.publish(self.prefix + name, str(version))
        except (redis.RedisError, OSError) as error:
            if not self.failing:
                logger.warning("live events: cannot publish on Redis (%s)", error)
            self.failing = True
            self.asked_after = time.monotonic() + REDIS_PAUSE
        else:
            self.failing = False

    def listen(self, hub: Hub) -> None:
        """Until the hub stops: hand every published version to the hub; after a lost
        connection to Redis, have every watcher look again (events may have been missed)."""
        import redis

        failing = False
        while not hub.stopping.is_set():
            try:
                pubsub = redis.Redis.from_url(self.url, socket_timeout=HEARTBEAT_SECONDS).pubsub(
                    ignore_subscribe_messages=True
                )
                pubsub.psubscribe(self.prefix + "*")
                hub.resync()
                hub.listening.set()
                failing = False
                while not hub.stopping.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None:
                        name = message["channel"].decode()[len(self.prefix) :]
                        hub.deliver(name, int(message["data"]))
                pubsub.close()
            except (redis.RedisError, OSError, ValueError):
                if not failing:
                    logger.warning("live events: lost Redis, reconnecting", exc_info=True)
                failing = True
                hub.stopping.wait(1)


class DatabaseBroker:
    def publish(self, name: str, version: int) -> None:
        from core.models import LiveEvent

        LiveEvent.objects.create(channel=name, version=version)

    def listen(self, hub: Hub) -> None:
        """Until the hub stops: read the events after the last one read, a few times a
        second, and hand them to the hub."""
        from core.models import LiveEvent

        last, failing = None, False
        try:
            while not hub.stopping.is_set():
                try:
                    if last is None:
                        last = LiveEvent.objects.aggregate(last=models.Max("pk"))["last"] or 0
                        hub.resync()
                        hub.listening.set()
                    for pk, name, version in LiveEvent.objects.filter(pk__gt=last).values_list(
                        "pk", "channel", "version"
                    ):
                        hub.deliver(name, version)
                        last = pk
                    failing = False
                except Exception:  # the database restarting, a locked SQLite file
                    if not failing:
                        logger.warning("live events: the database failed, retrying", exc_info=True)
                    failing, last = True, None
                    hub.listening.clear()
                    _close_connection()
                    hub.stopping.wait(1)
                hub.stopping.wait(DATABASE_POLL_SECONDS)
        finally:
            _close_connection()


def _close_connection() -> None:
    """Give this thread's connection back; one the database ended may fail to close, which
    must not end the thread."""
    with contextlib.suppress(Exception):
        connection.close()


_broker: RedisBroker | DatabaseBroker | None = None


def broker() -> RedisBroker | DatabaseBroker:
    global _broker
    if _broker is None:
        url = getattr(settings, "LIVE_REDIS_URL", "")
        _broker = RedisBroker(url) if url else DatabaseBroker()
    return _broker


# --- this process's watchers -----------------------------------------------------------


@dataclass(eq=False)
class Watcher:
    """One stream's wait for its channel: the newest version heard, whether to read the
    version again (after a broker's outage), and a wake-up."""

    channel: str
    loop: asyncio.AbstractEventLoop
    heard: asyncio.Event = field(default_factory=asyncio.Event)
    newest: int = 0
    read_again: bool = False
    gone: bool = False

    def hear(self, version: int | None) -> None:  # on the stream's event loop
        if version is None:
            self.read_again = True
        else:
            self.newest = max(self.newest, version)
        self.heard.set()

    def leave(self) -> None:  # on the stream's event loop: the browser has gone
        self.gone = True
        self.heard.set()


class Hub:
    """The process's watchers by channel, fed by one listener thread, started with the first
    watcher."""

    def __init__(self) -> None:
        self.watchers: dict[str, set[Watcher]] = {}
        self.lock = threading.Lock()
        self.listener: threading.Thread | None = None
        self.stopping = threading.Event()
        # Set while the listener hears every event (cleared while it reconnects).
        self.listening = threading.Event()

    def add(self, watcher: Watcher) -> None:
        with self.lock:
            self.watchers.setdefault(watcher.channel, set()).add(watcher)
            if self.listener is None or not self.listener.is_alive():
                self.stopping.clear()
                self.listener = threading.Thread(
                    target=broker().listen, args=(self,), name="live-events", daemon=True
                )
                self.listener.start()

    def stop(self) -> None:
        """Stop listening (a test's server stopping); the next watcher starts it again."""
        with self.lock:
            listener, self.listener = self.listener, None
            self.stopping.set()
            self.listening.clear()
        if listener is not None:
            listener.join(timeout=5)

    def remove(self, watcher: Watcher) -> None:
        with self.lock:
            watching = self.watchers.get(watcher.channel, set())
            watching.discard(watcher)
            if not watching:
                self.watchers.pop(watcher.channel, None)

    def count(self) -> int:
        with self.lock:
            return sum(len(watching) for watching in self.watchers.values())

    def deliver(self, name: str, version: int | None) -> None:  # on the listener's thread
        with self.lock:
            watching = list(self.watchers.get(name, ()))
        # One wake-up of each event loop for all its watchers, not one a watcher: a table
        # watched by thousands is told in one go.
        by_loop: dict[asyncio.AbstractEventLoop, list[Watcher]] = {}
        for watcher in watching:
            by_loop.setdefault(watcher.loop, []).append(watcher)
        for loop, watchers in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a loop closed meanwhile (a test's)
                loop.call_soon_threadsafe(_hear_all, watchers, version)

    def resync(self) -> None:
        """Every watcher looks again (None: "the version is unknown, compare it")."""
        with self.lock:
            names = list(self.watchers)
        for name in names:
            self.deliver(name, None)


def _hear_all(watchers: list[Watcher], version: int | None) -> None:
    for watcher in watchers:
        watcher.hear(version)


hub = Hub()


# --- how many streams a client may hold ------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """A stream not opened: past a client's share (429) or the process's (503), and the
    seconds after which to try again (the page polls slowly meanwhile)."""

    status: int
    retry: int
    reason: str


class Streams:
    """The streams this process holds open, counted per client address (a club's Wi-Fi holds
    many) and per session (a person's tabs), so that one client cannot hold them all; the
    proxy in front bounds them across processes (docs/deployment.md)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.total = 0
        self.by_address: Counter[str] = Counter()
        self.by_session: Counter[str] = Counter()

    def take(self, address: str, session: str) -> Refusal | None:
        """One more stream for this client, or why not."""
        with self.lock:
            if self.by_address[address] >= settings.LIVE_STREAMS_PER_ADDRESS:
                return Refusal(429, REFUSED_RETRY_SECONDS, "too many streams from one address")
            if session and self.by_session[session] >= settings.LIVE_STREAMS_PER_SESSION:
                return Refusal(429, REFUSED_RETRY_SECONDS, "too many streams in one session")
            if self.total >= streams_per_process():
                return Refusal(503, BUSY_RETRY_SECONDS, "this server holds all the streams it can")
            self.total += 1
            self.by_address[address] += 1
            if session:
                self.by_session[session] += 1
            return None

    def give_back(self, address: str, session: str) -> None:
        with self.lock:
            self.total -= 1
            _decrement(self.by_address, address)
            if session:
                _decrement(self.by_session, session)


def _decrement(counts: Counter[str], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


streams = Streams()

# A refused browser tries again after this (its page polls slowly meanwhile).
REFUSED_RETRY_SECONDS = 30
BUSY_RETRY_SECONDS = 10
# Descriptors a process keeps for what is not a stream: its database and Redis connections,
# ordinary requests, static files.
DESCRIPTORS_KEPT = 512


def streams_per_process() -> int:
    """The streams one process holds at most: the setting, or, unset, what its open files
    limit leaves after what it needs besides (each stream is a socket)."""
    if settings.LIVE_STREAMS_PER_PROCESS:
        return settings.LIVE_STREAMS_PER_PROCESS
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return max(soft - DESCRIPTORS_KEPT, 64)


def session_of(request: HttpRequest) -> str:
    """The session a stream counts against: its cookie as sent (a forged one only splits the
    address's share, which counts too)."""
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    return key if len(key) <= 64 else key[:64]


def refusal_body(refusal: Refusal) -> bytes:
    """A refused stream's body: why, as a comment, and when to try again (`retry:`)."""
    return f": {refusal.reason}\nretry: {refusal.retry * 1000}\n\n".encode()


# --- the streams -----------------------------------------------------------------------


def events_view(model: type[models.Model]):
    """The view of one row's events (`<int:pk>/events/`): anyone who may see the row's live
    page may hear that it changed (the pages of matches, tables and tournaments are public;
    what each viewer may see is decided when the page is fetched).

    Served by `core.streams` ahead of Django's request handler, so that an open stream holds
    no thread; this view answers the same where nothing stands in front (the test client)."""

    async def events_of_row(request: HttpRequest, pk: int) -> HttpResponse:
        address, session = client_address(request), session_of(request)
        refusal = streams.take(address, session)
        if refusal is not None:
            response = HttpResponse(
                refusal_body(refusal), status=refusal.status, content_type="text/event-stream"
            )
            response["Retry-After"] = str(refusal.retry)
            return response
        try:
            watcher = await watch(model, pk)
            if watcher is None:
                raise Http404
            # The request's database work (its session) ran in a thread of its own that
            # lives as long as the stream: its connection goes back now.
            await sync_to_async(connections.close_all)()
        except BaseException:
            streams.give_back(address, session)
            raise
        response = StreamingHttpResponse(
            events(watcher, model, pk, known_version(request)), content_type="text/event-stream"
        )
        for name, value in STREAM_HEADERS:
            response[name] = value

        def closed() -> None:
            hub.remove(watcher)
            streams.give_back(address, session)

        response._resource_closers.append(closed)
        return response

    events_of_row.__name__ = events_of_row.__qualname__ = f"{model._meta.model_name}_events"
    view = require_GET(events_of_row)
    view.live_model = model
    return view


# Besides the type: no cache, and nginx passes each event on at once.
STREAM_HEADERS = (("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no"))


def known_version(request: HttpRequest) -> str:
    """The last version the browser had: `Last-Event-ID` on a reconnection, `?v=` at first."""
    return request.headers.get("Last-Event-ID") or request.GET.get("v", "")


async def watch(model: type[models.Model], pk: int) -> Watcher | None:
    """A watcher of the row, in the hub, with the row's version read after it was added (so
    that no change falls between); None, and nothing watched, if there is no such row. The
    caller removes it from the hub when the stream ends (`events` does)."""
    if pk > MAX_ID:
        return None
    watcher = Watcher(channel_of(model, pk), asyncio.get_running_loop())
    hub.add(watcher)
    try:
        current = await sync_to_async(_current, thread_sensitive=False)(model, pk)
    except BaseException:
        hub.remove(watcher)
        raise
    if current is None:
        hub.remove(watcher)
        return None
    watcher.newest = current
    return watcher


async def events(
    watcher: Watcher, model: type[models.Model], pk: int, known: str
) -> AsyncIterator[str]:
    """A stream's text, for a browser that last had version `known`: the row's version
    whenever it differs from what the browser has, a comment every HEARTBEAT_SECONDS, until
    the browser goes (`Watcher.leave`) or the iteration is cancelled. The watcher leaves the
    hub when it ends."""
    try:
        yield f"retry: {RETRY_MS}\n\n"
        sent = known
        while not watcher.gone:
            if watcher.read_again:
                watcher.read_again = False
                try:
                    current = await sync_to_async(_current, thread_sensitive=False)(model, pk)
                except DATABASE_UNREACHABLE:
                    watcher.read_again = True  # soon: the wait below is short
                else:
                    watcher.newest = max(watcher.newest, current or 0)
            if watcher.newest and str(watcher.newest) != sent:
                sent = str(watcher.newest)
                yield f"id: {sent}\nevent: version\ndata: {sent}\n\n"
            wait = READ_AGAIN_SECONDS if watcher.read_again else HEARTBEAT_SECONDS
            try:
                async with asyncio.timeout(wait):
                    await watcher.heard.wait()
            except TimeoutError:
                yield ": still here\n\n"
                continue
            watcher.heard.clear()
    finally:
        hub.remove(watcher)


def _current(model: type[models.Model], pk: int) -> int | None:
    """The row's version, read in a thread of the pool: rarely (a stream's start, a broker's
    outage), so the connection is not kept."""
    try:
        return version_of(model, pk)
    finally:
        _close_connection()
