"""Outages of the database or of Redis, which end by themselves: what says "not reachable for
a moment" rather than "a bug", and the shared cache that an outage of Redis empties instead of
failing every page (docs/deployment.md)."""

from __future__ import annotations

import functools
import logging
import threading
import time

import psycopg
import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from psycopg_pool import ConnectionPool

logger = logging.getLogger(__name__)

# The database cannot be reached for a moment: it restarts, a connection was ended or cut, no
# pooled connection came free in time (psycopg_pool's PoolTimeout, which Django wraps as an
# OperationalError), SQLite's file stayed locked. psycopg's own, should one pass unwrapped.
DATABASE_UNREACHABLE = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)

_sweeping = threading.Lock()


def check_pooled(conn: psycopg.Connection) -> None:
    """psycopg_pool's check of an idle connection before it is handed out (settings.py). One
    the database ended means that a restart or a cut may have ended every idle one: they are
    all checked at once (`sweep_pool`) rather than met by the requests that follow one after
    another, since psycopg_pool waits 1 s, then 2 s, 4 s... after each dead one it hands out,
    and a request gives up after 3 s, with the database back."""
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        sweep_pool()
        raise


def sweep_pool() -> None:
    """Check every connection idle in this process's pool (PostgreSQL's) and replace those
    that are dead, in a thread of its own; one sweep at a time."""
    pool = getattr(connections[DEFAULT_DB_ALIAS], "pool", None)
    if pool is None or not _sweeping.acquire(blocking=False):
        return

    def sweep() -> None:
        try:
            pool.check()
        except Exception:
            logger.warning("database: the pool's connections could not be checked", exc_info=True)
        finally:
            _sweeping.release()

    threading.Thread(target=sweep, name="pool-sweep", daemon=True).start()


# Redis cannot be reached: refused, cut, or no answer within the socket's timeout.
REDIS_UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)
# After Redis failed, this process does not ask it again for this long: with Redis silent
# rather than refusing, each page would otherwise wait out a timeout for every key.
REDIS_PAUSE = 1.0
# The most keys an outage's lost writes may name (a key is written again after the outage
# without them; beyond this, one the outage left stale may be read until it expires).
MOST_LOST = 10_000


class _RedisOutage:
    """This process's view of Redis (every thread's cache object shares it): whether it is
    out, since when, and the keys written meanwhile."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.since: float | None = None
        self.asked_after = 0.0
        self.lost: set[str] = set()
        self.catching_up = False

    def out(self) -> bool:
        return time.monotonic() < self.asked_after

    def failed(self, error: Exception, written: list[str], client: RedisCacheClient) -> None:
        with self.lock:
            if self.since is None:
                self.since = time.monotonic()
                logger.warning("cache: Redis cannot be reached (%s); pages go on without it", error)
            self.asked_after = time.monotonic() + REDIS_PAUSE
        self.lose(written, client)

    def lose(self, written: list[str], client: RedisCacheClient) -> None:
        """Keys that may keep what they held before the outage, written now in vain: they are
        deleted once Redis answers (by a thread of its own, whether or not pages ask)."""
        if not written:
            return
        with self.lock:
            self.lost.update(written[: MOST_LOST - len(self.lost)])
            if self.catching_up:
                return
            self.catching_up = True
        threading.Thread(
            target=self._catch_up, args=(client,), name="cache-catch-up", daemon=True
        ).start()

    def answered(self) -> None:
        if self.since is None:
            return
        with self.lock:
            since, self.since = self.since, None
        if since is not None:
            logger.warning("cache: Redis answers again after %.0f s", time.monotonic() - since)

    def _catch_up(self, client: RedisCacheClient) -> None:
        while True:
            time.sleep(REDIS_PAUSE)
            with self.lock:
                keys = list(self.lost)
                if not keys:
                    self.catching_up = False
                    return
            try:
                client.delete_many(keys)
            except redis.RedisError:
                continue
            with self.lock:
                self.lost.difference_update(keys)


_outage = _RedisOutage()


class DegradingRedisCache(RedisCache):
    """Django's Redis cache, for which an outage of Redis is a cache holding nothing, not an
    error on every page: a read misses, a write is dropped (and its key deleted once Redis
    answers, so that nothing stale outlives the outage: a session logged out meanwhile, a
    version moved meanwhile), a count starts afresh (rate limits let people through). Pages
    are made afresh and sessions read from the database until Redis answers again."""

    def _ask(self, missed, call, *, written: tuple = (), version=None):
        keys = [self.make_key(key, version=version) for key in written]
        if _outage.out():
            _outage.lose(keys, self._cache)
            return missed
        try:
            answer = call()
        except REDIS_UNREACHABLE as error:
            _outage.failed(error, keys, self._cache)
            return missed
        _outage.answered()
        return answer

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # As if the key were new: a count starts from this one.
        call = functools.partial(super().add, key, value, timeout, version)
        return self._ask(True, call, written=(key,), version=version)

    def get(self, key, default=None, version=None):
        return self._ask(default, functools.partial(super().get, key, default, version))

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        call = functools.partial(super().set, key, value, timeout, version)
        self._ask(None, call, written=(key,), version=version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        call = functools.partial(super().touch, key, timeout, version)
        return self._ask(False, call, written=(key,), version=version)

    def delete(self, key, version=None):
        call = functools.partial(super().delete, key, version)
        return self._ask(False, call, written=(key,), version=version)

    def get_many(self, keys, version=None):
        return self._ask({}, functools.partial(super().get_many, keys, version))

    def has_key(self, key, version=None):
        return self._ask(False, functools.partial(super().has_key, key, version))

    def incr(self, key, delta=1, version=None):
        # As if the count started now (a rate limit lets the request through).
        call = functools.partial(super().incr, key, delta, version)
        return self._ask(delta, call, written=(key,), version=version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        call = functools.partial(super().set_many, data, timeout, version)
        return self._ask([], call, written=tuple(data), version=version)

    def delete_many(self, keys, version=None):
        keys = list(keys)
        call = functools.partial(super().delete_many, keys, version)
        self._ask(None, call, written=tuple(keys), version=version)

    def clear(self):
        return self._ask(False, super().clear)
