"""Sending a delivery: a task of Django's framework (`deliver`, core.tasks), enqueued in the
transaction that writes the delivery (services.tell), run by `manage.py db_worker`; sent at
most once per attempt, retried with backoff when its channel fails for now (the task enqueues
its next attempt with `run_after`), given up after a limit (docs/notifications.md).

A run of `deliver(pk, attempt)` does two steps:
1. take (one transaction, under the delivery's row lock): the delivery, if it still waits for
   this attempt, with the person's others on the same channel that are due too (kept by quiet
   hours: one message), is rendered in the person's language and marked SENDING, the attempt
   counted, and committed before anything is sent;
2. send, outside any transaction, then settle: SENT; or back to PENDING with a backoff and a
   task for the next attempt (TryLater); or FAILED (GiveUp, or the limit of attempts). The
   settling is made once the database answers, however long it is away: what was sent is
   recorded as sent.
A run that finds its delivery taken already (by another's group, or settled) does nothing. A
worker killed between 1 and 2 leaves its delivery SENDING, and the task running; when the
worker starts again the task runs again (core.tasks.recover) and gives the delivery up as
"interrupted": the message may have left, and is not sent again. Only that message, the one
in flight, is ever in doubt. An outage of the database during step 1 is waited out and the
step made again (what it had marked, if the mark was kept, is still this run's to send)."""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.utils import timezone, translation

from core import tasks
from core.tasks import later, resumable, until_reachable
from notify import messages, preferences, queries
from notify.channels import CHANNELS, GiveUp, TryLater
from notify.links import absolute
from notify.models import Delivery

logger = logging.getLogger(__name__)

# The first retry after this; each next one twice as late, up to LONGEST_BACKOFF.
FIRST_BACKOFF = datetime.timedelta(seconds=30)
LONGEST_BACKOFF = datetime.timedelta(hours=1)
# Attempts before a delivery is given up (30 s, 1, 2, 4, 8, 16, 32 min...: about 2 hours).
MOST_ATTEMPTS = 8
INTERRUPTED = "interrupted while sending: it may not have arrived"


def backoff(attempts: int, after: float | None = None) -> datetime.timedelta:
    """The wait before the next attempt, after `attempts` failed ones; at least the channel's
    own `after` (Telegram's retry_after)."""
    return tasks.backoff(attempts, first=FIRST_BACKOFF, longest=LONGEST_BACKOFF, after=after)


def enqueue(deliveries: list[Delivery]) -> None:
    """The first attempt of each of `deliveries` (just written), in the caller's transaction."""
    for delivery in deliveries:
        later(deliver, delivery.pk, 1, run_after=delivery.due_at)


@resumable
@task
def deliver(delivery_id: int, attempt: int) -> str:
    """Send delivery `delivery_id` (with the person's others due on its channel), attempt
    `attempt`. Returns what became of it."""
    return _deliver(delivery_id, attempt)


@dataclass
class Taken:
    """A delivery's group marked SENDING, and its message."""

    group: list[Delivery]
    channel: object
    title: str
    text: str
    url: str


def _deliver(delivery_id: int, attempt: int) -> str:
    tries: list[int] = []

    def take() -> Taken | str:
        # Tried again after an outage: a mark that did commit is this run's own (nothing was
        # sent yet), not a stopped worker's.
        tries.append(1)
        return _take(delivery_id, attempt, ours=len(tries) > 1)

    taken = until_reachable(take)
    if isinstance(taken, str):
        return taken
    first = taken.group[0]
    try:
        taken.channel.send(first.notification, title=taken.title, text=taken.text, url=taken.url)
    except TryLater as failed:
        until_reachable(_settle_failed, taken.group, str(failed) or "TryLater", after=failed.after)
        return "retried"
    except GiveUp as failed:
        until_reachable(_settle, taken.group, status=Delivery.Status.FAILED, error=str(failed))
        return "given up"
    except Exception as failed:  # a channel's bug: retried like an outage, and logged
        logger.exception("notify: sending on %s failed", first.channel)
        until_reachable(_settle_failed, taken.group, f"{type(failed).__name__}: {failed}")
        return "retried"
    until_reachable(
        _settle, taken.group, status=Delivery.Status.SENT, sent_at=timezone.now(), error=""
    )
    return "sent"


def _take(delivery_id: int, attempt: int, *, ours: bool = False) -> Taken | str:
    """Step 1: the delivery's group, rendered and marked SENDING (committed), or what became
    of it instead. `ours`: this run marked it already, and the outage that followed hid
    whether the mark was kept (if it was, the group is this run's, not yet sent)."""
    now = timezone.now()
    whose = Delivery.objects.filter(pk=delivery_id).values("notification__user_id", "channel")
    whose = whose.first()
    if whose is None:
        return "gone"
    with transaction.atomic():
        # The person's deliveries on this channel that may go together, locked in one order
        # (by pk) by every run: two runs for one person never split a group between them, nor
        # wait for each other in a circle; the second finds the first's group taken.
        rows = {
            row.pk: row
            for row in _locked().filter(
                Q(pk=delivery_id)
                | Q(
                    notification__user_id=whose["notification__user_id"],
                    channel=whose["channel"],
                    status=Delivery.Status.PENDING,
                    due_at__lte=now,
                )
            )
        }
        delivery = rows.pop(delivery_id, None)
        if delivery is None:
            return "gone"
        marked = (
            delivery.status == Delivery.Status.SENDING
            and delivery.attempts == attempt
            and delivery.sent_with_id == delivery.pk
        )
        if marked and ours:
            group = list(_locked().filter(sent_with=delivery, status=Delivery.Status.SENDING))
            return _rendered_or_given_up(group)
        if marked:
            # This very run was sending it (with its group) when its worker stopped: it runs
            # again (core.tasks.recover). A delivery sent with another's group is left to it.
            Delivery.objects.filter(sent_with=delivery, status=Delivery.Status.SENDING).update(
                status=Delivery.Status.FAILED, error=INTERRUPTED
            )
            return "interrupted"
        if delivery.status != Delivery.Status.PENDING or delivery.attempts != attempt - 1:
            return "taken"  # sent with another's group, settled, or a later attempt's
        group = [delivery, *rows.values()]
        settled = queries.no_longer_wanted([member.notification for member in group])
        if settled:
            Delivery.objects.filter(
                pk__in=[member.pk for member in group if member.notification_id in settled]
            ).update(status=Delivery.Status.SKIPPED, error="")
            group = [member for member in group if member.notification_id not in settled]
            if not group:
                return "skipped"
        taken = _rendered_or_given_up(group)
        if isinstance(taken, str):
            return taken
        for member in group:
            member.attempts += 1
            member.status = Delivery.Status.SENDING
            member.sent_with = delivery  # this run's own: its rerun finds the group by it
        Delivery.objects.bulk_update(group, ["attempts", "status", "sent_with"])
    return taken


def _locked():
    """Deliveries with their notification and person, the deliveries' rows locked (only
    theirs: not the person's row), in the order of their pk."""
    return (
        Delivery.objects.select_for_update(of=("self",))
        .select_related("notification__user")
        .order_by("pk")
    )


def _rendered_or_given_up(group: list[Delivery]) -> Taken | str:
    """The group's message, or "given up" (marked so) when it cannot be sent."""
    taken = _rendered(group)
    if isinstance(taken, str):
        Delivery.objects.filter(pk__in=[member.pk for member in group]).update(
            status=Delivery.Status.FAILED, error=taken[:300]
        )
        return "given up"
    return taken


def _rendered(group: list[Delivery]) -> Taken | str:
    """The group's one message in the person's language and zone, or why it cannot be sent."""
    first = group[0]
    user = first.notification.user
    channel = CHANNELS.get(first.channel)
    if channel is None:
        return f"no channel {first.channel!r} on this server"
    if not user.is_active or not channel.linked(user):
        return "the channel is no longer linked"
    prefs = preferences.settings_of(user)
    group.sort(key=lambda member: (member.notification.created_at, member.pk))
    language, zone = preferences.language_of(prefs), preferences.zone_of(prefs)
    with translation.override(language), timezone.override(zone):
        message = messages.render_group([member.notification for member in group])
    return Taken(group, channel, message.title, message.text, absolute(message.path))


def _settle(group: list[Delivery], **fields) -> None:
    """Step 2: the group's end (only what is still SENDING: nothing else settles it)."""
    if "error" in fields:
        fields["error"] = fields["error"][:300]
    with transaction.atomic():
        Delivery.objects.filter(
            pk__in=[member.pk for member in group], status=Delivery.Status.SENDING
        ).update(**fields)


def _settle_failed(group: list[Delivery], error: str, after: float | None = None) -> None:
    """Step 2 when the channel failed for now: each delivery waits for its next attempt (a
    task enqueued with it), or is given up at the limit."""
    now = timezone.now()
    with transaction.atomic():
        for member in group:
            mine = Delivery.objects.filter(pk=member.pk, status=Delivery.Status.SENDING)
            if member.attempts >= MOST_ATTEMPTS:
                mine.update(status=Delivery.Status.FAILED, error=error[:300])
                continue
            due = now + backoff(member.attempts, after)
            if mine.update(status=Delivery.Status.PENDING, due_at=due, error=error[:300]):
                later(deliver, member.pk, member.attempts + 1, run_after=due)


def requeue_lost(due_before: datetime.datetime) -> int:
    """A task for each delivery still waiting since before `due_before` (a backend outside the
    database enqueues once the transaction commits: a process stopped between the two leaves a
    delivery with no task). A second task for a delivery that has one does nothing (its
    attempt is taken by the first). Returns how many were queued."""
    lost = Delivery.objects.filter(
        status=Delivery.Status.PENDING, due_at__lt=due_before
    ).values_list("pk", "attempts")
    for pk, attempts in lost:
        later(deliver, pk, attempts + 1)
    return len(lost)
