"""The clock of correspondence tables (hours or days a move), worked out without the database:
a move's deadline past the mover's vacations, when to remind them, the time left in words, and
the vacation days a year counts."""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

Span = tuple[datetime.datetime, datetime.datetime]

DAY = datetime.timedelta(days=1)
# A reminder goes when a quarter of the move's time is left, and never earlier than this
# before the deadline (a week's move is not reminded of five days ahead).
REMIND_PART = 4
REMIND_AT_MOST = datetime.timedelta(hours=12)


def deadline(
    started: datetime.datetime, seconds: int, vacations: Iterable[Span]
) -> datetime.datetime:
    """When a move begun at `started` with `seconds` to make it runs out, the clock standing
    still through each of the mover's vacations (those known now, the planned ones too): the
    deadline moves on by the part of each vacation before it."""
    end = started + datetime.timedelta(seconds=seconds)
    for start, stop in sorted(vacations):
        if stop <= started or start >= end:
            continue
        # The clock stops from the vacation's start (or the move's, if later) to its end.
        end += stop - max(start, started)
    return end


def reclock(table, vacations: list[Span]) -> None:
    """The deadline and the reminder of the running correspondence clock of the locked
    `table`, with these vacations of the person to move."""
    table.server_moves_at = deadline(table.clock_started_at, table.move_seconds, vacations)
    table.remind_at = remind_at(table.server_moves_at, table.move_seconds)


def remind_at(deadline: datetime.datetime, seconds: int) -> datetime.datetime:
    """When the person to move is reminded that their time runs out."""
    before = min(datetime.timedelta(seconds=seconds) / REMIND_PART, REMIND_AT_MOST)
    return deadline - before


def time_left(left: datetime.timedelta) -> str:
    """The time left in words, its two largest parts ("2 days 5 hours", "40 minutes")."""
    minutes = max(0, math.ceil(left.total_seconds() / 60))
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = []
    if days:
        parts.append(ngettext("%(count)d day", "%(count)d days", days) % {"count": days})
    if hours:
        parts.append(ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours})
    if minutes and not days:
        parts.append(
            ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
        )
    if not parts:
        return _("no time")
    return " ".join(parts[:2])


def move_time(seconds: int) -> str:
    """A table's time for a move in words ("12 hours", "3 days")."""
    if seconds % DAY.total_seconds() == 0:
        days = seconds // 86400
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    return time_left(datetime.timedelta(seconds=seconds))


def days_in_year(vacations: Sequence[Span], year: int, tz: datetime.tzinfo) -> int:
    """The vacation days these take in `year` (a calendar year where the site is): the time
    of their parts in the year together, a begun day counted whole (two half days are one
    day, not two; a vacation ended after a few hours takes a day, not more)."""
    first = datetime.datetime(year, 1, 1, tzinfo=tz)
    after = datetime.datetime(year + 1, 1, 1, tzinfo=tz)
    taken = datetime.timedelta(0)
    for start, stop in vacations:
        part = min(stop, after) - max(start, first)
        if part > datetime.timedelta(0):
            taken += part
    return math.ceil(taken / DAY)


def years(span: Span, tz: datetime.tzinfo) -> range:
    """The calendar years a vacation touches."""
    start, stop = span
    return range(
        start.astimezone(tz).year,
        (stop - datetime.timedelta(microseconds=1)).astimezone(tz).year + 1,
    )
