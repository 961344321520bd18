"""notify's periodic tasks (core.tasks.periodic, run by `manage.py db_worker`): what no signal
says, looked for every so often. Each delivery is a task of its own (notify.services.deliveries)."""

from __future__ import annotations

import datetime

from django.utils import timezone

from core.tasks import in_the_database, periodic
from notify import services
from notify.services import deliveries

# A move waits services.MOVE_WAITS before its person is told; they are looked for this often.
MOVES_EVERY = datetime.timedelta(seconds=3)
# The day's tournaments (a daily reminder needs no more).
DAYS_EVERY = datetime.timedelta(minutes=1)
# On a backend outside the database, a delivery waiting this long past its time has lost its
# task (deliveries.requeue_lost); looked for this often.
LOST_AFTER = datetime.timedelta(minutes=5)
LOST_EVERY = datetime.timedelta(minutes=1)


@periodic(every=MOVES_EVERY)
def look_for_moves_waiting() -> int:
    """Who now waits for a move without looking (told once a move)."""
    return services.tell_moves_waiting()


@periodic(every=DAYS_EVERY)
def look_for_tournament_days() -> int:
    """Who plays in a tournament today (told once a tournament)."""
    return services.tell_tournament_days()


@periodic(every=LOST_EVERY)
def look_for_lost_deliveries() -> int:
    """On Redis (django-tasks-rq), the deliveries whose task was never enqueued; on the
    database backend a delivery's task is written with it, and none is ever lost."""
    if in_the_database(deliveries.deliver):
        return 0
    return deliveries.requeue_lost(timezone.now() - LOST_AFTER)
