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
