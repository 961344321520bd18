from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """Clubs and their seasons: a club's life from one night to the next. Built on `games` and
    `tournaments`, which never import it."""

    name = "clubs"
    verbose_name = _("Clubs and seasons")

    def ready(self) -> None:
        from clubs import signals  # noqa: F401 - its receivers connect
