"""The Telegram panel on a club's page (clubs.signals.club_panels), for whoever runs the club:
the group linked, or how to link one."""

from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string

from chats import queries
from clubs import rights
from telegram import bot


def club_panel(request, club, code: str = "") -> str:
    if not rights.runs(request.user, club):
        return ""
    context = {
        "club": club,
        "configured": bot.configured(),
        "club_chat": queries.chat_of_club(club.pk),
        "code": code,
        "bot_username": settings.TELEGRAM_BOT_USERNAME,
    }
    return render_to_string("chats/_club_panel.html", context, request=request)
