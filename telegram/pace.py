"""Telegram's limits on a bot, kept by every process that sends: about 30 messages a second in
all, and one a second to a chat (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-
how-do-i-avoid-this). Each message takes the next free moment, reserved in the database
(`Pace`, locked: the budget row first, then the chat's) so that two workers never take the same
one, and waits for it; a wait longer than `patience` is not waited but handed back as
Unavailable, for the caller to try later. The database rather than Redis: every process that
sends has it, on one machine or many."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.db import transaction

from core.tasks import until_reachable
from telegram.bot import Unavailable
from telegram.models import Pace as Moment

ALL = 0  # the row of the bot's whole budget (no chat has id 0)


class Pace:
    def __init__(
        self,
        *,
        per_second: float = 25,
        per_chat: float = 1.0,
        patience: float = 3.0,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.gap = 1 / per_second
        self.per_chat = per_chat
        self.patience = patience
        self.clock = clock
        self.sleep = sleep

    def wait(self, chat_id: int) -> None:
        """Wait for the next moment a message may go to `chat_id`. The moment is taken once
        the database answers: no message is lost to an outage."""
        delay = until_reachable(self.reserve, chat_id)
        if delay > 0:
            self.sleep(delay)

    def reserve(self, chat_id: int) -> float:
        """Takes the next free moment for a message to `chat_id`, the seconds until it. Called
        outside a transaction (its own is short: the rows are locked while it is taken, not
        while the message goes)."""
        Moment.objects.bulk_create([Moment(key=ALL), Moment(key=chat_id)], ignore_conflicts=True)
        with transaction.atomic():
            budget = Moment.objects.select_for_update().get(key=ALL)
            chat = Moment.objects.select_for_update().get(key=chat_id)
            now = self.clock()
            at = max(now, budget.next_free, chat.next_free)
            if at - now > self.patience:
                raise Unavailable("Telegram's rate limit", after=at - now)
            budget.next_free = at + self.gap
            chat.next_free = at + self.per_chat
            Moment.objects.bulk_update([budget, chat], ["next_free"])
        return at - now


def forget(*, before: float) -> int:
    """Deletes the chats' rows whose moment is over (the budget's row stays)."""
    deleted, _ = Moment.objects.exclude(key=ALL).filter(next_free__lt=before).delete()
    return deleted


PACE = Pace()
