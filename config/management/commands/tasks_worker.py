"""The worker of the site's tasks (settings.TASKS): django-tasks-db's `db_worker`, which outlives
outages of the database.

    python manage.py tasks_worker [db_worker's options: --batch, --interval, --queue-name...]

db_worker stops when the database cannot be reached while it looks for a task; this one waits
a little longer each time (0.5 s, doubled up to 5 s) and looks again, with no task lost: a
task's row is only taken in the transaction that marks it running. `make run` starts one
beside the web server; in production it is a process of its own (docs/deployment.md).
"""

from __future__ import annotations

import logging
import time

from django.db import close_old_connections
from django_tasks_db.management.commands.db_worker import Command as DbWorker

from core.outages import DATABASE_UNREACHABLE

logger = logging.getLogger(__name__)

FIRST_WAIT = 0.5
LONGEST_WAIT = 5.0


class Command(DbWorker):
    help = "Run the site's background tasks (django-tasks-db's db_worker, outliving outages)."

    def handle(self, *args, **options) -> None:
        wait = FIRST_WAIT
        while True:
            try:
                return super().handle(*args, **options)
            except DATABASE_UNREACHABLE as outage:
                logger.warning(
                    "tasks: the database is unreachable (%s); waiting %.1f s", outage, wait
                )
                close_old_connections()
                time.sleep(wait)
                wait = min(wait * 2, LONGEST_WAIT)
