"""Serve the site as `make run` does: the ASGI app (uvicorn; the live pages' event streams
need it) and, beside it, the play worker (bots, timers and next deals move with nobody looking),
the tasks' worker (db_worker: notifications, mail, the coach's reviews, reminders) and, when a
Telegram bot is set up without a webhook, its poller (the telegram app's telegram_poll).

    python manage.py serve [--port 8000] [--host 127.0.0.1] [--reload]

All stop together (Ctrl-C). Production runs them as processes of their own (docs/deployment.md).
"""

from __future__ import annotations

import signal
import subprocess
import sys

import uvicorn
from django.apps import apps as django_apps
from django.conf import settings
from django.core.management.base import BaseCommand
from django.urls import reverse

from config.management.commands.demo import DEMO_PASSWORD, DEMO_USERNAME


class Command(BaseCommand):
    help = "Serve the site (uvicorn) with the play worker and the tasks' worker beside it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--reload", action="store_true", help="Restart the web server when code changes."
        )

    def handle(self, *args, host: str, port: int, reload: bool, **options) -> None:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "play_worker"], cwd=settings.BASE_DIR
        )
        tasks = subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--no-reload", "--verbosity", "0"],
            cwd=settings.BASE_DIR,
        )
        helpers = [worker, tasks]
        # A bot set up with no webhook hears its people by polling (docs/telegram.md).
        bot = settings.TELEGRAM_BOT_TOKEN and settings.TELEGRAM_BOT_USERNAME
        if bot and not settings.TELEGRAM_WEBHOOK_SECRET:
            helpers.append(
                subprocess.Popen(
                    [sys.executable, "manage.py", "telegram_poll"], cwd=settings.BASE_DIR
                )
            )
        # uvicorn stops on a SIGTERM, then raises it again with the handler it found: this
        # one, so that the helpers are stopped below rather than left running, orphaned.
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
        try:
            address = f"http://{host}:{port}"
            self.stdout.write(
                self.style.SUCCESS(
                    f"Serving on {address}/ — log in at {address}{reverse('account_login')} "
                    f"(demo account: {DEMO_USERNAME} / {DEMO_PASSWORD})"
                )
            )
            uvicorn.run(
                "config.asgi:application",
                host=host,
                port=port,
                reload=reload,
                reload_dirs=_code_dirs() if reload else None,
                log_level="info",
                lifespan="off",
                timeout_graceful_shutdown=2,
            )
        finally:
            for helper in helpers:
                helper.terminate()
            for helper in helpers:
                try:
                    helper.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    helper.kill()


def _exit_on_sigterm(signum, frame) -> None:
    raise SystemExit(128 + signum)


def _code_dirs() -> list[str]:
    """Where the site's code and templates are (for --reload): the project's own apps, the
    game package, the templates; not the virtualenv."""
    base = str(settings.BASE_DIR)
    apps_here = [app.path for app in django_apps.get_app_configs() if app.path.startswith(base)]
    return [*apps_here, str(settings.BASE_DIR / "cards101"), str(settings.BASE_DIR / "templates")]
