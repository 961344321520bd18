"""What a person is told on which channel when they set nothing, and when it may reach them:
the defaults of the switches, their language and their quiet hours."""

from __future__ import annotations

import datetime
import zoneinfo

from django.conf import settings as django_settings

from notify import kinds
from notify.models import Channel, Kind, Settings

# The defaults and the kinds a person switches are the catalogue's (notify.kinds).
DEFAULTS = kinds.DEFAULTS
SWITCHED = kinds.SWITCHED

# The language of a person who never came back since it was kept: the site's people are
# Russian-speaking clubs first.
DEFAULT_LANGUAGE = "ru"


def settings_of(user) -> Settings:
    """The person's settings, unsaved defaults if they have none."""
    found = Settings.objects.filter(user=user).first()
    return found if found is not None else Settings(user=user)


def channels_for(prefs: Settings, kind: str) -> list[str]:
    """The channels the person chose for `kind` (the defaults for a kind they never set)."""
    if kind == Kind.TEST:
        return list(Channel.values)
    if kind in prefs.switches:
        return [name for name in prefs.switches[kind] if name in Channel.values]
    return [name for name, kinds in DEFAULTS.items() if kind in kinds]


def is_on(prefs: Settings, kind: str, channel: str) -> bool:
    return channel in channels_for(prefs, kind)


def language_of(prefs: Settings) -> str:
    codes = {code for code, _name in django_settings.LANGUAGES}
    return prefs.language if prefs.language in codes else DEFAULT_LANGUAGE


def zone_of(prefs: Settings) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(
            prefs.time_zone or prefs.browser_time_zone or django_settings.TIME_ZONE
        )
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(django_settings.TIME_ZONE)


def quiet_until(prefs: Settings, now: datetime.datetime) -> datetime.datetime | None:
    """When the person's quiet hours end, if `now` lies inside them (they may span midnight:
    22:00 to 08:00); None outside them or without any."""
    start, end = prefs.quiet_from, prefs.quiet_until
    if start is None or end is None or start == end:
        return None
    local = now.astimezone(zone_of(prefs))
    clock = local.time().replace(tzinfo=None)
    # A span past midnight (22:00 to 08:00) is the hours outside its complement.
    inside = (start <= clock < end) if start < end else (clock >= start or clock < end)
    if not inside:
        return None
    day = local.date() if clock < end else local.date() + datetime.timedelta(days=1)
    ends = datetime.datetime.combine(day, end, tzinfo=local.tzinfo)
    return ends.astimezone(datetime.UTC)
