from django.apps import AppConfig


class ChatsConfig(AppConfig):
    """101 in Telegram's group chats: a club's chat told of its nights (docs/telegram.md)."""

    name = "chats"
    verbose_name = "Group chats"

    def ready(self) -> None:
        from chats import commands, receivers, tables  # noqa: F401  (registered on import)
