"""The Telegram channel: messages through a bot on the Bot API (pyTelegramBotAPI's plain,
synchronous `apihelper`, as the worker is synchronous), within Telegram's rate limits, and the
bot's answers to /start <token> (linking a chat) and /stop (unlinking it). docs/telegram.md."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from html import escape
from typing import Any

import django.db
import requests
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from telebot import apihelper
from telebot.apihelper import ApiException, ApiHTTPException, ApiTelegramException
from telebot.types import LinkPreviewOptions

from core.outages import DATABASE_UNREACHABLE
from notify import telegram_links
from notify.channels import GiveUp, TryLater, register
from notify.links import absolute
from notify.models import Channel, TelegramLink

log = logging.getLogger(__name__)


def configured() -> bool:
    """The channel is on: a bot's token and its username (for the deep link) are set."""
    return bool(settings.TELEGRAM_BOT_TOKEN and settings.TELEGRAM_BOT_USERNAME)


def deep_link(token: str) -> str:
    """The link that opens the bot and sends it `/start <token>`."""
    return f"https://t.me/{settings.TELEGRAM_BOT_USERNAME}?start={token}"


class Pace:
    """Telegram's limits on a bot: about 30 messages a second in all and one a second to a
    chat. Each send takes the next free moment (a reservation, so threads never crowd one
    moment) and waits for it; a wait longer than `patience` is not waited but handed back
    to the worker as TryLater. One per process: several workers each keep 25 a second, so
    together they keep Telegram's budget only roughly (docs/telegram.md)."""

    def __init__(
        self,
        *,
        per_second: float = 25,
        per_chat: float = 1.0,
        patience: float = 3.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.gap = 1 / per_second
        self.per_chat = per_chat
        self.patience = patience
        self.clock = clock
        self.sleep = sleep
        self.lock = threading.Lock()
        self.next_free = 0.0
        self.next_free_for: dict[int, float] = {}

    def wait(self, chat_id: int) -> None:
        with self.lock:
            now = self.clock()
            at = max(now, self.next_free, self.next_free_for.get(chat_id, 0.0))
            if at - now > self.patience:
                raise TryLater("Telegram's rate limit", after=at - now)
            self.next_free = at + self.gap
            self.next_free_for[chat_id] = at + self.per_chat
            # Chats whose second is over need no memory.
            if len(self.next_free_for) > 1000:
                self.next_free_for = {c: t for c, t in self.next_free_for.items() if t > now}
        if at > now:
            self.sleep(at - now)


PACE = Pace()


def call(method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """A Bot API method of apihelper's, on the configured API address; what Telegram asks to
    retry (429 with its retry_after, its own 5xx, the network) is TryLater, an answer refusing
    the call is ApiTelegramException (its error_code: 400, 403...) for the caller to judge."""
    # apihelper keeps the address module-wide: set from the settings at each call.
    apihelper.API_URL = settings.TELEGRAM_API_URL + "/bot{0}/{1}"
    try:
        return method(settings.TELEGRAM_BOT_TOKEN, *args, **kwargs)
    except ApiTelegramException as error:
        if error.error_code == 429:
            after = (error.result_json.get("parameters") or {}).get("retry_after")
            raise TryLater(error.description, after=after) from error
        # 5xx: Telegram's trouble; 401/404: the bot's token refused, until it is set right.
        if error.error_code >= 500 or error.error_code in (401, 404):
            raise TryLater(f"Telegram: {error.description}") from error
        raise
    except ApiHTTPException as error:
        # An answer that is not the Bot API's JSON: a proxy's error page, Telegram down.
        raise TryLater(f"Telegram answered HTTP {error.result.status_code}") from error
    except (ApiException, requests.RequestException) as error:
        raise TryLater(f"Telegram unreachable: {type(error).__name__}") from error


def say(chat_id: int, html: str) -> None:
    """One message to a chat, within the pace, links shown without previews."""
    PACE.wait(chat_id)
    call(
        apihelper.send_message,
        chat_id,
        html,
        parse_mode="HTML",
        link_preview_options=LinkPreviewOptions(is_disabled=True),
        timeout=settings.TELEGRAM_TIMEOUT,
    )


class TelegramChannel:
    name = Channel.TELEGRAM.value
    panel_template = "notify/_telegram.html"

    def linked(self, user) -> bool:
        return configured() and TelegramLink.objects.filter(user=user).exists()

    def send(self, notification, *, title: str, text: str, url: str) -> None:
        if not configured():
            raise GiveUp("Telegram is not set up")
        chat_id = (
            TelegramLink.objects.filter(user_id=notification.user_id)
            .values_list("chat_id", flat=True)
            .first()
        )
        if chat_id is None:
            raise GiveUp("no Telegram chat linked")
        message = "\n\n".join(part for part in (f"<b>{escape(title)}</b>", escape(text)) if part)
        if url:
            message += f"\n\n{escape(url)}"
        try:
            say(chat_id, message)
        except ApiTelegramException as error:
            # 403: the person blocked the bot (or deleted the chat); 400 "chat not found": the
            # chat is gone. Either way nothing will reach it again: the link goes.
            if error.error_code == 403 or "chat not found" in error.description.lower():
                telegram_links.unlink_chat(chat_id=chat_id)
            raise GiveUp(f"Telegram: {error.description}") from error

    def panel_context(self, request: HttpRequest) -> dict:
        link = None
        if request.user.is_authenticated:
            link = TelegramLink.objects.filter(user=request.user).first()
        return {
            "telegram_configured": configured(),
            "telegram_link": link,
            "telegram_bot": settings.TELEGRAM_BOT_USERNAME,
            "telegram_next": request.get_full_path(),
        }


register(TelegramChannel())


# --- the bot's side: what people write to it ---------------------------------------------------


def answer(update: dict) -> None:
    """Answers one update (from the webhook or a poll): `/start <token>` links the chat to the
    token's account, `/stop` unlinks it; anything else in a private chat gets a word of help.
    A reply that fails is logged, not raised: the link is made either way, and Telegram must
    not send the update again."""
    said = _private_text(update)
    if said is None:
        return
    chat_id, text, language = said
    command, _space, argument = text.strip().partition(" ")
    command = command.split("@", 1)[0].lower()  # "/start@the_bot" in a chat with several bots
    if command == "/start" and argument.strip():
        used = telegram_links.link_chat(token=argument.strip(), chat_id=chat_id)
        if used is not None:
            _reply(chat_id, used.language or language, "linked")
        else:
            _reply(chat_id, language, "used")
    elif command == "/stop":
        _reply(
            chat_id,
            language,
            "unlinked" if telegram_links.unlink_chat(chat_id=chat_id) else "unknown",
        )
    else:
        _reply(chat_id, language, "help")


def _private_text(update: dict) -> tuple[int, str, str] | None:
    """(chat id, text, the sender's language or "") of a text message in a private chat; None
    for any other update, and for a shape Telegram never sends (a chat that is a string, an
    id that is not a number)."""
    message = update.get("message")
    if not isinstance(message, dict):
        return None
    chat, text, sender = message.get("chat"), message.get("text"), message.get("from")
    if not isinstance(chat, dict) or chat.get("type") != "private" or not isinstance(text, str):
        return None
    chat_id = chat.get("id")
    if not isinstance(chat_id, int) or isinstance(chat_id, bool):
        return None
    language = sender.get("language_code") if isinstance(sender, dict) else None
    return chat_id, text, language if isinstance(language, str) else ""


def _reply(chat_id: int, language: str, what: str) -> None:
    try:
        code = translation.get_supported_language_variant(language)
    except LookupError:
        code = settings.LANGUAGE_CODE
    with translation.override(code):
        words = {
            "linked": _(
                "Done: this chat is linked to your account on 101. Your notifications will "
                "come here. To unlink it, send /stop."
            ),
            "used": _(
                "This link has already been used or has expired. Take a new one on the "
                "Notifications page of your account."
            ),
            "unlinked": _(
                "This chat is unlinked: no more notifications will come here. To link it "
                "again, use the link on the Notifications page of your account."
            ),
            "unknown": _("This chat is not linked to any account."),
            "help": _(
                "This bot sends notifications from 101. To link this chat, open the link on "
                "the Notifications page of your account; to unlink it, send /stop."
            ),
        }[what]
        if what != "linked":
            # Where the Notifications page is: the site's address, said in the chat.
            words += "\n\n" + _("Your notifications on the site: %(link)s") % {
                "link": absolute(reverse("notify:settings"))
            }
    try:
        say(chat_id, escape(words))
    except (TryLater, ApiTelegramException) as error:
        log.warning("Telegram: no reply to chat %s: %s", chat_id, error)


def poll(offset: int | None, *, wait: int = 25) -> int | None:
    """One long poll of getUpdates (a machine with no public address: no webhook can reach
    it): answers each update and returns the offset to ask from next. An update whose answer
    fails is logged and passed over, so that one bad update never stops the others; but when
    the database fails, polling stops at that update (DatabaseAway), which Telegram gives
    again from its offset: a /start sent while the database restarts still links the chat."""
    updates = call(
        apihelper.get_updates,
        offset=offset,
        allowed_updates=["message"],
        timeout=settings.TELEGRAM_TIMEOUT,
        long_polling_timeout=wait,
    )
    for update in updates or []:
        try:
            answer(update)
        except (django.db.Error, *DATABASE_UNREACHABLE) as error:
            raise DatabaseAway(update["update_id"], error) from error
        except Exception:
            log.exception("Telegram: update %s not answered", update["update_id"])
        offset = update["update_id"] + 1
    return offset


class DatabaseAway(Exception):
    """The database failed answering an update: poll again from `offset`, its own."""

    def __init__(self, offset: int, error: Exception) -> None:
        super().__init__(f"the database failed at update {offset}: {error!r}")
        self.offset = offset
