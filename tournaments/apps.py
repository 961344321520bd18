"""The tournaments app: club evenings of several rounds at tables of three and four."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games import owners
        from games.models import Match
        from tournaments import signals  # noqa: F401 - its receivers connect
        from tournaments.owner import TournamentTables

        owners.register(Match.Kind.TOURNAMENT, TournamentTables())
