"""Versions kept in the shared cache for what has no row of its own to carry one (what every
player shows of their name, the claims waiting): pages and counts cached under a version are
read again once it moves."""

from __future__ import annotations

import uuid

from django.core.cache import cache


def current(key: str) -> str:
    """The version under `key`, made (once, whoever asks first) if there is none yet."""
    version = cache.get(key)
    if version is None:
        cache.add(key, _new(), None)
        version = cache.get(key)
    return version


def move(key: str) -> None:
    cache.set(key, _new(), None)


def _new() -> str:
    return uuid.uuid4().hex[:12]
