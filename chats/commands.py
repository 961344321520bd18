"""The bot's commands in a group (on telegram's router): `/club <code>` links the group to the
club whose director asked for the code, as does the link that adds the bot to a group (it
sends `/start <code>` there); `/play` opens a table of the group, and its buttons (`join:`,
`start:`) seat people and deal."""

from __future__ import annotations

import functools

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from chats import services
from chats.models import GroupTable
from telegram import outbox, router, updates
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


@router.command("play", chats=tuple(updates.GROUPS))
def play_here(heard: Heard) -> None:
    """`/play`: a table of this group, to join with a button."""
    person = heard.update.sender
    if heard.chat is None or person is None:
        return
    language = heard.language if heard.language in ("ru", "en") else "ru"
    services.open_table(chat=heard.chat, person=person, language=language)


@router.command("score", chats=tuple(updates.GROUPS))
def score_here(heard: Heard) -> None:
    """`/score`: a score sheet of real cards for the people at the table, joined by a button."""
    person = heard.update.sender
    if heard.chat is None or person is None:
        return
    language = heard.language if heard.language in ("ru", "en") else "ru"
    services.open_table(
        chat=heard.chat, person=person, language=language, kind=GroupTable.Kind.SCORE
    )


def _tap(heard: Heard, act, rest: str | None = None) -> None:
    query = heard.update.callback_query
    rest = query.data.partition(":")[2] if rest is None else rest
    language = heard.language if heard.language in ("ru", "en") else "ru"
    with translation.override(language):
        if heard.chat is None or not rest.isdigit():
            outbox.answer_tap(query.id, _("This button is no longer in use."))
            return
        try:
            act(group_table_id=int(rest), chat=heard.chat, person=query.sender)
        except services.TapRefused as refused:
            outbox.answer_tap(query.id, str(refused))
            return
        outbox.answer_tap(query.id)


@router.tap("join")
def join_tap(heard: Heard) -> None:
    _tap(heard, services.join_table)


@router.tap("start")
def start_tap(heard: Heard) -> None:
    _tap(heard, services.start_table)


@router.tap("confirm")
def confirm_tap(heard: Heard) -> None:
    """`confirm:<table>:<round>`: a round of the group's sheet confirmed."""

    table_part, _sep, round_part = heard.update.callback_query.data.partition(":")[2].partition(":")
    round_id = int(round_part) if round_part.isdigit() else 0
    _tap(heard, functools.partial(services.confirm_in_chat, round_id=round_id), rest=table_part)
