from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TelegramConfig(AppConfig):
    name = "telegram"
    verbose_name = _("Telegram")

    def ready(self) -> None:
        from telegram import tasks  # noqa: F401  (its periodic tasks)
