"""The versions pages and caches key on: a row's own (a match's, a tournament's), read in one
plain query, and those kept in the shared cache for what a row's own version does not follow
(the names a page shows, whether anyone hides theirs, the claims waiting). What was cached
under a version is read again once it moves."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from django.core.cache import cache
from django.db import connection, models

from core.validators import MAX_ID


def version_of(model: type[models.Model], pk: int) -> int | None:
    """The `version` of a row (a match, a tournament), or None if there is none, in one plain
    query: what every refresh of a live page asks, and most find nothing new (the ORM would
    cost more than the query)."""
    if pk > MAX_ID:  # no such row, and PostgreSQL refuses the number
        return None
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {table} WHERE id = %s", [pk])
        row = cursor.fetchone()
    return None if row is None else row[0]


def current(key: str, timeout: int | None = None) -> str:
    """The version under `key`, made (once, whoever asks first) if there is none yet. One
    lost or expired is made anew, never one it had before: what was cached under the old one
    is not read again."""
    version = cache.get(key)
    if version is None:
        cache.add(key, _new(), timeout)
        version = cache.get(key)
    # Still none only while the cache is away (core.outages): one nothing was cached under.
    return version if version is not None else _new()


def move(key: str) -> None:
    cache.set(key, _new(), None)


def move_all(keys: Iterable[str], timeout: int | None = None) -> None:
    """Move the versions under `keys` at once (one round trip to the cache)."""
    cache.set_many({key: _new() for key in keys}, timeout)


def _new() -> str:
    return uuid.uuid4().hex[:12]
