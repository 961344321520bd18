"""What the bot says: each message a task (telegram.tasks), written in the transaction of its
cause (the task's row is the outbox), sent by the tasks' worker within Telegram's pace, so
that no request and no table waits on Telegram."""

from __future__ import annotations

from core.tasks import later
from telegram import services, tasks
from telegram.models import Chat


def say(chat_id: int, html: str, *, buttons: list | None = None) -> None:
    """The bot says `html` (Telegram's HTML) in the chat; `buttons`: rows of inline buttons."""
    later(tasks.send, chat_id, html, buttons)


def post(chat: Chat, key: str, html: str, *, buttons: list | None = None) -> None:
    """The chat's post `key` says `html` now: sent the first time, edited after (one message
    kept up to date, never a new one each time: a table's journal, a round's seating)."""
    revised = services.revise_post(chat=chat, key=key, html=html, buttons=buttons)
    if revised is not None:
        later(tasks.keep_post, revised.pk)


def answer_tap(query_id: str, text: str = "") -> None:
    """The answer to a tap on a button: Telegram shows `text` briefly, or just stops the
    button's clock."""
    later(tasks.answer_tap, query_id, text)


def answer_inline(query_id: str, results: list[dict]) -> None:
    """The results of an inline query (`@bot words` typed in any chat)."""
    later(tasks.answer_inline, query_id, results)
