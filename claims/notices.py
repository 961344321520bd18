"""What waits for someone signed in: claims they decide and links they confirm (a scorekeeper
naming them at a table). The top bar shows how many, from the cache: the count is kept per
account under a version that every change of a claim moves, and for a minute at most (a new
director of a tournament makes someone a judge without touching a claim)."""

from __future__ import annotations

from django.core.cache import cache
from django.utils.functional import SimpleLazyObject

from claims import changes, queries

COUNT_SECONDS = 60


def waiting_count(user) -> int:
    """How many claims and links wait for this user's decision."""
    count = cache.get(_key(user))
    if count is None:
        to_decide, to_confirm = queries.waiting(user)
        count = remember_count(user, len(to_decide) + len(to_confirm))
    return count


def remember_count(user, count: int) -> int:
    """Keep the count a page worked out anyway (the claims page), for the top bar."""
    cache.set(_key(user), count, COUNT_SECONDS)
    return count


def _key(user) -> str:
    return f"claims:waiting:{user.pk}:{changes.claims_version()}"


def context(request) -> dict:
    """`waiting`: the count for the top bar, worked out only if a page shows it."""
    # A request refused before the account is read (config.middleware) has no user.
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"waiting": 0}
    return {"waiting": SimpleLazyObject(lambda: waiting_count(user))}


def to_confirm(user, players=None) -> list[queries.ToConfirm]:
    """The guests seated for this user's account waiting for them (queries.to_confirm), read
    only when the top bar's count says something waits: nothing more to read on the pages
    of everyone else."""
    if not user.is_authenticated or not waiting_count(user):
        return []
    return queries.to_confirm(user, players)
