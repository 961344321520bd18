"""The bot's commands in a group (on telegram's router): `/club <code>` links the group to the
club whose director asked for the code, as does the link that adds the bot to a group (it
sends `/start <code>` there)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

from chats import services
from telegram import router, updates
from telegram.router import Heard


@router.command("club", chats=tuple(updates.GROUPS))
@router.command("start", chats=tuple(updates.GROUPS))
def club(heard: Heard) -> None:
    code = heard.command.argument.strip() if heard.command is not None else ""
    linked = services.link(code=code, chat=heard.chat) if code and heard.chat else None
    language = linked.language if linked is not None else heard.language
    with translation.override(language if language in ("ru", "en") else "ru"):
        html = render_to_string(
            "chats/linked.html", {"linked": linked, "asked": bool(code), "chat": heard.chat}
        )
    heard.reply(html.strip())
