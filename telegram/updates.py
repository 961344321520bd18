"""The Bot API's updates as types (https://core.telegram.org/bots/api#update), the part of them
the site reads: messages in private chats, groups and supergroups (with a group's migration to
a supergroup), callback queries, inline queries and the bot's own membership of a chat
(`my_chat_member`). `parse` reads a decoded JSON body strictly: a shape Telegram never sends (a
chat that is a string, an id that is not a whole number, a language that is not a string) is
None, never half an update. Pure: no Django."""

from __future__ import annotations

from typing import Annotated

import msgspec

# Telegram's ids fit in 64 bits (a chat's: 52); anything else is not Telegram's.
Id = Annotated[int, msgspec.Meta(ge=-(2**63), le=2**63 - 1)]

PRIVATE, GROUP, SUPERGROUP, CHANNEL = "private", "group", "supergroup", "channel"
GROUPS = frozenset({GROUP, SUPERGROUP})

# What the bot asks Telegram for (getUpdates, setWebhook).
ALLOWED = ("message", "callback_query", "inline_query", "my_chat_member")


class Struct(msgspec.Struct, frozen=True, forbid_unknown_fields=False):
    pass


class User(Struct):
    id: Id
    is_bot: bool = False
    first_name: str = ""
    last_name: str = ""
    username: str = ""
    language_code: str = ""

    @property
    def name(self) -> str:
        return " ".join(part for part in (self.first_name, self.last_name) if part)


class Chat(Struct):
    id: Id
    type: str
    title: str = ""
    username: str = ""
    first_name: str = ""
    last_name: str = ""

    @property
    def private(self) -> bool:
        return self.type == PRIVATE

    @property
    def group(self) -> bool:
        return self.type in GROUPS

    @property
    def name(self) -> str:
        if self.title:
            return self.title
        return " ".join(part for part in (self.first_name, self.last_name) if part)


class Command(Struct):
    """`/name@bot argument`: `bot` is "" when the command names no bot."""

    name: str
    bot: str
    argument: str


class Message(Struct):
    message_id: Id
    chat: Chat
    date: int = 0
    sender: User | None = msgspec.field(name="from", default=None)
    text: str = ""
    new_chat_members: tuple[User, ...] = ()
    left_chat_member: User | None = None
    # A group became a supergroup: said in the group (to) and in the supergroup (from).
    migrate_to_chat_id: Id | None = None
    migrate_from_chat_id: Id | None = None

    @property
    def command(self) -> Command | None:
        """The bot command the message starts with, if it does."""
        if not self.text.startswith("/"):
            return None
        head, _space, argument = self.text.partition(" ")
        name, _at, bot = head[1:].partition("@")
        if not name:
            return None
        return Command(name=name.lower(), bot=bot, argument=argument.strip())


class CallbackQuery(Struct):
    """A tap on a message's button. `message` is absent when the message is too old."""

    id: str
    sender: User = msgspec.field(name="from")
    message: Message | None = None
    data: str = ""
    chat_instance: str = ""


class InlineQuery(Struct):
    id: str
    sender: User = msgspec.field(name="from")
    query: str = ""
    offset: str = ""
    chat_type: str = ""


class ChatMember(Struct):
    user: User
    # creator, administrator, member, restricted, left, kicked.
    status: str

    @property
    def present(self) -> bool:
        return self.status in ("creator", "administrator", "member", "restricted")


class ChatMemberUpdated(Struct):
    chat: Chat
    sender: User = msgspec.field(name="from")
    date: int = 0
    old_chat_member: ChatMember | None = None
    new_chat_member: ChatMember | None = None


class Update(Struct):
    update_id: Id
    message: Message | None = None
    callback_query: CallbackQuery | None = None
    inline_query: InlineQuery | None = None
    my_chat_member: ChatMemberUpdated | None = None

    @property
    def sender(self) -> User | None:
        """Who caused the update."""
        for part in (self.message, self.callback_query, self.inline_query, self.my_chat_member):
            if part is not None:
                return part.sender
        return None

    @property
    def chat(self) -> Chat | None:
        """The chat it happened in (none for an inline query, or a tap on a message too old)."""
        if self.message is not None:
            return self.message.chat
        if self.callback_query is not None and self.callback_query.message is not None:
            return self.callback_query.message.chat
        if self.my_chat_member is not None:
            return self.my_chat_member.chat
        return None


def parse(data: object) -> Update | None:
    """The update in `data` (a decoded JSON body), or None for a shape Telegram never sends."""
    try:
        return msgspec.convert(data, Update, strict=True)
    except msgspec.ValidationError:
        return None
