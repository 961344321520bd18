"""Who is told what, on which channel: a person's switches, the notifications written for them
(the outbox) and each one's delivery on each channel; the channels' links to a person."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Kind(models.TextChoices):
    """What a notification is about (each switchable per person and channel)."""

    YOUR_MOVE = "your_move", _("Your move")
    YOUR_TABLE = "your_table", _("Your table")
    TO_CONFIRM = "to_confirm", _("A round to confirm")
    TO_DECIDE = "to_decide", _("A claim to decide, or yours decided")
    REMINDER = "reminder", _("Reminders")
    TEST = "test", _("Test message")


class Channel(models.TextChoices):
    EMAIL = "email", _("E-mail")
    TELEGRAM = "telegram", _("Telegram")
    PUSH = "push", _("Web push")


class Settings(models.Model):
    """A person's switches: for each kind, the channels it goes to (`switches`:
    {"your_move": ["email", "telegram"], ...}; a kind not listed goes to the defaults,
    notify.preferences), and their quiet hours (kept, then sent at their end, grouped)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_settings"
    )
    switches = models.JSONField(default=dict)
    quiet_from = models.TimeField(_("quiet from"), null=True, blank=True)
    quiet_until = models.TimeField(_("quiet until"), null=True, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)
    # The zone the person's browser last said it was in (at a login, a sign-up or a save of
    # the Notifications page): their messages' times and quiet hours follow it while they
    # chose none ("as in this browser").
    browser_time_zone = models.CharField(max_length=64, blank=True)
    # The language the person last used the site in (notify.middleware): messages are
    # written in it; "" before they came back, which means Russian (notify.preferences).
    language = models.CharField(max_length=10, blank=True)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return str(self.user)


class Notification(models.Model):
    """One thing to tell one person (the outbox), written in the transaction of its cause.
    `key` names the event ("table:12:move:40"): the same event is never written twice for a
    person."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=200)
    # What the message says, in no language yet: the sender renders it in the person's.
    payload = models.JSONField(default=dict)
    language = models.CharField(max_length=10, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_notification_an_event")
        ]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self) -> str:
        return f"{self.kind} → {self.user}"


class Delivery(models.Model):
    """A notification on one channel: sent at most once per attempt by a task
    (notify.services.deliveries), retried with backoff when the channel fails, given up after a
    limit (and shown on the person's page)."""

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("delivery", "waiting")
        # Taken by a task, which is sending it now (notify.services.deliveries).
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("given up")
        SKIPPED = "skipped", _("not sent")

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    # When it is to be sent (at once, when the person's quiet hours end, its next attempt's).
    due_at = models.DateTimeField(db_index=True)
    # The delivery whose task sent this one with it, in one message (several due together for
    # one person and channel); itself for the task's own.
    sent_with = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    sent_at = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["due_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "channel"], name="one_delivery_a_channel"
            )
        ]
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")

    def __str__(self) -> str:
        return f"{self.notification} ({self.channel}: {self.status})"


class TelegramLink(models.Model):
    """A Telegram chat a person's notifications go to, linked from their account page by a
    one-time deep link: a person may link several (each of their Telegram accounts' private
    chat with the bot), a chat is linked to one account."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="telegram_links"
    )
    chat = models.OneToOneField(
        "telegram.Chat", on_delete=models.CASCADE, related_name="notify_link"
    )
    linked_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("Telegram link")
        verbose_name_plural = _("Telegram links")

    def __str__(self) -> str:
        return f"{self.user} → {self.chat_id}"


class PushSubscription(models.Model):
    """A browser of a person's where the installed site may show a push."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=500, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user}: {self.endpoint[:40]}"


class TelegramToken(models.Model):
    """A one-time deep link's token (`t.me/<bot>?start=<token>`), kept as its SHA-256 only: it
    links the chat that sends it within its minutes to the person who asked for it, once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="telegram_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)
    # The page's language when it was asked for: the bot answers /start in it.
    language = models.CharField(max_length=10, blank=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("Telegram token")
        verbose_name_plural = _("Telegram tokens")

    def __str__(self) -> str:
        return f"{self.user} until {self.expires_at:%Y-%m-%d %H:%M}"
