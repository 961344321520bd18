"""Hear the bot's updates by polling Telegram (getUpdates), for a site with no public address a
webhook could reach (docs/telegram.md).

    python manage.py telegram_poll [--once]

`manage.py serve` starts it when a bot is set up and no webhook secret is. It removes a
webhook that was set: Telegram gives updates one way at a time."""

from __future__ import annotations

import contextlib
import time

import django.db
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from core.outages import DATABASE_UNREACHABLE
from telegram import bot, polling
from telegram.bot import Refused, Unavailable

DATABASE_ERRORS = (django.db.Error, *DATABASE_UNREACHABLE)
# After the database failed (taking an update writes to it), the next poll waits this long:
# the update is not acknowledged, so Telegram gives it again.
DATABASE_WAIT = 2.0


class Command(BaseCommand):
    help = "Poll Telegram for the bot's updates and take them."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--once", action="store_true", help="One poll, then stop.")
        parser.add_argument(
            "--wait", type=int, default=25, help="Seconds each long poll waits for updates."
        )

    def handle(self, *args, once: bool, wait: int, **options) -> None:
        if not bot.configured():
            raise CommandError(
                "Telegram is not set up: set DJANGO_TELEGRAM_BOT_TOKEN and "
                "DJANGO_TELEGRAM_BOT_USERNAME."
            )
        the_bot = bot.from_settings()
        offset = None
        webhook_removed = False
        while True:
            try:
                if not webhook_removed:
                    the_bot.delete_webhook()
                    webhook_removed = True
                offset = polling.poll(the_bot, offset, wait=wait)
            except polling.DatabaseAway as away:
                offset = away.offset  # that update again, once the database is back
                if once:
                    raise CommandError(str(away)) from away
                self.stderr.write(f"Telegram: {away}; trying again")
                self._wait_for_the_database()
            except (Unavailable, Refused) as error:
                if once:
                    raise CommandError(str(error)) from error
                self.stderr.write(f"Telegram: {error}; trying again")
                time.sleep(getattr(error, "after", None) or 5)
            except DATABASE_ERRORS as error:
                if once:
                    raise
                self.stderr.write(f"Telegram: the database failed ({error!r}); trying again")
                self._wait_for_the_database()
            if once:
                return

    def _wait_for_the_database(self) -> None:
        with contextlib.suppress(*DATABASE_ERRORS):
            connection.close()
        time.sleep(DATABASE_WAIT)
