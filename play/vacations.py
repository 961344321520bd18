"""The services of vacations: a person takes days off from their correspondence tables (so many
a calendar year, settings.PLAY_VACATION_DAYS), ends them early or cancels planned ones; the
clocks of their moves at those tables stand still meanwhile (play.correspondence.deadline).

Locks: the person's account row (two vacations asked at once are counted one after the
other), then their correspondence tables by id, as play.services locks a table.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import live
from play import correspondence, reminders
from play.models import CORRESPONDENCE_SECONDS, PlayTable, Vacation
from play.queries import vacation_spans
from play.services import CLOCK_FIELDS

# A vacation ended this soon after it began was a change of mind: it is undone.
CHANGED_MIND = datetime.timedelta(hours=1)
# The longest vacation planned ahead of its start.
PLAN_AHEAD = datetime.timedelta(days=366)


class VacationError(Exception):
    """A vacation refused; the message says why."""


def allowance() -> int:
    """Vacation days a person has a calendar year."""
    return settings.PLAY_VACATION_DAYS


def take_vacation(
    *, user, starts_at: datetime.datetime, ends_at: datetime.datetime, now=None
) -> Vacation:
    """A vacation from `starts_at` (now or later) to `ends_at`, within the year's allowance
    and apart from the person's other vacations; the deadlines of their moves at
    correspondence tables move on by it."""
    now = now or timezone.now()
    starts_at = max(starts_at, now)
    if ends_at <= starts_at:
        raise VacationError(_("A vacation ends after it starts, and not in the past."))
    if starts_at - now > PLAN_AHEAD:
        raise VacationError(_("A vacation can be planned at most a year ahead."))
    with transaction.atomic():
        _lock(user)
        others = list(
            Vacation.objects.filter(user=user, ends_at__gt=now).values_list("starts_at", "ends_at")
        )
        if any(start < ends_at and starts_at < stop for start, stop in others):
            raise VacationError(_("You already have a vacation at that time."))
        _check_allowance(user, (starts_at, ends_at))
        vacation = Vacation.objects.create(user=user, starts_at=starts_at, ends_at=ends_at)
        _reclock_tables(user)
    return vacation


def end_vacation(*, user, now=None) -> Vacation | None:
    """End the person's vacation now (the days not taken are theirs again), or cancel the next
    planned one if none is running. Returns the vacation ended (None: there was none)."""
    now = now or timezone.now()
    with transaction.atomic():
        _lock(user)
        vacation = Vacation.objects.filter(user=user, ends_at__gt=now).order_by("starts_at").first()
        if vacation is None:
            return None
        if vacation.starts_at <= now - CHANGED_MIND:
            vacation.ends_at = now
            vacation.save(update_fields=["ends_at"])
        else:
            # Planned, or ended within its first hour: undone as if never taken (no day of
            # the year's allowance; the deadlines are as they were).
            vacation.delete()
        _reclock_tables(user)
    return vacation


def days_taken(user, year: int) -> int:
    """The vacation days the person has taken or planned in this calendar year."""
    spans = Vacation.objects.filter(user=user).values_list("starts_at", "ends_at")
    return correspondence.days_in_year(list(spans), year, timezone.get_current_timezone())


def _check_allowance(user, span: correspondence.Span) -> None:
    tz = timezone.get_current_timezone()
    spans = list(Vacation.objects.filter(user=user).values_list("starts_at", "ends_at"))
    for year in correspondence.years(span, tz):
        taken = correspondence.days_in_year(spans, year, tz)
        asked = correspondence.days_in_year([*spans, span], year, tz) - taken
        left = max(0, allowance() - taken)
        if asked > left:
            raise VacationError(
                ngettext(
                    "You have %(count)s vacation day left in %(year)s; this vacation takes "
                    "%(asked)s.",
                    "You have %(count)s vacation days left in %(year)s; this vacation takes "
                    "%(asked)s.",
                    left,
                )
                # The year as it is written, never with a thousands separator.
                % {"count": left, "year": str(year), "asked": asked}
            )


def _lock(user) -> None:
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def _reclock_tables(user) -> None:
    """The deadlines of the person's running clocks at correspondence tables, set again with
    their vacations as they now stand (each table locked, by id; its version moves, so that
    the others at the table see the new deadline and whether they are on vacation)."""
    tables = (
        PlayTable.objects.select_for_update()
        .filter(
            seats__user=user,
            seats__left_at=None,
            status=PlayTable.Status.PLAYING,
            move_seconds__gte=CORRESPONDENCE_SECONDS,
        )
        .order_by("pk")
    )
    for table in tables:
        seat = table.seats.filter(user=user).values_list("position", flat=True).first()
        if table.clock_seat is None or table.clock_seat != seat:
            live.moved(table)  # "on vacation until" shows at the table
            continue
        correspondence.reclock(table, vacation_spans(user.pk, since=table.clock_started_at))
        reminders.remind_later(table)
        live.moved(table, *CLOCK_FIELDS)
