"""Receive what people write to the Telegram bot (/start <token>, /stop) by polling Telegram
(getUpdates), for a site with no public address a webhook could reach (docs/telegram.md).

    python manage.py telegram_poll [--once]

`manage.py serve` starts it when a bot is set up and no webhook secret is. It removes a
webhook that was set: Telegram gives updates one way at a time."""

from __future__ import annotations

import contextlib
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from telebot import apihelper

from notify.channels import TryLater, telegram
from play.management.commands.play_worker import DATABASE_ERRORS

# After the database failed (linking a chat writes to it), the next poll waits this long: the
# update is not acknowledged, so Telegram gives it again.
DATABASE_WAIT = 2.0


class Command(BaseCommand):
    help = "Poll Telegram for the bot's updates and answer them."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--once", action="store_true", help="One poll, then stop.")
        parser.add_argument(
            "--wait", type=int, default=25, help="Seconds each long poll waits for updates."
        )

    def handle(self, *args, once: bool, wait: int, **options) -> None:
        if not telegram.configured():
            raise CommandError(
                "Telegram is not set up: set DJANGO_TELEGRAM_BOT_TOKEN and "
                "DJANGO_TELEGRAM_BOT_USERNAME."
            )
        offset = None
        webhook_removed = False
        while True:
            try:
                if not webhook_removed:
                    telegram.call(apihelper.delete_webhook, timeout=settings.TELEGRAM_TIMEOUT)
                    webhook_removed = True
                offset = telegram.poll(offset, wait=wait)
            except telegram.DatabaseAway as away:
                offset = away.offset  # that update again, once the database is back
                if once:
                    raise CommandError(str(away)) from away
                self.stderr.write(f"Telegram: {away}; trying again")
                with contextlib.suppress(*DATABASE_ERRORS):
                    connection.close()
                time.sleep(DATABASE_WAIT)
            except TryLater as error:
                if once:
                    raise CommandError(str(error)) from error
                self.stderr.write(f"Telegram: {error}; trying again")
                time.sleep(error.after or 5)
            except DATABASE_ERRORS as error:
                if once:
                    raise
                self.stderr.write(f"Telegram: the database failed ({error!r}); trying again")
                with contextlib.suppress(*DATABASE_ERRORS):
                    connection.close()
                time.sleep(DATABASE_WAIT)
            if once:
                return
