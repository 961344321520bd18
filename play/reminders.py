"""The reminders of correspondence tables: the worker (play_worker) tells the person to move,
once a move, that their time runs out (play.correspondence.remind_at), by a signal that the
apps above hear (notify sends the reminder)."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from play import signals
from play.models import PlayTable
from play.services import take_due


class ReminderFailed(Exception):
    """The reminder due at table `pk` failed (a receiver raised; nothing of it was saved)."""

    def __init__(self, pk: int) -> None:
        super().__init__(pk)
        self.pk = pk


def remind_due(now: datetime.datetime | None = None) -> int | None:
    """The worker's reminder at one correspondence table whose person to move is running out
    of time: `signals.move_time_running_out` is sent in the transaction that clears the
    table's `remind_at`, so that a receiver's outbox row is written once a move, whatever
    worker takes it (the others skip the locked row). Returns the table's id, or None."""
    now = now or timezone.now()
    with transaction.atomic():
        table = take_due("remind_at", now)
        if table is None:
            return None
        # Not the version: nothing on the board changes.
        PlayTable.objects.filter(pk=table.pk).update(remind_at=None)
        seat = table.seats.filter(position=table.clock_seat).select_related("user").first()
        if seat is not None and seat.user is not None and table.server_moves_at is not None:
            try:
                signals.move_time_running_out.send(
                    PlayTable,
                    table=table,
                    seat=seat,
                    user=seat.user,
                    deadline=table.server_moves_at,
                )
            except Exception as error:
                raise ReminderFailed(table.pk) from error
    return table.pk


def put_reminder_aside(pk: int, delay: datetime.timedelta) -> None:
    """A reminder that failed is tried again after `delay`, if it is still owed."""
    with transaction.atomic():
        PlayTable.objects.filter(pk=pk, remind_at__isnull=False).update(
            remind_at=timezone.now() + delay
        )
