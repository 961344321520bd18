"""The site itself as an app, so that its deployment checks run with `check --deploy`."""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    # The one "config" means in INSTALLED_APPS (this module holds another).
    default = True
    name = "config"
    verbose_name = "101"

    def ready(self) -> None:
        from config import (
            checks,  # noqa: F401  (registers the deployment checks)
            telegram_start,  # noqa: F401  (the Mini App's links to score sheets)
        )


class TelegramLoginConfig(AppConfig):
    """allauth's Telegram provider (the Login Widget), under a label of its own: its default
    label, "telegram", is the telegram app's."""

    name = "allauth.socialaccount.providers.telegram"
    label = "allauth_telegram"
    verbose_name = "Telegram (allauth)"
