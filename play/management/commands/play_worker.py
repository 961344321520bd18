"""The clock of tables played on the site: bots move, timers run out and the next round is
dealt whether or not anyone is looking.

    python manage.py play_worker

`make run` starts one beside the web server; in production it is a process of its own (README,
"Running in production"), and several may run on one database: each move is taken under the
table's row lock, which the others skip. Stopped by SIGTERM or Ctrl-C after the move it is
making.
"""

from __future__ import annotations

import datetime
import logging
import signal
import threading

from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils import timezone

from core.models import LiveEvent
from play import services

logger = logging.getLogger(__name__)

# Longest sleep between two looks at the tables: a move a person makes sets the next bot's
# time, which the worker finds within this.
LOOK_EVERY = 0.1
# A table whose owed move failed is tried again after this, not at once (the others go on).
RETRY_AFTER = datetime.timedelta(seconds=30)
FORGET_EVERY = datetime.timedelta(minutes=1)


class Command(BaseCommand):
    help = "Make the moves the server owes at played tables (bots, timers, the next deal)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--until-idle",
            action="store_true",
            help="Stop once no table has a move due (for tests and scripts).",
        )

    def handle(self, *args, until_idle: bool = False, **options) -> None:
        stopping = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stopping.set())
        self.stdout.write("The play worker is running (bots, timers, next deals).")
        made = run(stopping, until_idle=until_idle)
        self.stdout.write(f"The play worker stopped after {made} moves.")


def run(stopping: threading.Event, *, until_idle: bool = False) -> int:
    """Make every owed move as its time comes, until `stopping` is set (or, `until_idle`,
    until none is due). Returns how many were made."""
    made = 0
    forgotten_at = timezone.now()
    while not stopping.is_set():
        close_old_connections()
        if _one_move():
            made += 1
            continue
        if until_idle:
            break
        now = timezone.now()
        if now - forgotten_at > FORGET_EVERY:
            LiveEvent.forget_old(now)
            forgotten_at = now
        due = services.next_due()
        wait = LOOK_EVERY if due is None else (due - timezone.now()).total_seconds()
        stopping.wait(min(max(wait, 0), LOOK_EVERY))
    return made


def _one_move() -> bool:
    try:
        return services.step_due() is not None
    except services.OwedMoveFailed as failed:
        # A move that fails (it should not) must not stop every other table: the table is
        # put aside for a while and the failure logged.
        logger.exception("play worker: the owed move at table %s failed", failed.pk)
        services.put_aside(failed.pk, RETRY_AFTER)
        return True
