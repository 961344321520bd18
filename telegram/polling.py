"""Hearing the bot's updates by polling Telegram (getUpdates), for a site with no public
address a webhook could reach: each poll takes the updates it is given (telegram.router) and
asks next from the one after the last taken. When the database fails taking one, polling stops
at that update (DatabaseAway) and asks from it again: Telegram gives it again, so a /start sent
while the database restarts still links the chat."""

from __future__ import annotations

import django.db

from core.outages import DATABASE_UNREACHABLE
from telegram import router, updates
from telegram.bot import Bot


class DatabaseAway(Exception):
    """The database failed taking an update: poll again from `offset`, its own."""

    def __init__(self, offset: int, error: Exception) -> None:
        super().__init__(f"the database failed at update {offset}: {error!r}")
        self.offset = offset


def poll(bot: Bot, offset: int | None, *, wait: int = 25) -> int | None:
    """One long poll: takes each update given, and returns the offset to ask from next."""
    for data in bot.get_updates(offset, wait=wait, allowed=updates.ALLOWED):
        update_id = data.get("update_id") if isinstance(data, dict) else None
        if not isinstance(update_id, int) or isinstance(update_id, bool):
            continue  # not Telegram's: nothing to take, nothing to count from
        try:
            router.handle(data)
        except (django.db.Error, *DATABASE_UNREACHABLE) as error:
            raise DatabaseAway(update_id, error) from error
        offset = update_id + 1
    return offset
