"""The core app: no models, no pages; listed in INSTALLED_APPS for its template tags."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
