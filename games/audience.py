"""Who is looking at a page: a player who hides their profile shows their name only to people
who are signed in. Like the active language, it is set for each request (by the middleware)
and read where names are shown (`Player.__str__`); outside a request (management commands,
the shell) names are shown. Cached fragments that hold names vary on `cache_key()`."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.cache import cache
from django.utils.translation import gettext

from games.names import bot_name

NAMES_VERSION_KEY = "games:names-version"


class _Viewer:
    """Who is looking, found out only when a name is shown: a request that shows none (a poll
    answered 204) never reads its session or account for this."""

    __slots__ = ("_request", "_signed_in")

    def __init__(self, request=None, signed_in: bool | None = None) -> None:
        self._request = request
        self._signed_in = signed_in

    def signed_in(self) -> bool:
        if self._signed_in is None:
            self._signed_in = self._request.user.is_authenticated
        return self._signed_in


# Outside a request (commands, the shell) there is no viewer: names are shown.
_viewer: ContextVar[_Viewer | None] = ContextVar("games_audience_viewer", default=None)


def sees_hidden() -> bool:
    """May the person looking see the names of players who hide them?"""
    viewer = _viewer.get()
    return viewer is None or viewer.signed_in()


def name(name: str, private: bool, bot: bool = False) -> str:
    """A player's name as the person looking may see it (a bot's in their language)."""
    if bot:
        return bot_name(name)
    if private and not sees_hidden():
        return gettext("Hidden player")
    return name


@contextmanager
def _looking(viewer: _Viewer | None) -> Iterator[None]:
    token = _viewer.set(viewer)
    try:
        yield
    finally:
        _viewer.reset(token)


def looking(*, signed_in: bool):
    """Show names as to someone signed in (or not), inside the `with` block."""
    return _looking(_Viewer(signed_in=signed_in))


class AudienceMiddleware:
    """Sets who is looking for the request (after AuthenticationMiddleware)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        with _looking(_Viewer(request)):
            return self.get_response(request)


def names_version() -> str:
    """A version of what every player shows of their name (it moves when one hides or shows
    it, or a guest is merged); cached pages that list names key on it."""
    version = cache.get(NAMES_VERSION_KEY)
    if version is None:
        cache.add(NAMES_VERSION_KEY, uuid.uuid4().hex[:12], None)
        version = cache.get(NAMES_VERSION_KEY)
    return version


def names_changed() -> None:
    cache.set(NAMES_VERSION_KEY, uuid.uuid4().hex[:12], None)


def cache_key() -> str:
    """What a cached fragment holding names varies on."""
    return f"{'members' if sees_hidden() else 'public'}:{names_version()}"


class CacheKey:
    """`cache_key()` for templates, worked out once, when a {% cache %} tag first uses it."""

    def __init__(self) -> None:
        self._key: str | None = None

    def __str__(self) -> str:
        if self._key is None:
            self._key = cache_key()
        return self._key


def context(request) -> dict:
    """`names_key` for {% cache %} tags of fragments that show names."""
    return {"names_key": CacheKey()}
