"""The stats app: player profiles, ratings, leaderboards and head-to-head, read from the
finished matches of the games app (which never imports this one)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = _("Statistics")

    def ready(self) -> None:
        from django.urls import reverse

        from games import extensions
        from stats import signals  # noqa: F401  (connects the ratings to results_changed)
        from stats.panels import match_panel

        extensions.register_player_page(lambda pk: reverse("stats:profile", args=[pk]))
        extensions.register_match_panel(match_panel)
