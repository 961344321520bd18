"""What waits for someone signed in: claims they decide and links they confirm (a scorekeeper
naming them at a table). The top bar shows how many, from the cache: the count is kept per
account under a version that every change of a claim moves, and for a minute at most (a new
director of a tournament makes someone a judge without touching a claim)."""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction
from django.utils.functional import SimpleLazyObject

from core import versions

CLAIMS_VERSION_KEY = "claims:version"
COUNT_SECONDS = 60


def claims_version() -> str:
    return versions.current(CLAIMS_VERSION_KEY)


def claims_changed() -> None:
    """A claim was asked, decided or withdrawn: counts are worked out again. Now, and once
    more when committed, so that a count read from the rows before the change in between is
    not kept either."""
    _new_version()
    transaction.on_commit(_new_version)


def _new_version() -> None:
    versions.move(CLAIMS_VERSION_KEY)


def waiting_count(user) -> int:
    """How many claims and links wait for this user's decision."""
    from claims.services import waiting  # the services tell this module of every change

    count = cache.get(_key(user))
    if count is None:
        to_decide, to_confirm = waiting(user)
        count = remember_count(user, len(to_decide) + len(to_confirm))
    return count


def remember_count(user, count: int) -> int:
    """Keep the count a page worked out anyway (the claims page), for the top bar."""
    cache.set(_key(user), count, COUNT_SECONDS)
    return count


def _key(user) -> str:
    return f"claims:waiting:{user.pk}:{claims_version()}"


def context(request) -> dict:
    """`waiting`: the count for the top bar, worked out only if a page shows it."""
    # A request refused before the account is read (config.middleware) has no user.
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"waiting": 0}
    return {"waiting": SimpleLazyObject(lambda: waiting_count(user))}
