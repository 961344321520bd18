"""Web push: the installed site shows a notification in a person's browsers (the service
worker's `push` handler, templates/games/sw.js), signed with the site's VAPID keys and
encrypted for each browser by pywebpush; and the check of a subscription a browser sends
(each browser's address at its push service), which notify.services.subscriptions keeps."""

from __future__ import annotations

import base64
import binascii
import json
from functools import cache
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.http import HttpRequest
from django.utils.translation import gettext as _
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from notify.channels import GiveUp, TryLater, register
from notify.models import Channel, Notification, PushSubscription
from notify.services import subscriptions as kept

# How long a push service keeps a message for a browser that is offline: a "your move" or
# "your table" is stale after half a day.
TIME_TO_LIVE = 12 * 60 * 60
# Seconds to wait for a push service to answer, so that the worker's loop goes on.
TIMEOUT = 10
# The push service's answers that mean the browser's subscription is gone for good.
GONE = {404, 410}


class PushError(Exception):
    """A subscription the site cannot keep, said so that a person understands."""


def configured() -> bool:
    """Whether the site has VAPID keys (settings DJANGO_VAPID_*): without them push is off."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


@cache
def _signer(private_key: str) -> Vapid:
    return Vapid.from_string(private_key=private_key)


def _decoded(value: object, *, size: int, what: str) -> str:
    """`value` if it is base64url for `size` bytes (as a browser's PushSubscription gives its
    keys), else PushError naming `what`."""
    if not isinstance(value, str) or not value:
        raise PushError(_("The subscription has no %(what)s key.") % {"what": what})
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size:
        raise PushError(
            _("The subscription's %(what)s key is not a key a browser makes.") % {"what": what}
        )
    return value


def _push_service(host: str) -> bool:
    """Is `host` a push service's (settings.PUSH_SERVICE_HOSTS; ".example.com": its
    subdomains)?"""
    host = host.lower()
    return any(
        host.endswith(known) if known.startswith(".") else host == known
        for known in settings.PUSH_SERVICE_HOSTS
    )


DEFAULT_PORTS = {"https": 443, "http": 80}


def _endpoint_allowed(endpoint: str) -> bool:
    """A push service's address, read one way only: no user part (in
    "https://127.0.0.1:8247\\@push.example/x" one parser sees push.example, the HTTP library
    127.0.0.1), no backslash, its scheme's own port (or one of settings.PUSH_ENDPOINT_PORTS),
    on a push service's host."""
    parts = urlsplit(endpoint)
    try:
        port = parts.port
    except ValueError:
        return False
    if "\\" in endpoint or "@" in parts.netloc:
        return False
    own_port = port is None or port == DEFAULT_PORTS.get(parts.scheme)
    if not own_port and port not in settings.PUSH_ENDPOINT_PORTS:
        return False
    return _push_service(parts.hostname or "")


def _on_the_curve(p256dh: str) -> bool:
    """A P-256 public key, as a browser makes (its point on the curve, not 65 bytes only)."""
    try:
        raw = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:  # binascii.Error too: a kept key that is not base64 at all
        return False
    return True


def check_subscription(data: object) -> dict[str, str]:
    """The endpoint and keys of a browser's `PushSubscription.toJSON()`, checked: an HTTPS
    address (settings.PUSH_ENDPOINT_SCHEMES) and the keys' sizes (a P-256 public key, a
    16-byte secret)."""
    if not isinstance(data, dict):
        raise PushError(_("The subscription must be a JSON object with an endpoint and keys."))
    endpoint = data.get("endpoint")
    schemes = settings.PUSH_ENDPOINT_SCHEMES
    if not isinstance(endpoint, str) or len(endpoint) > 500:
        raise PushError(_("The subscription has no endpoint address."))
    try:
        URLValidator(schemes=schemes)(endpoint)
    except ValidationError:
        raise PushError(
            _("The subscription's endpoint is not an address of a push service.")
        ) from None
    if not _endpoint_allowed(endpoint):
        raise PushError(
            _("The subscription's endpoint is not an address of a push service.")
        ) from None
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise PushError(_("The subscription has no keys."))
    p256dh = _decoded(keys.get("p256dh"), size=65, what="p256dh")
    if not _on_the_curve(p256dh):
        raise PushError(
            _("The subscription's %(what)s key is not a key a browser makes.") % {"what": "p256dh"}
        )
    auth = _decoded(keys.get("auth"), size=16, what="auth")
    return {"endpoint": endpoint, "p256dh": p256dh, "auth": auth}


def _retry_after(response: object) -> float | None:
    value = getattr(response, "headers", {}).get("Retry-After", "")
    return float(value) if value.isdigit() else None


class PushChannel:
    """Web push to every browser a person turned it on in."""

    name = Channel.PUSH
    panel_template = "notify/_push_panel.html"

    def linked(self, user: AbstractBaseUser) -> bool:
        return configured() and PushSubscription.objects.filter(user=user).exists()

    def may_test(self, user: AbstractBaseUser) -> bool:
        return self.linked(user)

    def panel_context(self, request: HttpRequest) -> dict:
        endpoints = list(
            PushSubscription.objects.filter(user=request.user).values_list("endpoint", flat=True)
        )
        return {
            "push_configured": configured(),
            "push_public_key": settings.VAPID_PUBLIC_KEY,
            "push_endpoints": endpoints,
        }

    def send(self, notification: Notification, *, title: str, text: str, url: str) -> None:
        """To each of the person's browsers. Sent when one browser's push service took it (a
        browser that failed for now misses this one rather than the others get it twice);
        TryLater when none took it and one may later; GiveUp when none ever will."""
        if not configured():
            raise GiveUp("web push is not set up (no VAPID keys)")
        subscriptions = list(PushSubscription.objects.filter(user=notification.user))
        if not subscriptions:
            raise GiveUp("no browser is subscribed")
        message = json.dumps(
            {"title": title, "body": text, "url": url, "tag": notification.key},
            ensure_ascii=False,
        )
        delivered = False
        later: TryLater | None = None
        refused: list[str] = []
        for subscription in subscriptions:
            if not (
                _endpoint_allowed(subscription.endpoint) and _on_the_curve(subscription.p256dh)
            ):
                kept.forget(subscription)  # kept before the checks above: it can never be sent to
                refused.append("a browser's subscription could not be used")
                continue
            try:
                webpush(
                    subscription_info={
                        "endpoint": subscription.endpoint,
                        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                    },
                    data=message,
                    vapid_private_key=_signer(settings.VAPID_PRIVATE_KEY),
                    # A new dict each time: pywebpush writes the endpoint's origin ("aud") in it.
                    vapid_claims={"sub": settings.VAPID_SUBJECT},
                    ttl=TIME_TO_LIVE,
                    timeout=TIMEOUT,
                )
                delivered = True
            except WebPushException as error:
                status = getattr(error.response, "status_code", None)
                host = urlsplit(subscription.endpoint).hostname
                if status in GONE:
                    kept.forget(subscription)
                elif status is None or status == 429 or status >= 500:
                    later = TryLater(
                        f"push service {host} answered {status}", _retry_after(error.response)
                    )
                else:
                    refused.append(f"push service {host} refused it ({status})")
            except requests.RequestException as error:
                later = TryLater(f"push service unreachable: {type(error).__name__}")
            except (ValueError, TypeError) as error:
                # What the encryption makes of keys it cannot use: this browser alone.
                refused.append(f"a browser's keys could not be used: {type(error).__name__}")
        if delivered:
            return
        if later is not None:
            raise later
        raise GiveUp("; ".join(refused) or "no browser is subscribed any more")


register(PushChannel())
