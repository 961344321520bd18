"""The clock of tables played on the site: bots move, timers run out and the next round is
dealt, whether or not anyone is looking. Nothing else: what is not a table's move (sending
notifications, the coach's reviews, reminders) is a task of the tasks' worker (`manage.py
db_worker`, core.tasks), so that a slow mail server or Telegram never holds up a table.

    python manage.py play_worker

`make run` starts one beside the web server; in production it is a process of its own
(docs/deployment.md), and several may run on one database: each move is taken under the
table's row lock, which the others skip. Stopped by SIGTERM or Ctrl-C after the move it is
making. It outlives outages of the database: a pass that fails waits a little longer each time
the database fails again, and goes on once it answers.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import random
import signal
import threading
import time

import django.db
from django.core.management.base import BaseCommand
from django.db import close_old_connections, connection
from django.utils import timezone

from core.models import LiveEvent
from core.outages import DATABASE_UNREACHABLE
from play import services

logger = logging.getLogger(__name__)

# Longest sleep between two looks at the tables: a move a person makes sets the next bot's
# time, which the worker finds within this.
LOOK_EVERY = 0.1
# A table whose owed move failed is tried again after this, not at once (the others go on)...
RETRY_AFTER = datetime.timedelta(seconds=30)
# ...or after this when it failed because the database was away for a moment.
RETRY_SOON_AFTER = datetime.timedelta(seconds=2)
FORGET_EVERY = datetime.timedelta(minutes=1)
# After a pass that failed on the database, the next waits this long, doubled after each
# failure in a row up to LONGEST_WAIT, each a quarter more or less at random (so that the
# workers that failed together do not all come back at once).
FIRST_WAIT = 0.5
LONGEST_WAIT = 2.0
# Whatever the database raises: an outage (DATABASE_UNREACHABLE) or not, a pass never stops
# the worker for it.
DATABASE_ERRORS = (django.db.Error, *DATABASE_UNREACHABLE)


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


class Outage:
    """The database failing pass after pass: how long to wait before the next pass, and a
    line in the log when it starts and one when it ends, not one a pass."""

    def __init__(self) -> None:
        self.failures = 0
        self.since = 0.0

    def failed(self) -> float:
        """The wait before the next pass (called while handling the database's error)."""
        if not self.failures:
            self.since = time.monotonic()
            logger.warning("play worker: the database failed; trying again", exc_info=True)
        wait = min(FIRST_WAIT * 2**self.failures, LONGEST_WAIT)
        self.failures += 1
        return wait * random.uniform(0.75, 1.25)

    def over(self) -> None:
        if self.failures:
            took = time.monotonic() - self.since
            logger.warning("play worker: the database answers again after %.1f s", took)
        self.failures = 0


def run(stopping: threading.Event, *, until_idle: bool = False) -> int:
    """Make every owed move as its time comes, until `stopping` is set (or, `until_idle`,
    until none is due). Returns how many were made."""
    made = 0
    forgotten_at = timezone.now()
    outage = Outage()
    while not stopping.is_set():
        due = None
        try:
            close_old_connections()
            try:
                moved = services.step_due() is not None
            except services.OwedMoveFailed as failed:
                _put_aside(failed)
                continue  # the other tables go on at once
            if not moved and not until_idle:
                now = timezone.now()
                if now - forgotten_at > FORGET_EVERY:
                    LiveEvent.forget_old(now)
                    forgotten_at = now
                due = services.next_due()
        except DATABASE_ERRORS:
            _forget_connection()
            stopping.wait(outage.failed())
            continue
        outage.over()
        if moved:
            made += 1
            continue
        if until_idle:
            break
        wait = LOOK_EVERY if due is None else (due - timezone.now()).total_seconds()
        stopping.wait(min(max(wait, 0), LOOK_EVERY))
    return made


def _put_aside(failed: services.OwedMoveFailed) -> None:
    """A move that fails must not stop every other table: its table is tried again soon if
    the database was away for a moment, later (and the failure logged) if the move itself
    failed."""
    if isinstance(failed.__cause__, DATABASE_UNREACHABLE):
        _forget_connection()
        services.put_aside(failed.pk, RETRY_SOON_AFTER)
    else:
        logger.exception("play worker: the owed move at table %s failed", failed.pk)
        services.put_aside(failed.pk, RETRY_AFTER)


def _forget_connection() -> None:
    """Give up the connection the error may have left broken, and (on PostgreSQL) the pool's
    others, which the outage may have ended too: the pool would hand them out one after the
    other, waiting a second, then two, after each that fails its check, and the worker would
    find no live connection for many seconds after the database is back."""
    with contextlib.suppress(*DATABASE_ERRORS):
        connection.close()
    if getattr(connection, "pool", None) is not None:
        with contextlib.suppress(*DATABASE_ERRORS):
            connection.close_pool()  # the next pass opens a new one
