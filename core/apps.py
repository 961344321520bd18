"""The core app: what every app uses (names, limits, versions, live events); its one model
carries live events between processes when there is no Redis (core/live.py)."""

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "core"
