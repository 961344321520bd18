"""notify's periodic tasks (core.tasks.periodic, run by `manage.py db_worker`): what no signal
says, looked for every so often. Each delivery is a task of its own (notify.delivery)."""

from __future__ import annotations

import datetime

from core.tasks import periodic
from notify import services

# A move waits services.MOVE_WAITS before its person is told; they are looked for this often.
MOVES_EVERY = datetime.timedelta(seconds=3)
# The day's tournaments (a daily reminder needs no more).
DAYS_EVERY = datetime.timedelta(minutes=1)


@periodic(every=MOVES_EVERY)
def look_for_moves_waiting() -> int:
    """Who now waits for a move without looking (told once a move)."""
    return services.tell_moves_waiting()


@periodic(every=DAYS_EVERY)
def look_for_tournament_days() -> int:
    """Who plays in a tournament today (told once a tournament)."""
    return services.tell_tournament_days()
