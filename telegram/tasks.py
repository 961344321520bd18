"""The bot's messages and answers as tasks (telegram.outbox writes them), and its periodic
forgetting. A message is sent at most once: a worker killed while sending leaves its task
failed (core.tasks.recover), not run again. Telegram away or pacing the bot: the task enqueues
its next attempt with `run_after`, with backoff, up to MOST_ATTEMPTS."""

from __future__ import annotations

import datetime
import logging
import time

from django.tasks import Task, task
from django.utils import timezone

from core.tasks import backoff, later, periodic, resumable, until_reachable
from telegram import bot, pace, services
from telegram.bot import Refused, Unavailable
from telegram.models import Post

logger = logging.getLogger(__name__)

FIRST_BACKOFF = datetime.timedelta(seconds=5)
LONGEST_BACKOFF = datetime.timedelta(minutes=10)
# A reply more than about an hour late is no answer any more.
MOST_ATTEMPTS = 8
# Updates are remembered two days (Telegram gives an update again for one), paces a minute.
KEEP_UPDATES = datetime.timedelta(days=2)


def _again(the_task: Task, attempt: int, error: Unavailable, *args) -> str:
    if attempt >= MOST_ATTEMPTS:
        logger.warning("Telegram: %s given up after %s attempts: %s", the_task.name, attempt, error)
        return "given up"
    wait = backoff(attempt, first=FIRST_BACKOFF, longest=LONGEST_BACKOFF, after=error.after)
    until_reachable(later, the_task, *args, attempt + 1, run_after=timezone.now() + wait)
    return "later"


@task
def send(chat_id: int, html: str, buttons: list | None = None, attempt: int = 1) -> str:
    """A message from the bot to `chat_id`."""
    if not bot.configured():
        return "no bot"
    try:
        pace.PACE.wait(chat_id)
        bot.from_settings().send_message(chat_id, html, buttons=buttons)
    except Unavailable as error:
        return _again(send, attempt, error, chat_id, html, buttons)
    except Refused as error:
        if error.migrate_to is not None:
            until_reachable(services.migrate, old_id=chat_id, new_id=error.migrate_to)
            until_reachable(later, send, error.migrate_to, html, buttons, attempt)
            return "moved"
        if error.chat_gone:
            until_reachable(services.close_chat, chat_id)
        logger.warning("Telegram: no message to chat %s: %s", chat_id, error)
        return "refused"
    return "sent"


@resumable
@task
def keep_post(post_id: int, attempt: int = 1) -> str:
    """Show the newest words of a post (telegram.outbox.post): sent the first time, edited
    after. Run again after a newer revision came while it sent, so that the last one shown is
    the newest, whichever of two workers sent last. Run again after its worker was killed
    (core.tasks.recover): a first sending in flight then may leave two messages, never none."""
    post = until_reachable(lambda: Post.objects.select_related("chat").filter(pk=post_id).first())
    if post is None or not bot.configured():
        return "gone"
    if post.shown >= post.revision and post.message_id is not None:
        return "current"
    chat_id = post.chat.chat_id
    the_bot = bot.from_settings()
    try:
        pace.PACE.wait(chat_id)
        if post.message_id is None:
            message_id = the_bot.send_message(chat_id, post.html, buttons=post.buttons)[
                "message_id"
            ]
        else:
            message_id = post.message_id
            the_bot.edit_message_text(chat_id, message_id, post.html, buttons=post.buttons)
    except Unavailable as error:
        if attempt >= MOST_ATTEMPTS and post.message_id is None:
            until_reachable(services.post_lost, post_id)
        return _again(keep_post, attempt, error, post_id)
    except Refused as error:
        if error.unchanged:
            message_id = post.message_id
        elif error.message_gone:
            until_reachable(services.post_gone, post_id)
            until_reachable(later, keep_post, post_id)
            return "sent anew"
        else:
            if error.migrate_to is not None:
                until_reachable(services.migrate, old_id=chat_id, new_id=error.migrate_to)
                until_reachable(services.post_gone, post_id)
                until_reachable(later, keep_post, post_id)
                return "moved"
            if error.chat_gone:
                until_reachable(services.close_chat, chat_id)
            until_reachable(services.post_lost, post_id)
            logger.warning("Telegram: post %s not shown: %s", post_id, error)
            return "refused"
    newest = until_reachable(
        services.post_shown, post_id, revision=post.revision, message_id=message_id
    )
    if newest > post.revision:
        until_reachable(later, keep_post, post_id)
        return "shown, and again"
    return "shown"


@task
def answer_tap(query_id: str, text: str = "") -> str:
    """The answer to a tap on a button. Telegram forgets a tap within seconds (the button's
    clock stops by itself): one that fails is not tried again."""
    try:
        bot.from_settings().answer_callback_query(query_id, text)
    except (Unavailable, Refused) as error:
        logger.info("Telegram: tap %s not answered: %s", query_id, error)
        return "not answered"
    return "answered"


@task
def answer_inline(query_id: str, results: list[dict]) -> str:
    try:
        bot.from_settings().answer_inline_query(query_id, results)
    except (Unavailable, Refused) as error:
        # An inline query not answered within seconds is gone: never tried again.
        logger.info("Telegram: inline query %s not answered: %s", query_id, error)
        return "not answered"
    return "answered"


@periodic(every=datetime.timedelta(hours=1))
def forget_old() -> int:
    """The updates taken over two days ago, the paces of chats whose moment is over, and the
    Mini App's initData used that would be too old to sign in now anyway."""
    now = timezone.now()
    return (
        services.forget_updates(before=now - KEEP_UPDATES)
        + pace.forget(before=time.time() - 60)
        + services.forget_used_init_data(before=now)
    )
