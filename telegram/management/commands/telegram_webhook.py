"""Tell Telegram where to post the bot's updates (a site with a public HTTPS address), or stop
it (docs/telegram.md).

    python manage.py telegram_webhook https://101.example.org
    python manage.py telegram_webhook --delete

The webhook is /telegram/webhook/<DJANGO_TELEGRAM_WEBHOOK_SECRET>/, and Telegram sends the
same secret in a header that the site checks."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from telegram import bot, updates
from telegram.bot import Refused, Unavailable


class Command(BaseCommand):
    help = "Set (or delete) the Telegram bot's webhook."

    def add_arguments(self, parser) -> None:
        parser.add_argument("site", nargs="?", help="The site's public address, https://...")
        parser.add_argument("--delete", action="store_true", help="Remove the webhook.")

    def handle(self, *args, site: str | None, delete: bool, **options) -> None:
        if not bot.configured():
            raise CommandError(
                "Telegram is not set up: set DJANGO_TELEGRAM_BOT_TOKEN and "
                "DJANGO_TELEGRAM_BOT_USERNAME."
            )
        the_bot = bot.from_settings()
        try:
            if delete:
                the_bot.delete_webhook()
                self.stdout.write("The webhook is removed: poll with manage.py telegram_poll.")
                return
            secret = settings.TELEGRAM_WEBHOOK_SECRET
            if not secret:
                raise CommandError("Set DJANGO_TELEGRAM_WEBHOOK_SECRET first.")
            if not site or not site.startswith("https://"):
                raise CommandError("Give the site's public address: https://...")
            url = site.rstrip("/") + reverse("telegram:webhook", kwargs={"secret": secret})
            the_bot.set_webhook(url, secret=secret, allowed=updates.ALLOWED)
        except (Unavailable, Refused) as error:
            raise CommandError(f"Telegram refused: {error}") from error
        self.stdout.write(f"Telegram posts the bot's updates to {url.replace(secret, '…')}")
