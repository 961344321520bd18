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
kept in the cache until a name changes: games.visibility), one query otherwise.

Cached fragments that hold names vary on `cache_key(model, pk)`: the names version of the page
they belong to (a match's, a played table's, a tournament's, a player's profile) and a digest of
the hidden players this viewer may see, so that one viewer's names never reach another's page.
That set is read afresh for every request, so that someone who sits down with a hidden player (or
enters a tournament, or becomes a director) needs no version to move: their key changes with it.
A page's names version moves when a player it shows changes what they show (hides, shows,
is renamed or merged: games.visibility.names_changed), and only then: one player's change leaves
every other page's fragments in the cache.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils.translation import gettext

from core import versions
from games.bot_names import bot_name

# The names version of the page of a row: "games:names:games.match:12".
NAMES_VERSION_KEY = "games:names:{page}"
# Longer than anything is cached under one (a day). A version lost or expired is made anew, never
# one it had before, so that nothing cached under an older one is read.
NAMES_VERSION_SECONDS = 7 * 24 * 3600


class _Viewer:
    """Who is looking, found out only when a hidden name is shown: a request that shows none
    (a poll answered 204) never reads its session or account for this. `find` works out the
    hidden players they may see (games.visibility, which reads the models)."""

    __slots__ = ("_find", "_known", "_seen", "versions")

    def __init__(self, find: Callable[[], frozenset[int] | None]) -> None:
        self._find = find
        self._seen: frozenset[int] | None = None
        self._known = False
        # The names versions read for this request: each page's once, however many fragments.
        self.versions: dict[str, str] = {}

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


def page(model: type, pk: int) -> str:
    """The page of a row that shows names, as its names version is kept: "games.match:12"."""
    return f"{model._meta.label_lower}:{pk}"


def names_version(model: type, pk: int) -> str:
    """The version of the names the page of this row shows (a Match, a PlayTable, a Tournament,
    a Player's profile); read once a request."""
    key = NAMES_VERSION_KEY.format(page=page(model, pk))
    viewer = _viewer.get()
    if viewer is None:
        return versions.current(key, NAMES_VERSION_SECONDS)
    if key not in viewer.versions:
        viewer.versions[key] = versions.current(key, NAMES_VERSION_SECONDS)
    return viewer.versions[key]


def move_names(pages: Iterable[str]) -> None:
    """The names these pages show changed (games.visibility.names_changed finds the pages)."""
    versions.move_all(
        (NAMES_VERSION_KEY.format(page=shown) for shown in pages), NAMES_VERSION_SECONDS
    )


def viewer_key() -> str:
    """Which hidden players the person looking may see: "all", "none", or a digest of their ids."""
    ids = seen()
    if ids is None:
        return "all"
    if not ids:
        return "none"
    listed = ",".join(map(str, sorted(ids)))
    return hashlib.sha256(listed.encode()).hexdigest()[:20]


def cache_key(model: type, pk: int) -> str:
    """What a cached fragment of the page of this row holding names varies on: the page's names
    version and which hidden players the person looking may see."""
    return f"{viewer_key()}:{names_version(model, pk)}"


class CacheKey:
    """`viewer_key()` for templates, worked out once, when a {% cache %} tag first uses it."""

    def __init__(self) -> None:
        self._key: str | None = None

    def __str__(self) -> str:
        if self._key is None:
            self._key = viewer_key()
        return self._key


def context(request) -> dict:
    """`names_key` for {% cache %} tags of fragments that show names: which hidden names the
    viewer may read. The tag adds its page's names version: `{{ match|names_version }}` ({%
    load players %})."""
    return {"names_key": CacheKey()}
