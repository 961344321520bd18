from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotifyConfig(AppConfig):
    """Telling people what waits for them when they are not looking at the page: by e-mail,
    Telegram (the telegram app's bot) and web push. Built on the apps it tells about, which
    never import it: it hears their signals."""

    name = "notify"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        from notify import (
            receivers,  # noqa: F401 - its receivers connect
            tasks,  # noqa: F401 - its periodic tasks are known (core.tasks.schedule)
            telegram_commands,  # noqa: F401 - the bot's commands (telegram.router)
        )

        # Each channel registers itself (notify.channels.CHANNELS), one import a line.
        from notify.channels import (
            email,  # noqa: F401
            push,  # noqa: F401
            telegram,  # noqa: F401
        )
