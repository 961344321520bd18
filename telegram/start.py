"""Where a Mini App link's `start_param` leads (`t.me/<bot>/<app>?startapp=<param>`): a letter
an app above registered, then its rest (`t12`: played table 12); "" or "home", or anything no
app knows, is the home page. Always a path of this site, never another's."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.urls import NoReverseMatch, reverse

# Telegram allows A-Z, a-z, 0-9, _ and - in a start parameter, at most 512 characters.
PARAM = re.compile(r"[A-Za-z0-9_-]{0,512}")

Opener = Callable[[str], str | None]
_OPENERS: dict[str, Opener] = {}


def opens(letter: str) -> Callable[[Opener], Opener]:
    """Registers what a start parameter beginning with `letter` opens: the function takes the
    rest of it and gives a path (reverse(...)), or None when it names nothing."""

    def register(opener: Opener) -> Opener:
        if letter in _OPENERS and _OPENERS[letter] is not opener:
            raise ValueError(f"start parameter {letter!r} is registered twice")
        _OPENERS[letter] = opener
        return opener

    return register


def number(rest: str) -> int | None:
    """A row's id as a start parameter writes it (digits, no leading zero), or None."""
    if rest.isascii() and rest.isdigit() and not rest.startswith("0") and len(rest) <= 18:
        return int(rest)
    return None


def path_for(start_param: str) -> str:
    """The page `start_param` names, the home page when it names none."""
    home = reverse("home")
    if not start_param or start_param == "home" or not PARAM.fullmatch(start_param):
        return home
    opener = _OPENERS.get(start_param[0])
    if opener is None:
        return home
    try:
        path = opener(start_param[1:])
    except NoReverseMatch:
        return home
    # Only a path of this site: never `//elsewhere` nor a scheme.
    if not path or not path.startswith("/") or path.startswith("//"):
        return home
    return path


def link(start_param: str = "") -> str:
    """The Mini App's link opening the page `start_param` names (`t.me/<bot>/<app>?startapp=`),
    "" when the site has no bot or no Mini App (settings.TELEGRAM_APP_NAME)."""
    if not (settings.TELEGRAM_BOT_USERNAME and settings.TELEGRAM_APP_NAME):
        return ""
    if not PARAM.fullmatch(start_param):
        raise ValueError(f"{start_param!r} is not a start parameter Telegram allows")
    address = f"https://t.me/{settings.TELEGRAM_BOT_USERNAME}/{settings.TELEGRAM_APP_NAME}"
    return f"{address}?startapp={start_param}" if start_param else address
