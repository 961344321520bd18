"""What the bot answers for notify (registered with telegram.router): `/start <token>` in a
private chat links it to the token's account (and makes the sender that account's Telegram
identity), `/stop` unlinks it, other words get a word of help. Each answer is said in the
person's language: the page's, where the token was asked for, else their Telegram's."""

from __future__ import annotations

from html import escape

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from notify import services
from notify.links import absolute
from telegram import router
from telegram.router import Heard


@router.command("start")
def start(heard: Heard) -> None:
    token = heard.command.argument if heard.command is not None else ""
    if not token or heard.chat is None:
        _reply(heard, heard.language, "help")
        return
    used = services.link_chat(token=token, chat=heard.chat, identity=heard.identity)
    if used is not None:
        _reply(heard, used.language or heard.language, "linked")
    else:
        _reply(heard, heard.language, "used")


@router.command("stop")
def stop(heard: Heard) -> None:
    unlinked = heard.chat is not None and services.unlink_chat(chat=heard.chat)
    _reply(heard, heard.language, "unlinked" if unlinked else "unknown")


@router.otherwise
def help_(heard: Heard) -> None:
    _reply(heard, heard.language, "help")


def _reply(heard: Heard, language: str, what: str) -> None:
    try:
        code = translation.get_supported_language_variant(language)
    except LookupError:
        code = settings.LANGUAGE_CODE
    with translation.override(code):
        words = {
            "linked": _(
                "Done: this chat is linked to your account on 101. Your notifications will "
                "come here. To unlink it, send /stop."
            ),
            "used": _(
                "This link has already been used or has expired. Take a new one on the "
                "Notifications page of your account."
            ),
            "unlinked": _(
                "This chat is unlinked: no more notifications will come here. To link it "
                "again, use the link on the Notifications page of your account."
            ),
            "unknown": _("This chat is not linked to any account."),
            "help": _(
                "This bot sends notifications from 101. To link this chat, open the link on "
                "the Notifications page of your account; to unlink it, send /stop."
            ),
        }[what]
        if what != "linked":
            # Where the Notifications page is: the site's address, said in the chat.
            words += "\n\n" + _("Your notifications on the site: %(link)s") % {
                "link": absolute(reverse("notify:settings"))
            }
    heard.reply(escape(words))
