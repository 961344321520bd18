"""The games app: players, matches and the score sheet."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games import signals  # noqa: F401  (connects the sign-up handler)
