"""The reminders of correspondence tables: when the person to move is running out of time
(play.correspondence.remind_at), a task (`remind`, run by `manage.py db_worker`) tells the
apps above by a signal (notify sends the reminder), once a move.

The task is enqueued wherever the clock sets the table's `remind_at` (`later`), in that
transaction, to run at that time. A run reminds only if the table still owes this reminder
(its `remind_at` has come): a move made, or a vacation that moved the deadline, leaves it
nothing to do (the new time has its own task). The signal is sent in the transaction that
clears `remind_at`, under the table's row lock, so that a receiver's outbox row is written
once a move; a receiver that raises undoes it, and the reminder is tried again later."""

from __future__ import annotations

import datetime
import logging

from django.db import transaction
from django.tasks import task
from django.utils import timezone

from core.outages import DATABASE_UNREACHABLE
from core.tasks import later, outliving_outages, resumable
from play import signals
from play.models import PlayTable

logger = logging.getLogger(__name__)

# A reminder whose receiver failed is tried again after this.
RETRY_AFTER = datetime.timedelta(seconds=30)


def remind_later(table: PlayTable) -> None:
    """The task of the reminder the locked `table` now owes (its `remind_at`), if it owes one."""
    if table.remind_at is not None:
        later(remind, table.pk, run_after=table.remind_at)


@resumable
@task
def remind(table_id: int) -> str:
    """Remind the person to move at table `table_id`, if the table owes it now."""
    return _remind(table_id)


@outliving_outages
def _remind(table_id: int) -> str:
    try:
        with transaction.atomic():
            table = (
                PlayTable.objects.select_for_update()
                .filter(pk=table_id, remind_at__lte=timezone.now())
                .first()
            )
            if table is None:
                return "not owed"
            # Not the version: nothing on the board changes.
            PlayTable.objects.filter(pk=table.pk).update(remind_at=None)
            seat = table.seats.filter(position=table.clock_seat).select_related("user").first()
            if seat is None or seat.user is None or table.server_moves_at is None:
                return "nobody to remind"
            signals.move_time_running_out.send(
                PlayTable, table=table, seat=seat, user=seat.user, deadline=table.server_moves_at
            )
    except DATABASE_UNREACHABLE:
        raise  # waited out (outliving_outages)
    except Exception:
        logger.exception("play: the reminder at table %s failed; trying again later", table_id)
        with transaction.atomic():
            table = PlayTable.objects.select_for_update().filter(pk=table_id).first()
            if table is not None and table.remind_at is not None:
                later(remind, table_id, run_after=timezone.now() + RETRY_AFTER)
        return "failed"
    return "reminded"
