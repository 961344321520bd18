"""Background work as tasks of Django's framework (settings.TASKS: django-tasks-db, whose rows
`manage.py db_worker` runs; docs/architecture.md, "Background work"), and the few promises the
framework leaves to the site:

- `later`: a task written in the transaction of its cause. With the database backend its row
  is written in that transaction (the row is the outbox: it exists if and only if its cause
  was kept); with another backend (Redis: django-tasks-rq) it is enqueued once the transaction
  commits.
- `resumable`: a task that may run again after its worker was killed running it (it finds
  where it stood in the rows it writes): `recover` puts such a task back in the queue when its
  worker starts again; any other is marked failed, not run twice.
- `outliving_outages`: a task's body that waits out an outage of the database and starts
  again (so a resumable task), rather than being marked failed by the outage.
- `until_reachable`: one write that must be made once the database answers again (what was
  sent is recorded, never forgotten).
- `periodic`: a task that runs every so often, each run enqueueing the next; `schedule`
  starts the chains that are missing.
"""

from __future__ import annotations

import datetime
import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from django.db import close_old_connections, transaction
from django.tasks import Task, task, task_backends
from django.tasks.base import DEFAULT_TASK_PRIORITY
from django.utils import timezone

from core.outages import DATABASE_UNREACHABLE

logger = logging.getLogger(__name__)

# How long finished tasks' rows are kept (seen in the admin), then deleted (`prune`).
KEEP_FINISHED = datetime.timedelta(days=1)
# An outage is waited out a little longer each time: from FIRST_WAIT, doubled up to LONGEST_WAIT.
FIRST_WAIT = 0.5
LONGEST_WAIT = 5.0

# The module paths of the tasks that may run again after their worker was killed.
RESUMABLE: set[str] = set()
# The periodic tasks: (task, every).
PERIODIC: list[tuple[Task, datetime.timedelta]] = []


def in_the_database(the_task: Task | None = None) -> bool:
    """Whether the rows of `the_task` (by default: of tasks) are in the site's database
    (django-tasks-db)."""
    from django_tasks_db.backend import DatabaseBackend

    backend = the_task.get_backend() if the_task is not None else task_backends["default"]
    return isinstance(backend, DatabaseBackend)


def later(
    the_task: Task, *args: Any, run_after: datetime.datetime | None = None, **kwargs: Any
) -> None:
    """Enqueue `the_task(*args, **kwargs)`, to run at `run_after` (or at once), written in the
    current transaction (or once it commits, on a backend outside the database)."""
    if run_after is not None and run_after <= timezone.now():
        run_after = None
    queued = the_task.using(run_after=run_after) if run_after is not None else the_task
    if not queued.get_backend().supports_priority:
        # A backend with no priorities (django-tasks-rq): in the order they come.
        queued = queued.using(priority=DEFAULT_TASK_PRIORITY)
    if in_the_database(the_task):
        queued.enqueue(*args, **kwargs)
    else:
        transaction.on_commit(lambda: queued.enqueue(*args, **kwargs), robust=True)


def backoff(
    attempts: int,
    *,
    first: datetime.timedelta,
    longest: datetime.timedelta,
    after: float | None = None,
) -> datetime.timedelta:
    """The wait before a task's next attempt after `attempts` failed ones: `first`, doubled
    each time up to `longest`; at least `after` seconds, the outside service's own hint
    (Telegram's retry_after)."""
    wait = min(first * 2 ** max(attempts - 1, 0), longest)
    if after is not None:
        wait = max(wait, datetime.timedelta(seconds=after))
    return wait


def resumable(the_task: Task) -> Task:
    """Mark `the_task` as one that may run again after its worker was killed running it."""
    RESUMABLE.add(the_task.module_path)
    return the_task


def _wait(wait: float) -> float:
    close_old_connections()
    time.sleep(wait)
    return min(wait * 2, LONGEST_WAIT)


def outliving_outages[T](body: Callable[..., T]) -> Callable[..., T]:
    """A task's body that, when the database cannot be reached, waits until it can and starts
    again from the beginning (its writes are each a transaction of their own, and it finds
    where it stood in them)."""

    @functools.wraps(body)
    def run(*args: Any, **kwargs: Any) -> T:
        return until_reachable(body, *args, **kwargs)

    return run


def until_reachable[T](write: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Make `write` (a transaction of its own) once the database answers: what a task did
    outside it (a message sent) is recorded, however long the outage."""
    wait = FIRST_WAIT
    while True:
        try:
            return write(*args, **kwargs)
        except DATABASE_UNREACHABLE as outage:
            logger.warning("tasks: %s waits for the database (%s)", write.__qualname__, outage)
            wait = _wait(wait)


def periodic(every: datetime.timedelta, **options: Any) -> Callable[[Callable[[], Any]], Task]:
    """A task run every `every`: each run enqueues the next one first (unless another of its
    runs is waiting already), so a run that fails does not end the chain; `schedule` starts
    the chains that are missing when a worker starts."""

    def register(body: Callable[[], Any]) -> Task:
        @functools.wraps(body)
        def run() -> Any:
            with transaction.atomic():
                if not _waiting(the_task):
                    later(the_task, run_after=timezone.now() + every)
            return body()

        the_task = task(**options)(run)
        PERIODIC.append((the_task, every))
        return the_task

    return register


def _waiting(the_task: Task) -> bool:
    """Whether a run of `the_task` waits in the queue (on the database backend; elsewhere the
    chain is the backend's to keep: docs/deployment.md)."""
    if not in_the_database(the_task):
        return False
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(task_path=the_task.module_path, status="READY").exists()


def schedule() -> int:
    """Start each periodic task's chain that has no run waiting (a worker's start). Returns
    how many were started."""
    started = 0
    with transaction.atomic():
        for the_task, _every in PERIODIC:
            if not _waiting(the_task):
                later(the_task)
                started += 1
    return started


def recover(worker_id: str) -> tuple[int, int]:
    """The tasks this worker (by its id) left running when it was stopped without finishing
    them (killed, or the database gone while it recorded their end): the resumable ones are
    queued again, the others marked failed (they may have done their work: not twice).
    Returns (queued again, failed)."""
    from django_tasks_db.models import DBTaskResult

    again = failed = 0
    with transaction.atomic():
        running = DBTaskResult.objects.select_for_update().filter(status="RUNNING")
        for row in running:
            if not row.worker_ids or row.worker_ids[-1] != worker_id:
                continue
            if row.task_path in RESUMABLE:
                row.status = "READY"
                row.save(update_fields=["status"])
                again += 1
            else:
                row.set_failed(Interrupted(f"{row.task_path}: its worker {worker_id} stopped"))
                failed += 1
    if again or failed:
        logger.warning(
            "tasks: %s ran again, %s given up after worker %s stopped", again, failed, worker_id
        )
    return again, failed


class Interrupted(Exception):
    """A task's worker stopped while running it, and it may not run again."""


@periodic(every=datetime.timedelta(hours=1))
def prune() -> int:
    """Delete the rows of tasks finished more than KEEP_FINISHED ago."""
    if not in_the_database():
        return 0
    from django_tasks_db.models import DBTaskResult

    deleted, _ = (
        DBTaskResult.objects.finished()
        .filter(finished_at__lt=timezone.now() - KEEP_FINISHED)
        .delete()
    )
    return deleted
