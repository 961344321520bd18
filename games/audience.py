"""Who is looking at a page, and which hidden names they may read.

A player who hides (`Player.private`, their account's choice) shows their name and profile only
to: themselves; the people who sat at a match with them (any kind: a score sheet, a tournament
table, a table played on the site); the creator and the scorekeepers of a match they sat at (who
keep that sheet); whoever the apps built on this one name through `signals.hidden_players_seen`
(a tournament's creator and directors, for its entrants); and staff. Everyone else, signed in or
not, reads "Hidden player", with no link.

Like the active language, who is looking is set for each request (by the middleware) and read
where names are shown (`Player.__str__`, `name()`); the rows it needs are read by
games.visibility (and its middleware), so that the models, which show names through this
module, are not imported by it. Outside a request (management commands, the shell) every name
is shown. The hidden players this viewer may see are worked out once for the
request, and only when a hidden name is about to be shown or a cached fragment asks for its key:
nothing for a visitor who is not signed in, nothing while nobody hides (whether anyone does is
kept in the cache for each names version), one query otherwise.

Cached fragments that hold names vary on `cache_key()`: the names version and a digest of the
hidden players this viewer may see, so that one viewer's names never reach another's page. That
set is read afresh for every request, so that someone who sits down with a hidden player (or
enters a tournament, or becomes a director) needs no version to move: their key changes with it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import transaction
from django.utils.translation import gettext

from core import versions
from games.bot_names import bot_name

NAMES_VERSION_KEY = "games:names-version"


class _Viewer:
    """Who is looking, found out only when a hidden name is shown: a request that shows none
    (a poll answered 204) never reads its session or account for this. `find` works out the
    hidden players they may see (games.visibility, which reads the models)."""

    __slots__ = ("_find", "_known", "_seen")

    def __init__(self, find: Callable[[], frozenset[int] | None]) -> None:
        self._find = find
        self._seen: frozenset[int] | None = None
        self._known = False

    def seen(self) -> frozenset[int] | None:
        """The ids of the hidden players this viewer may see; None: every one."""
        if not self._known:
            self._seen = self._find()
            self._known = True
        return self._seen


# Outside a request (commands, the shell) there is no viewer: names are shown.
_viewer: ContextVar[_Viewer | None] = ContextVar("games_audience_viewer", default=None)


def seen() -> frozenset[int] | None:
    """The ids of the hidden players the person looking may see; None: every one."""
    viewer = _viewer.get()
    return None if viewer is None else viewer.seen()


def sees(player_id: int | None, private: bool) -> bool:
    """May the person looking see this player's name and profile?"""
    if not private:
        return True
    ids = seen()
    return ids is None or player_id in ids


def hidden(player_id: int | None, private: bool) -> bool:
    """Hidden from the person looking: no name, no profile, no link."""
    return not sees(player_id, private)


def name(player_id: int | None, name: str, private: bool, bot: bool = False) -> str:
    """A player's name as the person looking may see it (a bot's in their language)."""
    if bot:
        return bot_name(name)
    if not sees(player_id, private):
        return gettext("Hidden player")
    return name


@contextmanager
def looking(find: Callable[[], frozenset[int] | None]) -> Iterator[None]:
    """Show names, inside the `with` block, as to a viewer who may see the hidden players
    `find` returns when first asked (games.visibility.looking_as, its middleware)."""
    token = _viewer.set(_Viewer(find))
    try:
        yield
    finally:
        _viewer.reset(token)


def names_version() -> str:
    """A version of what every player shows of their name (it moves when one hides or shows
    it, or a guest is merged); cached pages that list names key on it."""
    return versions.current(NAMES_VERSION_KEY)


def names_changed() -> None:
    """What a player shows of their name changed: moved now, so that nothing cached before the
    change is read after it, and again once the change is committed, so that a page cached in
    between (from the old rows) is not read either."""
    versions.move(NAMES_VERSION_KEY)
    transaction.on_commit(lambda: versions.move(NAMES_VERSION_KEY))


def cache_key() -> str:
    """What a cached fragment holding names varies on: the names version and which hidden
    players the person looking may see ("all", "none", or a digest of their ids)."""
    version = names_version()
    ids = seen()
    if ids is None:
        shown = "all"
    elif not ids:
        shown = "none"
    else:
        listed = ",".join(map(str, sorted(ids)))
        shown = hashlib.sha256(listed.encode()).hexdigest()[:20]
    return f"{shown}:{version}"


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
