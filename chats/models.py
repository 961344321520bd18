"""A club's Telegram group (told when a night opens, each round's seating and the season's
table after a night), and the one-time codes that link one."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ClubChat(models.Model):
    """The Telegram group a club's directors linked: one a club, one club a group. Its
    messages are in `language`, the language of whoever linked it."""

    club = models.OneToOneField("clubs.Club", on_delete=models.CASCADE, related_name="chat")
    chat = models.OneToOneField("telegram.Chat", on_delete=models.CASCADE, related_name="club_chat")
    language = models.CharField(_("language"), max_length=8, default="ru")
    linked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    linked_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.club_id} → {self.chat_id}"


class ChatCode(models.Model):
    """A code a director asked for on the club's page, sent in the group as `/club <code>`
    (or by the link that adds the bot to a group): used once, within a day."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="chat_codes")
    code = models.CharField(max_length=32, unique=True)
    language = models.CharField(max_length=8, default="ru")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.club_id}: …{self.code[-4:]}"


class GroupTable(models.Model):
    """A table opened in a group: by `/play`, a table played on the site (`table`); by
    `/score`, a score sheet of real cards (`match`). People join with a button until the one
    who opened it starts it; then the group reads its journal (one message the bot keeps up
    to date)."""

    class Kind(models.TextChoices):
        PLAY = "play", _("played on the site")
        SCORE = "score", _("a score sheet")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    chat = models.ForeignKey("telegram.Chat", on_delete=models.CASCADE, related_name="tables")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PLAY)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    match = models.OneToOneField(
        "games.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="group_table",
    )
    table = models.OneToOneField(
        "play.PlayTable",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="group_table",
    )
    language = models.CharField(max_length=8, default="ru")
    # The turn the group was last told of (a move's number): one mention a turn.
    told_turn = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.chat_id}: {self.pk} {self.status}"


class GroupSeat(models.Model):
    """Someone who joined a group's table (their account, signed in by Telegram), in order."""

    group_table = models.ForeignKey(GroupTable, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    telegram_id = models.BigIntegerField()
    name = models.CharField(max_length=128)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["group_table", "user"], name="one_seat_a_person")
        ]

    def __str__(self) -> str:
        return f"{self.group_table_id}: {self.name}"
