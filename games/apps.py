"""The games app: players, matches and the score sheet."""

from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _

from core.names import search_fold, sort_key


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from games import large_print, signals  # noqa: F401  (sign-up and login handlers)

        connection_created.connect(_add_name_functions)


def _add_name_functions(sender, connection, **kwargs) -> None:
    """SQLite's lower() folds only ASCII: names sort and are searched by the Python functions
    (games.models.NameKey, FoldedName)."""
    if connection.vendor == "sqlite":
        connection.connection.create_function("name_key", 1, sort_key, deterministic=True)
        connection.connection.create_function("name_fold", 1, search_fold, deterministic=True)
