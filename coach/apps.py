from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoachConfig(AppConfig):
    """The coach: every finished round of a played table reviewed by the worker
    (`cards101.analysis`), the review shown on the replay and at the match's end, practice
    from a person's own mistakes, and a panel on their profile. Built on `play` and `stats`,
    which never import it: it hears their signals."""

    name = "coach"
    verbose_name = _("Coach")

    def ready(self) -> None:
        from coach import receivers  # noqa: F401 - its receivers connect
