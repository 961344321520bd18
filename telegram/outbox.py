"""What the bot says: each message a task (telegram.tasks), written in the transaction of its
cause (the task's row is the outbox), sent by the tasks' worker within Telegram's pace, so
that no request and no table waits on Telegram."""

from __future__ import annotations

from core.tasks import later
from telegram import tasks


def say(chat_id: int, html: str, *, buttons: list | None = None) -> None:
    """The bot says `html` (Telegram's HTML) in the chat; `buttons`: rows of inline buttons."""
    later(tasks.send, chat_id, html, buttons)


def answer_tap(query_id: str, text: str = "") -> None:
    """The answer to a tap on a button: Telegram shows `text` briefly, or just stops the
    button's clock."""
    later(tasks.answer_tap, query_id, text)


def answer_inline(query_id: str, results: list[dict]) -> None:
    """The results of an inline query (`@bot words` typed in any chat)."""
    later(tasks.answer_inline, query_id, results)
