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
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections, models, transaction
from django.http import Http404, HttpRequest, StreamingHttpResponse

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

    def hear(self, version: int | None) -> None:  # on the stream's event loop
        if version is None:
            self.read_again = True
        else:
            self.newest = max(self.newest, version)
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
        for watcher in watching:
            watcher.loop.call_soon_threadsafe(watcher.hear, version)

    def resync(self) -> None:
        """Every watcher looks again (None: "the version is unknown, compare it")."""
        with self.lock:
            names = list(self.watchers)
        for name in names:
            self.deliver(name, None)


hub = Hub()


def events_view(model: type[models.Model]):
    """The view of one row's events (`<int:pk>/events/`): anyone who may see the row's live
    page may hear that it changed (the pages of matches, tables and tournaments are public;
    what each viewer may see is decided when the page is fetched)."""

    async def events(request: HttpRequest, pk: int) -> StreamingHttpResponse:
        if pk > MAX_ID or not await model.objects.filter(pk=pk).aexists():
            raise Http404
        # The request's database work (its session, this check) ran in a thread of its own
        # that lives as long as the stream: its connection goes back now, not at the end.
        await sync_to_async(connections.close_all)()
        return stream(request, model, pk)

    events.__name__ = events.__qualname__ = f"{model._meta.model_name}_events"
    return events


def stream(request: HttpRequest, model: type[models.Model], pk: int) -> StreamingHttpResponse:
    """The Server-Sent Events of one row: `version` events with its version as data and id,
    from the first one the browser does not have. The caller has checked that the requester
    may see the row's page."""
    known = request.headers.get("Last-Event-ID") or request.GET.get("v", "")
    response = StreamingHttpResponse(
        _events(channel_of(model, pk), model, pk, known), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def _events(name: str, model: type[models.Model], pk: int, known: str) -> AsyncIterator[str]:
    watcher = Watcher(name, asyncio.get_running_loop())
    hub.add(watcher)  # before reading the version, so that no change falls between
    try:
        yield f"retry: {RETRY_MS}\n\n"
        sent = known
        watcher.read_again = True
        while True:
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
