"""Start the chains of the periodic tasks (core.tasks.PERIODIC) that are missing.

    python manage.py schedule_tasks

`manage.py db_worker` does it itself whenever it starts. On a backend outside the database
(Redis: django-tasks-rq), which the site cannot look into, run it once when the site is first
deployed: each run of a periodic task enqueues the next (docs/deployment.md).
"""

from django.core.management.base import BaseCommand

from core import tasks


class Command(BaseCommand):
    help = "Start the periodic tasks' chains that are missing."

    def handle(self, *args, **options) -> None:
        started = tasks.schedule()
        names = ", ".join(the_task.name for the_task, _every in tasks.PERIODIC)
        self.stdout.write(f"{started} periodic tasks started (of: {names}).")
