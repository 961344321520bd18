"""The bot's router: each update, from the webhook or a poll, is read (telegram.updates), taken
once (by its update_id), noted (who sent it, which chat), and handed to what the apps above
registered for it: a command (`/name`, in the kinds of chat it is for), what people write to
the bot in a private chat otherwise, a tap on a button (by its data's prefix), an inline query.

All of it is one transaction: the update's id, what the handler writes and what the bot is to
say (telegram.outbox) are kept together or not at all. A handler's database failure is raised
(the webhook answers 503 and Telegram gives the update again; a poll stops at it); any other
failure is logged and the update counted as taken, so that one bad update never stops the
others."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

import django.db
from django.conf import settings
from django.db import transaction

from core.outages import DATABASE_UNREACHABLE
from telegram import outbox, services, updates
from telegram.models import Chat, Identity

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Heard:
    """An update as a handler gets it: the update, its chat and its sender as the bot knows
    them (None when it has none, or the sender is a bot), the sender's language ("" when
    Telegram gave none), and the command it is, if one."""

    update: updates.Update
    chat: Chat | None
    identity: Identity | None
    language: str
    command: updates.Command | None = None

    @property
    def message(self) -> updates.Message | None:
        return self.update.message

    def reply(self, html: str, *, buttons: list | None = None) -> None:
        """Says `html` in the chat the update came from."""
        if self.chat is not None:
            outbox.say(self.chat.chat_id, html, buttons=buttons)


Handler = Callable[[Heard], None]


@dataclass(frozen=True)
class Route:
    handler: Handler
    chats: frozenset[str]


COMMANDS: dict[str, list[Route]] = {}  # a name's routes, each for its kinds of chat
OTHERWISE: list[Handler] = []  # private words that are no command of the bot's
TAPS: dict[str, Handler] = {}  # callback data "<prefix>:..." → handler
INLINE: list[Handler] = []


def command(name: str, *, chats: tuple[str, ...] = (updates.PRIVATE,)) -> Callable:
    """Registers the handler of `/name` in the kinds of chat `chats` (private, group,
    supergroup). Two apps may answer one name in different kinds of chat (notify's /start in
    private, a club's /start <code> in a group); where both would, the first registered does."""

    def register(handler: Handler) -> Handler:
        routes = COMMANDS.setdefault(name.lower(), [])
        if all(route.handler is not handler for route in routes):
            routes.append(Route(handler, frozenset(chats)))
        return handler

    return register


def otherwise(handler: Handler) -> Handler:
    """Registers the handler of what people write to the bot in a private chat that is none of
    its commands."""
    OTHERWISE[:] = [handler]
    return handler


def tap(prefix: str) -> Callable:
    """Registers the handler of taps on buttons whose data starts with `prefix:`. The handler
    answers the tap (telegram.outbox.answer_tap); a tap no handler takes is answered empty."""

    def register(handler: Handler) -> Handler:
        TAPS[prefix] = handler
        return handler

    return register


def inline(handler: Handler) -> Handler:
    """Registers the handler of inline queries; without one they are answered empty."""
    INLINE[:] = [handler]
    return handler


def handle(data: object) -> str:
    """Takes one update (a decoded JSON body). Returns what became of it: "taken", "again"
    (taken before), or "unreadable" (a shape Telegram never sends: nothing done)."""
    update = updates.parse(data)
    if update is None:
        return "unreadable"
    try:
        with transaction.atomic():
            if not services.take(update.update_id):
                return "again"
            chat, identity = services.note(update)
            _dispatch(update, chat, identity)
    except (django.db.Error, *DATABASE_UNREACHABLE):
        raise
    except Exception:
        logger.exception("Telegram: update %s not answered", update.update_id)
        with transaction.atomic():
            services.take(update.update_id)
    return "taken"


def _dispatch(update: updates.Update, chat: Chat | None, identity: Identity | None) -> None:
    sender = update.sender
    language = sender.language_code if sender is not None else ""
    heard = Heard(update=update, chat=chat, identity=identity, language=language)
    message = update.message
    if message is not None and message.sender is not None and not message.sender.is_bot:
        said = message.command
        if said is not None and _for_this_bot(said):
            for route in COMMANDS.get(said.name, []):
                if message.chat.type in route.chats:
                    route.handler(replace(heard, command=said))
                    return
        if message.chat.private and message.text and OTHERWISE:
            OTHERWISE[0](heard)
        return
    if update.callback_query is not None:
        prefix = update.callback_query.data.partition(":")[0]
        handler = TAPS.get(prefix)
        if handler is not None:
            handler(heard)
        else:
            outbox.answer_tap(update.callback_query.id)
        return
    if update.inline_query is not None:
        if INLINE:
            INLINE[0](heard)
        else:
            outbox.answer_inline(update.inline_query.id, [])


def _for_this_bot(said: updates.Command) -> bool:
    """A command names this bot, or no bot (in a group with several bots, `/start@other_bot`
    is the other's)."""
    return not said.bot or said.bot.lower() == settings.TELEGRAM_BOT_USERNAME.lower()
