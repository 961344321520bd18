"""The play app: tables where 101 is played on the site, against people and bots."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = _("Play")

    def ready(self) -> None:
        from games import owners
        from games.models import Match
        from play import (
            signals,  # noqa: F401 - its receivers connect
            telegram_start,  # noqa: F401 - the Mini App's links to tables (telegram.start)
        )
        from play.owner import PlayedTables

        owners.register(Match.Kind.ONLINE, PlayedTables())
