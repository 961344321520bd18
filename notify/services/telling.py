"""Telling people: the outbox (`tell`, in the caller's transaction), a person's
switches, quiet hours and language, one-click unsubscribing, the test message; and the passes
the worker makes to find what no signal says (a move waiting for someone who is not looking,
the day of a tournament)."""

from __future__ import annotations

import datetime
import logging

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from cards101.engine import Move
from notify import kinds, preferences, queries, time_zones
from notify.channels import CHANNELS
from notify.models import Delivery, Kind, Notification, Settings
from notify.services import deliveries

logger = logging.getLogger(__name__)

# A move waits this long before the person to make it is looked for (a person at the table
# answers sooner); told within the worker's next pass.
MOVE_WAITS = datetime.timedelta(seconds=10)


def tell(*, user, told: kinds.Told) -> Notification | None:
    """Write that `user` is to be told `told` (one of the catalogue's, notify.kinds), with a
    delivery on each channel they chose for its kind and can be reached on, due at once or
    when their quiet hours end. In the caller's transaction (the outbox: written with its
    cause, or not at all). An event told already (its key) is left as it was (None)."""
    if user is None or not user.is_active:
        return None
    prefs = preferences.settings_of(user)
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction goes on
            notification = Notification.objects.create(
                user=user,
                kind=told.kind,
                key=told.key()[:200],
                payload=told.payload(),
                language=preferences.language_of(prefs),
            )
    except IntegrityError:
        return None  # told already: the same event is never told twice
    now = timezone.now()
    due = preferences.quiet_until(prefs, now) or now
    deliveries.enqueue(
        Delivery.objects.bulk_create(
            Delivery(notification=notification, channel=name, due_at=due)
            for name in preferences.channels_for(prefs, told.kind)
            if name in CHANNELS and CHANNELS[name].linked(user)
        )
    )
    return notification


def send_test(*, user) -> Notification:
    """A test message on every channel the person can be reached on, now (quiet hours or
    not: they asked for it)."""
    with transaction.atomic():
        count = Notification.objects.filter(user=user, kind=Kind.TEST).count()
        prefs = preferences.settings_of(user)
        told = kinds.TestMessage(number=count + 1, at=timezone.now().timestamp())
        notification = Notification.objects.create(
            user=user,
            kind=told.kind,
            key=told.key(),
            payload=told.payload(),
            language=preferences.language_of(prefs),
        )
        deliveries.enqueue(
            Delivery.objects.bulk_create(
                Delivery(notification=notification, channel=name, due_at=timezone.now())
                for name, channel in CHANNELS.items()
                if channel.linked(user) and channel.may_test(user)
            )
        )
    return notification


def _locked_settings(user) -> Settings:
    Settings.objects.get_or_create(user=user)
    return Settings.objects.select_for_update().get(user=user)


def save_settings(
    *,
    user,
    switches: dict[str, list[str]],
    quiet_from: datetime.time | None,
    quiet_until: datetime.time | None,
    time_zone: str,
) -> Settings:
    """The person's switches (every kind listed: {kind: [channels]}) and quiet hours."""
    with transaction.atomic():
        prefs = _locked_settings(user)
        prefs.switches = {kind: list(switches.get(kind, [])) for kind in preferences.SWITCHED}
        prefs.quiet_from, prefs.quiet_until = quiet_from, quiet_until
        prefs.time_zone = time_zone
        prefs.save()
    return prefs


def switch_off(*, user, kinds: list[str], channel: str) -> Settings:
    """`kinds` no longer go to `channel` (the e-mail's unsubscribe link)."""
    with transaction.atomic():
        prefs = _locked_settings(user)
        for kind in preferences.SWITCHED:
            chosen = preferences.channels_for(prefs, kind)
            if kind in kinds:
                chosen = [name for name in chosen if name != channel]
            prefs.switches[kind] = chosen
        prefs.save()
    return prefs


def remember_language(*, user, language: str) -> None:
    """The language the person now uses the site in: their messages are written in it."""
    with transaction.atomic():
        updated = Settings.objects.filter(user=user).update(language=language)
        if not updated:
            Settings.objects.get_or_create(user=user, defaults={"language": language})


def remember_browser_zone(*, user, name: str) -> None:
    """The zone the person's browser says it is in (notify.time_zones.COOKIE): their messages
    and quiet hours follow it while they chose none. A name that is no zone is not kept."""
    if not time_zones.is_zone(name):
        return
    with transaction.atomic():
        updated = Settings.objects.filter(user=user).update(browser_time_zone=name)
        if not updated:
            Settings.objects.get_or_create(user=user, defaults={"browser_time_zone": name})


# --- the worker's passes ---------------------------------------------------------------------


def tell_moves_waiting(now: datetime.datetime | None = None) -> int:
    """Tell each person whose move has waited MOVE_WAITS at a live table whose page they
    have not had open for a while (queries.moves_waiting); once per table until they move.
    Returns how many were told."""
    now = now or timezone.now()
    told = 0
    for user, move in queries.moves_waiting(now, waited=MOVE_WAITS):
        with transaction.atomic():
            if tell(user=user, told=move):
                told += 1
    return told


def tell_tournament_days(now: datetime.datetime | None = None) -> int:
    """On the day of a tournament, each registered account is reminded of it (once)."""
    now = now or timezone.now()
    told = 0
    for user, day in queries.tournaments_today(now):
        with transaction.atomic():
            if tell(user=user, told=day):
                told += 1
    return told


def remind_move_deadline(*, user, table_id: int, name: str, deadline: datetime.datetime) -> None:
    """Correspondence tables (wired by their part of issue 27): `user`'s time for a move at
    table `table_id` runs out at `deadline`. Once per table and deadline."""
    tell(
        user=user,
        told=kinds.Deadline(
            table_id=table_id,
            name=name,
            deadline=deadline.isoformat(),
            path=reverse("play:table", args=[table_id]),
        ),
    )


def tell_moved_for(
    *,
    user,
    table_id: int,
    name: str,
    started: datetime.datetime,
    number: int,
    move: Move,
    away: bool,
) -> Notification | None:
    """The site made move `number` at table `table_id` for `user`, whose time ran out (`away`:
    it goes on moving for them until they come back). Once per move."""
    return tell(
        user=user,
        told=kinds.StandIn(
            table_id=table_id,
            number=number,
            name=name,
            started=started.isoformat(),
            move=move.to_json(),
            away=away,
            path=reverse("play:table", args=[table_id]),
        ),
    )
