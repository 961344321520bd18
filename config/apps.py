"""The site itself as an app, so that its deployment checks run with `check --deploy`."""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "config"
    verbose_name = "101"

    def ready(self) -> None:
        from config import checks  # noqa: F401  (registers the deployment checks)
