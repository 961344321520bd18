"""Linking a person's Telegram chat to their account and unlinking it (the writes of the
Telegram channel): a one-time token asked for on the account page, `/start <token>` sent from
the chat, `/stop` or a tap on the page to unlink."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from notify.models import TelegramLink, TelegramToken
from telegram import services as telegram_services
from telegram.models import Chat, Identity

# Long enough to open Telegram on another device and tap Start; short enough that a link
# seen over a shoulder is soon worth nothing.
TOKEN_LIFETIME = timedelta(minutes=15)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(*, user, language: str) -> str:
    """A fresh one-time token for `user` (their earlier ones stop working), to be sent back
    as /start <token>; only its digest is kept."""
    token = secrets.token_urlsafe(24)  # 32 characters of [A-Za-z0-9_-], as deep links allow
    with transaction.atomic():
        TelegramToken.objects.filter(Q(user=user) | Q(expires_at__lte=timezone.now())).delete()
        TelegramToken.objects.create(
            user=user,
            digest=_digest(token),
            language=language,
            expires_at=timezone.now() + TOKEN_LIFETIME,
        )
    return token


def link_chat(*, token: str, chat: Chat, identity: Identity | None) -> TelegramToken | None:
    """Links `chat` (a private chat, `identity`'s) to the account whose token it sent, and
    uses the token up; the chat's earlier account gives it way (a chat, one account), the
    account's other chats stay (a person with two Telegram accounts links both). The sender
    becomes the account's Telegram identity. The token used (its user, its language), or None
    for a token wrong, used or expired."""
    with transaction.atomic():
        used = (
            TelegramToken.objects.select_for_update()
            .select_related("user")
            .filter(digest=_digest(token))
            .first()
        )
        if used is None:
            return None
        used.delete()
        if used.expires_at <= timezone.now():
            return None
        TelegramLink.objects.update_or_create(chat=chat, defaults={"user": used.user})
        if identity is not None:
            telegram_services.claim(identity, used.user)
    return used


def unlink(*, user) -> bool:
    """The account's chats unlinked (the tap on the page); whether there were any."""
    deleted, _by_model = TelegramLink.objects.filter(user=user).delete()
    return deleted > 0


def unlink_chat(*, chat: Chat) -> bool:
    """The chat unlinked from its account (/stop, or the bot blocked); whether it was linked."""
    deleted, _by_model = TelegramLink.objects.filter(chat=chat).delete()
    return deleted > 0
