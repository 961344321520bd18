"""The writes of web push's subscriptions, each browser's address at its push service:
subscribed, renewed, unsubscribed, forgotten when its push service says it is gone (the
channel itself is notify.channels.push)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from notify.models import PushSubscription


def subscribe(*, user: AbstractBaseUser, subscription: dict[str, str]) -> PushSubscription:
    """This browser gets `user`'s pushes (a subscription checked by
    notify.channels.push.check_subscription). A browser where someone else subscribed before is now
    this person's: one browser, one person, the last to turn it on."""
    with transaction.atomic():
        found = (
            PushSubscription.objects.select_for_update()
            .filter(endpoint=subscription["endpoint"])
            .first()
        )
        if found is None:
            return PushSubscription.objects.create(user=user, **subscription)
        found.user = user
        found.p256dh = subscription["p256dh"]
        found.auth = subscription["auth"]
        found.save(update_fields=["user", "p256dh", "auth"])
        return found


def unsubscribe(*, user: AbstractBaseUser, endpoint: str | None = None) -> int:
    """`user`'s browser at `endpoint` gets no more pushes (every browser of theirs when
    `endpoint` is None); how many were turned off. Another person's browser is not touched."""
    with transaction.atomic():
        subscriptions = PushSubscription.objects.filter(user=user)
        if endpoint is not None:
            subscriptions = subscriptions.filter(endpoint=endpoint)
        deleted, _kinds = subscriptions.delete()
        return deleted


def renew(*, old_endpoint: str, subscription: dict[str, str]) -> PushSubscription | None:
    """A browser's push service changed its subscription (the service worker's
    `pushsubscriptionchange`): the new one replaces the old for the same person. The old
    endpoint, known only to the browser, its push service and the site, says whose it is;
    None when the site does not know it."""
    with transaction.atomic():
        old = PushSubscription.objects.select_for_update().filter(endpoint=old_endpoint).first()
        if old is None:
            return None
        user = old.user
        if subscription["endpoint"] != old_endpoint:
            old.delete()
        return subscribe(user=user, subscription=subscription)


def forget(subscription: PushSubscription) -> None:
    """A browser's subscription that can never be sent to again (its push service said it is
    gone, or its keys are not a browser's)."""
    PushSubscription.objects.filter(pk=subscription.pk).delete()
