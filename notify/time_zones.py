"""Whose clock a page shows: the reader's time zone (the account's, else the browser's, else the
site's), and the list people pick theirs from.

The account's zone is kept in the session (set at login and when the Notifications page is
saved) and, so that no page asks the database for it, in a cookie that follows the session;
the browser's comes in the `tz` cookie that static/js/site.js sets from
`Intl.DateTimeFormat().resolvedOptions().timeZone`."""

from __future__ import annotations

import datetime
import functools
import zoneinfo

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

SESSION_KEY = "time_zone"
COOKIE = "tz"

# The zones most of our players live in, by their usual Russian names: the top of the list,
# so that typing «Самара» in it finds Europe/Samara.
NAMED = {
    "Europe/Kaliningrad": _("Kaliningrad"),
    "Europe/Moscow": _("Moscow"),
    "Europe/Volgograd": _("Volgograd"),
    "Europe/Samara": _("Samara"),
    "Europe/Saratov": _("Saratov"),
    "Europe/Ulyanovsk": _("Ulyanovsk"),
    "Europe/Astrakhan": _("Astrakhan"),
    "Asia/Yekaterinburg": _("Yekaterinburg"),
    "Asia/Omsk": _("Omsk"),
    "Asia/Novosibirsk": _("Novosibirsk"),
    "Asia/Krasnoyarsk": _("Krasnoyarsk"),
    "Asia/Irkutsk": _("Irkutsk"),
    "Asia/Yakutsk": _("Yakutsk"),
    "Asia/Vladivostok": _("Vladivostok"),
    "Asia/Magadan": _("Magadan"),
    "Asia/Kamchatka": _("Kamchatka"),
    "Europe/Minsk": _("Minsk"),
    "Europe/Kyiv": _("Kyiv"),
    "Asia/Almaty": _("Almaty"),
    "Asia/Tashkent": _("Tashkent"),
    "Asia/Tbilisi": _("Tbilisi"),
    "Asia/Yerevan": _("Yerevan"),
    "Asia/Baku": _("Baku"),
    "Europe/Berlin": _("Berlin"),
    "Europe/London": _("London"),
    "UTC": _("UTC"),
}


def is_zone(name: str) -> bool:
    return name in _available()


@functools.cache
def _available() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def _offset(name: str) -> str:
    delta = datetime.datetime.now(zoneinfo.ZoneInfo(name)).utcoffset() or datetime.timedelta()
    minutes = int(delta.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "−"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def choices() -> list:
    """The picker's choices: "the browser's or the site's" first, then the named zones by their
    offset, then every other zone by its IANA name."""
    named = sorted(
        (name for name in NAMED if is_zone(name)),
        key=lambda name: datetime.datetime.now(zoneinfo.ZoneInfo(name)).utcoffset(),
    )
    others = sorted(_available() - set(NAMED) - {"localtime", "Factory"})
    return [
        ("", gettext("As in this browser (else %(zone)s)") % {"zone": settings.TIME_ZONE}),
        (
            gettext("Russia and nearby"),
            [(name, f"{NAMED[name]} ({_offset(name)})") for name in named],
        ),
        (gettext("Every time zone"), [(name, name.replace("_", " ")) for name in others]),
    ]


ACCOUNT_COOKIE = "account_tz"


def reader_zone(request) -> zoneinfo.ZoneInfo | None:
    """The zone this request's reader reads times in, or None for the site's: the account's
    (its cookie, which follows the session: no page asks the database for it), else the
    browser's."""
    for name in (request.COOKIES.get(ACCOUNT_COOKIE), request.COOKIES.get(COOKIE)):
        if name and is_zone(name):
            return zoneinfo.ZoneInfo(name)
    return None


def remember(request, name: str) -> None:
    """This session reads times in the account's zone `name` ("" for none chosen)."""
    if name:
        request.session[SESSION_KEY] = name
    else:
        request.session.pop(SESSION_KEY, None)


def _follow_the_session(request, response) -> None:
    """The account's zone cookie says what the session says, once a view has read the session
    (a login, the Notifications page, a logout): set, changed or deleted."""
    session = getattr(request, "session", None)
    if session is None or not session.accessed:
        return
    if getattr(session, "_session_cache", None) is None:
        return  # accessed but never read: the database was away (the page says so)
    name = session.get(SESSION_KEY, "")
    if name == request.COOKIES.get(ACCOUNT_COOKIE, ""):
        return
    if name:
        response.set_cookie(
            ACCOUNT_COOKIE,
            name,
            max_age=365 * 24 * 60 * 60,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
        )
    else:
        response.delete_cookie(ACCOUNT_COOKIE, samesite="Lax")


class ReaderTimeZoneMiddleware:
    """Every page shows times in its reader's zone (settings.MIDDLEWARE, after the session)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        zone = reader_zone(request)
        if zone is None:
            response = self.get_response(request)
        else:
            with timezone.override(zone):
                response = self.get_response(request)
        _follow_the_session(request, response)
        return response
