"""The telegram app's reads: an account's Telegram identity, and the chats the bot shares with
it (its private chat and the groups the bot has seen it in)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from telegram.models import Chat, Identity


def identity_of(user) -> Identity | None:
    """The Telegram identity `user` proved is theirs, if any."""
    return Identity.objects.filter(user=user).first()


def chats_of(user) -> QuerySet[Chat]:
    """The chats the bot is in with `user`: their private chat and their groups, by title."""
    identity = identity_of(user)
    if identity is None:
        return Chat.objects.none()
    return (
        Chat.objects.filter(bot_is_member=True)
        .filter(
            Q(chat_id=identity.telegram_id, kind=Chat.Kind.PRIVATE) | Q(members__identity=identity)
        )
        .distinct()
        .order_by("kind", "title", "chat_id")
    )
