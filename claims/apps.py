"""The claims app: guests becoming accounts, and what a player shows of themselves to visitors.
It builds on the games app, which never imports it: games asks through its signals."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClaimsConfig(AppConfig):
    name = "claims"
    verbose_name = _("Claims")

    def ready(self) -> None:
        from claims import receivers  # noqa: F401 - its receivers connect
