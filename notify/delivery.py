"""Sending what is due: each delivery taken by one worker, sent at most once, retried with
backoff when its channel fails for now, given up after a limit (docs/notifications.md says
why at most once, and what remains).

A pass (`send_due`) does three steps, each its own transaction:
1. claim: due deliveries are taken with `select_for_update(skip_locked=True)` (two workers
   never take the same) and marked SENDING, an attempt counted, under a lease (`due_at`), and
   committed before anything is sent;
2. send: outside any transaction, on the channel, rendered in the person's language;
3. settle: SENT, or back to PENDING with a backoff (TryLater), or FAILED (GiveUp, or the
   limit of attempts), only if it is still this worker's claim.
A worker killed between 1 and 3 leaves its deliveries SENDING; once their lease has run out
they are given up (`give_up_interrupted`), not sent again: the message may have left."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable

from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation

from notify import messages, preferences, queries
from notify.channels import CHANNELS, GiveUp, TryLater
from notify.links import absolute
from notify.models import Delivery, Notification

logger = logging.getLogger(__name__)

# Deliveries one pass takes at most (a pass runs every second).
BATCH = 50
# How long a claimed delivery is its worker's: far above any channel's send (SMTP's timeout
# is below it), so that a lease never runs out under a worker still sending.
LEASE = datetime.timedelta(minutes=5)
# The first retry after this; each next one twice as late, up to LONGEST_BACKOFF.
FIRST_BACKOFF = datetime.timedelta(seconds=30)
LONGEST_BACKOFF = datetime.timedelta(hours=1)
# Attempts before a delivery is given up (30 s, 1, 2, 4, 8, 16, 32 min...: about 2 hours).
MOST_ATTEMPTS = 8


def backoff(attempts: int, after: float | None = None) -> datetime.timedelta:
    """The wait before the next attempt, after `attempts` failed ones; at least the channel's
    own `after` (Telegram's retry_after)."""
    wait = min(FIRST_BACKOFF * 2 ** max(attempts - 1, 0), LONGEST_BACKOFF)
    if after is not None:
        wait = max(wait, datetime.timedelta(seconds=after))
    return wait


def send_due(now: datetime.datetime | None = None) -> int:
    """Send every delivery due by `now` (in batches); returns how many were sent."""
    now = now or timezone.now()
    give_up_interrupted(now)
    sent = 0
    while True:
        claimed = claim(now)
        if not claimed:
            return sent
        for group in _grouped(claimed):
            sent += _send(group, now)
        if len(claimed) < BATCH:
            return sent


def claim(now: datetime.datetime) -> list[Delivery]:
    """Take up to BATCH due deliveries for this worker (committed: SENDING, an attempt more,
    leased until now + LEASE)."""
    with transaction.atomic():
        taken = list(
            Delivery.objects.select_for_update(skip_locked=True)
            .filter(status=Delivery.Status.PENDING, due_at__lte=now)
            .order_by("due_at", "pk")[:BATCH]
        )
        if not taken:
            return []
        lease = now + LEASE
        Delivery.objects.filter(pk__in=[d.pk for d in taken]).update(
            status=Delivery.Status.SENDING, attempts=F("attempts") + 1, due_at=lease
        )
        for delivery in taken:
            delivery.status, delivery.attempts, delivery.due_at = (
                Delivery.Status.SENDING,
                delivery.attempts + 1,
                lease,
            )
    return list(
        Delivery.objects.filter(pk__in=[d.pk for d in taken], due_at=lease)
        .select_related("notification__user")
        .order_by("notification__created_at", "pk")
    )


def give_up_interrupted(now: datetime.datetime) -> int:
    """Deliveries whose worker stopped while sending them (their lease ran out): given up,
    not sent again, since the message may have left (at most once)."""
    with transaction.atomic():
        stale = list(
            Delivery.objects.select_for_update(skip_locked=True)
            .filter(status=Delivery.Status.SENDING, due_at__lt=now)
            .values_list("pk", flat=True)
        )
        return Delivery.objects.filter(pk__in=stale, status=Delivery.Status.SENDING).update(
            status=Delivery.Status.FAILED,
            error="interrupted while sending: it may not have arrived",
        )


def _grouped(claimed: Iterable[Delivery]) -> list[list[Delivery]]:
    """One message per person and channel: several due at once (kept by quiet hours) go
    together."""
    groups: dict[tuple[int, str], list[Delivery]] = {}
    for delivery in claimed:
        groups.setdefault((delivery.notification.user_id, delivery.channel), []).append(delivery)
    return list(groups.values())


def _send(group: list[Delivery], now: datetime.datetime) -> int:
    """Send one person's group on its channel and settle each of its deliveries (those whose
    cause was settled meanwhile are not sent)."""
    settled = queries.no_longer_wanted([delivery.notification for delivery in group])
    if settled:
        _settle(
            [d for d in group if d.notification_id in settled],
            status=Delivery.Status.SKIPPED,
            error="",
        )
        group = [d for d in group if d.notification_id not in settled]
        if not group:
            return 0
    first = group[0]
    notifications: list[Notification] = [d.notification for d in group]
    user = first.notification.user
    channel = CHANNELS.get(first.channel)
    try:
        if channel is None:
            raise GiveUp(f"no channel {first.channel!r} on this server")
        if not user.is_active or not channel.linked(user):
            raise GiveUp("the channel is no longer linked")
        prefs = preferences.settings_of(user)
        language = preferences.language_of(prefs)
        with translation.override(language), timezone.override(preferences.zone_of(prefs)):
            message = messages.render_group(notifications)
            channel.send(
                first.notification,
                title=message.title,
                text=message.text,
                url=absolute(message.path),
            )
    except TryLater as failed:
        _settle_failed(group, str(failed) or type(failed).__name__, now, after=failed.after)
        return 0
    except GiveUp as failed:
        _settle(group, status=Delivery.Status.FAILED, error=str(failed)[:300])
        return 0
    except Exception as failed:  # a channel's bug: retried like an outage, and logged
        logger.exception("notify: sending on %s failed", first.channel)
        _settle_failed(group, f"{type(failed).__name__}: {failed}", now)
        return 0
    _settle(group, status=Delivery.Status.SENT, sent_at=timezone.now(), error="")
    return len(group)


def _settle(group: list[Delivery], **fields) -> None:
    """Settle this worker's claims (only those still SENDING under its lease)."""
    with transaction.atomic():
        for delivery in group:
            Delivery.objects.filter(
                pk=delivery.pk, status=Delivery.Status.SENDING, due_at=delivery.due_at
            ).update(**fields)


def _settle_failed(
    group: list[Delivery], error: str, now: datetime.datetime, after: float | None = None
) -> None:
    with transaction.atomic():
        for delivery in group:
            mine = Delivery.objects.filter(
                pk=delivery.pk, status=Delivery.Status.SENDING, due_at=delivery.due_at
            )
            if delivery.attempts >= MOST_ATTEMPTS:
                mine.update(status=Delivery.Status.FAILED, error=error[:300])
            else:
                mine.update(
                    status=Delivery.Status.PENDING,
                    due_at=now + backoff(delivery.attempts, after),
                    error=error[:300],
                )
