"""What the bot knows of Telegram: the people who wrote to it (by their Telegram user id, and
the account each is linked to), the chats it is in, who it has seen in each, the updates it has
taken (so that one given twice is taken once), and the pace of its messages, shared by every
process that sends."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Identity(models.Model):
    """A Telegram user (a person: bots are not kept), known by their Telegram user id, which
    never changes; their names and language as their last update gave them; `user`: the
    account on the site they proved is theirs (linking from the account page)."""

    telegram_id = models.BigIntegerField(unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="telegram_identity",
    )
    first_name = models.CharField(max_length=128, blank=True)
    last_name = models.CharField(max_length=128, blank=True)
    username = models.CharField(max_length=64, blank=True)
    language_code = models.CharField(max_length=16, blank=True)
    seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("Telegram identity")
        verbose_name_plural = _("Telegram identities")

    def __str__(self) -> str:
        return f"{self.telegram_id} {self.first_name}".strip()


class Chat(models.Model):
    """A chat the bot is or was in: a person's private chat with it (its id is the person's
    Telegram id), a group or a supergroup. A group that becomes a supergroup keeps its row
    under the new id, and so everything tied to it."""

    class Kind(models.TextChoices):
        PRIVATE = "private", _("private chat")
        GROUP = "group", _("group")
        SUPERGROUP = "supergroup", _("supergroup")
        CHANNEL = "channel", _("channel")

    chat_id = models.BigIntegerField(unique=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    title = models.CharField(max_length=256, blank=True)
    # False once the bot was blocked, removed from the group, or the chat is gone.
    bot_is_member = models.BooleanField(default=True)
    seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("Telegram chat")
        verbose_name_plural = _("Telegram chats")

    def __str__(self) -> str:
        return f"{self.chat_id} {self.title}".strip()


class Member(models.Model):
    """A person the bot has seen in a group (they wrote, or joined), until it sees them leave:
    an account's several chats."""

    chat = models.ForeignKey(Chat, on_delete=models.CASCADE, related_name="members")
    identity = models.ForeignKey(Identity, on_delete=models.CASCADE, related_name="chats")
    seen_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["chat", "identity"], name="telegram_member_once")
        ]

    def __str__(self) -> str:
        return f"{self.identity_id} in {self.chat_id}"


class TakenUpdate(models.Model):
    """An update taken (its effects written in the same transaction): Telegram gives an update
    again when it saw no answer, and a poll after a restart may give it again; it is taken
    once. Kept for two days (Telegram keeps an update for one)."""

    update_id = models.BigIntegerField(primary_key=True)
    taken_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return str(self.update_id)


class Pace(models.Model):
    """The next moment (Unix time) the bot may send: `key` 0 for all its messages, a chat's id
    for that chat. One row each, locked while a message takes its moment: every process that
    sends keeps the same budget (telegram.pace)."""

    key = models.BigIntegerField(primary_key=True)
    next_free = models.FloatField(default=0)

    def __str__(self) -> str:
        return f"{self.key}: {self.next_free}"


class Post(models.Model):
    """A message the bot keeps up to date by editing it (a table's journal, a round's seating
    in a club's chat): found by its `key` in its chat, its newest words (`revision` moves with
    each), and what Telegram shows (`shown`: the revision sent last; `message_id` once sent).
    `lost`: its first sending was given up, so the next revision sends it anew."""

    chat = models.ForeignKey(Chat, on_delete=models.CASCADE, related_name="posts")
    key = models.CharField(max_length=100)
    html = models.TextField()
    buttons = models.JSONField(default=list, blank=True)
    revision = models.PositiveIntegerField(default=1)
    shown = models.PositiveIntegerField(default=0)
    message_id = models.BigIntegerField(null=True, blank=True)
    lost = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["chat", "key"], name="one_post_a_key")]

    def __str__(self) -> str:
        return f"{self.chat_id}/{self.key} r{self.revision}"


class UsedInitData(models.Model):
    """A Mini App's initData that signed someone in, by its signature: each is used once, so
    that one seen by someone else (a shared screen, a log) signs nobody in again. Kept until
    it would be too old to be accepted anyway (telegram.tasks.forget_old)."""

    signature = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.signature[:12]
