"""The Telegram channel: a person's notifications sent by the site's bot (telegram.bot, within
Telegram's pace kept by every worker: telegram.pace) to each chat they linked (notify's
TelegramLink). The bot's commands for linking are notify.telegram_commands. docs/telegram.md."""

from __future__ import annotations

from html import escape

from django.dispatch import receiver
from django.http import HttpRequest

from notify.channels import GiveUp, TryLater, register
from notify.models import Channel, TelegramLink
from notify.services import links
from telegram import bot, pace, signals
from telegram import services as telegram_services
from telegram.bot import Refused, Unavailable


def configured() -> bool:
    """The channel is on: the site has a bot."""
    return bot.configured()


def deep_link(token: str) -> str:
    """The link that opens the bot and sends it `/start <token>`."""
    return f"https://t.me/{bot.from_settings().username}?start={token}"


class TelegramChannel:
    name = Channel.TELEGRAM.value
    panel_template = "notify/_telegram.html"

    def linked(self, user) -> bool:
        return configured() and _links(user.pk).exists()

    def may_test(self, user) -> bool:
        return self.linked(user)

    def send(self, notification, *, title: str, text: str, url: str) -> None:
        """To each of the person's chats. A chat that fails after another got the message is
        passed over (the message arrived; trying again would send it twice); one that can
        never be written to again is unlinked."""
        if not configured():
            raise GiveUp("Telegram is not set up")
        chats = list(_links(notification.user_id).values_list("chat__chat_id", flat=True))
        if not chats:
            raise GiveUp("no Telegram chat linked")
        message = "\n\n".join(part for part in (f"<b>{escape(title)}</b>", escape(text)) if part)
        if url:
            message += f"\n\n{escape(url)}"
        the_bot = bot.from_settings()
        failures: list[TryLater | GiveUp] = []
        for chat_id in chats:
            try:
                _send(the_bot, chat_id, message)
            except (TryLater, GiveUp) as failure:
                failures.append(failure)
        if len(failures) == len(chats):
            # Reached none: try them again later if any may be reached then.
            raise next((f for f in failures if isinstance(f, TryLater)), failures[0])

    def panel_context(self, request: HttpRequest) -> dict:
        links = []
        if request.user.is_authenticated:
            links = list(_links(request.user.pk).select_related("chat").order_by("linked_at"))
        return {
            "telegram_configured": configured(),
            "telegram_link": links[0] if links else None,
            "telegram_links": links,
            "telegram_bot": bot.from_settings().username,
            "telegram_next": request.get_full_path(),
        }


def _links(user_id: int):
    return TelegramLink.objects.filter(user_id=user_id, chat__bot_is_member=True)


def _send(the_bot: bot.Bot, chat_id: int, message: str) -> None:
    try:
        pace.PACE.wait(chat_id)
        the_bot.send_message(chat_id, message)
    except Unavailable as error:
        raise TryLater(str(error), after=error.after) from error
    except Refused as error:
        if error.migrate_to is not None:
            # A group become a supergroup: the chat, and its link, follow it.
            telegram_services.migrate(old_id=chat_id, new_id=error.migrate_to)
            return _send(the_bot, error.migrate_to, message)
        if error.chat_gone:
            # Blocked, or the chat deleted: nothing will reach it again, the link goes
            # (chat_closed, below).
            telegram_services.close_chat(chat_id)
        raise GiveUp(f"Telegram: {error.description}") from error


@receiver(signals.chat_closed)
def _unlink_closed(sender, chat, **kwargs) -> None:
    """A chat the bot can no longer write to is linked to nobody."""
    links.unlink_chat(chat=chat)


register(TelegramChannel())
