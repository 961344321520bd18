"""The worker of the site's tasks (settings.TASKS): django-tasks-db's `db_worker`, with what the
site promises on top of it (core.tasks).

    python manage.py db_worker [db_worker's options: --batch, --interval, --queue-name...]

- It outlives outages of the database: the library's worker stops when the database cannot be
  reached while it looks for a task; this one waits a little longer each time (0.5 s, doubled
  up to 5 s) and looks again, with no task lost (a task's row is only taken in the transaction
  that marks it running, and a task's body waits out an outage itself: core.tasks).
- Its id is the machine's name unless `--worker-id` says otherwise, the same from one start to
  the next, so that when it starts it finds the tasks it left running when it was killed:
  the resumable ones run again, the others are marked failed (`core.tasks.recover`). Two
  workers on one machine each need an id of their own.
- It starts the periodic tasks' chains that are missing (`core.tasks.schedule`).

`make run` starts one beside the web server; in production it is a process of its own
(docs/deployment.md). This command takes the place of the library's (config is listed before
django_tasks_db in INSTALLED_APPS).
"""

from __future__ import annotations

import logging
import socket
import time

from django.db import close_old_connections
from django_tasks_db.management.commands.db_worker import Command as DbWorker

from core import tasks
from core.outages import DATABASE_UNREACHABLE

logger = logging.getLogger(__name__)

FIRST_WAIT = 0.5
LONGEST_WAIT = 5.0


def machine_id() -> str:
    """The worker's id unless told another: this machine's name (at most 64 characters)."""
    return (socket.gethostname() or "db-worker")[:64]


class Command(DbWorker):
    help = "Run the site's background tasks (django-tasks-db's db_worker, outliving outages)."

    def add_arguments(self, parser) -> None:
        super().add_arguments(parser)
        parser.set_defaults(worker_id=machine_id())

    def handle(self, *args, **options) -> None:
        wait = FIRST_WAIT
        while True:
            try:
                tasks.recover(options["worker_id"])
                tasks.schedule()
                return super().handle(*args, **options)
            except DATABASE_UNREACHABLE as outage:
                logger.warning(
                    "tasks: the database is unreachable (%s); waiting %.1f s", outage, wait
                )
                close_old_connections()
                time.sleep(wait)
                wait = min(wait * 2, LONGEST_WAIT)
