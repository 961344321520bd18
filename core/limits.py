"""Rate limits on every post that changes something: creating score sheets, tables and
tournaments, saving and correcting rounds, moves, claims, privacy, a director's clicks...
(settings.RATE_LIMITS; docs/rate-limits.md). A view that takes posts either has a `limit` or
refuses them (`require_safe`): tests/test_write_limits.py walks the URL conf for it.

The counting is django-ratelimit's, in the default cache (Redis in production, so every app
server counts together). This module only says what counts and what a limited visitor is told:
the view is not run, and `config.views.rate_limited` (settings.RATELIMIT_VIEW) answers 429
with what was limited and when to try again."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from allauth.account.adapter import get_adapter
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django_ratelimit.core import get_usage
from django_ratelimit.exceptions import Ratelimited


class Limited(Ratelimited):
    """A post over the rate of its group; in `seconds` a new window starts, counting anew."""

    def __init__(self, group: str, seconds: int) -> None:
        super().__init__(group, seconds)
        self.group = group
        self.seconds = seconds


def client_address(request: HttpRequest) -> str:
    """The client's address as allauth's login limits take it (settings.RATELIMIT_IP_META_KEY):
    behind our proxies, from what they add (ALLAUTH_TRUSTED_PROXY_COUNT), not the proxy's own."""
    return get_adapter(request).get_client_ip(request)


def rate(group: str, request: HttpRequest) -> str:
    """The group's rate, read at each request so that a test can change it."""
    return settings.RATE_LIMITS[group]


def limit(group: str, *, counts: Callable[[HttpRequest], bool] | None = None):
    """Posts to the decorated view count against `group`'s rate, per account (per client
    address for someone not signed in), whether the view then accepts them or not; `counts`
    picks the posts of this group where one view serves two (a round saved, a round
    previewed: a decorator each). Over the rate, the view is not run."""
    if group not in settings.RATE_LIMITS:
        raise ImproperlyConfigured(f"settings.RATE_LIMITS has no rate for {group!r}")

    def decorator(view):
        @wraps(view)
        def limited_view(request: HttpRequest, *args, **kwargs):
            if request.method == "POST" and (counts is None or counts(request)):
                usage = get_usage(
                    request,
                    group=group,
                    key="user_or_ip",
                    rate=rate,
                    method="POST",
                    increment=True,
                )
                if usage is not None and usage["should_limit"]:
                    # The window's last second (time_left 0) still counts in it.
                    raise Limited(group, usage["time_left"] + 1)
            return view(request, *args, **kwargs)

        return limited_view

    return decorator
