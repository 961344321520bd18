"""Deployment checks of what Django's own `check --deploy` cannot know about this site."""

from collections.abc import Iterable

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, register

# Caches that live inside one process: each worker would count failed logins, and the posts
# of the rate limits on creating things (core/limits.py), on its own.
PER_PROCESS_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
}


@register(Tags.caches, Tags.security, deploy=True)
def check_shared_cache(
    app_configs: Iterable[AppConfig] | None = None, **kwargs: object
) -> list[CheckMessage]:
    if settings.CACHES["default"]["BACKEND"] not in PER_PROCESS_CACHES:
        return []
    return [
        Error(
            "The cache is local to each worker process, so each worker counts failed "
            "logins and new matches, tables, claims and rounds on its own, and the rate "
            "limits multiply by the number of workers.",
            hint="Set REDIS_URL (e.g. redis://127.0.0.1:6379/0) to share one cache.",
            id="config.E001",
        )
    ]


@register(Tags.security, deploy=True)
def check_client_address(
    app_configs: Iterable[AppConfig] | None = None, **kwargs: object
) -> list[CheckMessage]:
    if hasattr(settings, "ALLAUTH_TRUSTED_PROXY_COUNT") or getattr(
        settings, "ALLAUTH_TRUSTED_CLIENT_IP_HEADER", None
    ):
        return []
    return [
        Error(
            "How to find a client's address is not set: behind a proxy every client would "
            "share the proxy's login rate limit, so one guessing passwords locks out the rest.",
            hint="Set ALLAUTH_TRUSTED_PROXY_COUNT to the number of proxies in front of the "
            "site (1 behind one nginx, 0 when clients connect directly), or "
            "ALLAUTH_TRUSTED_CLIENT_IP_HEADER to the header your proxy sets (e.g. X-Real-IP).",
            id="config.E002",
        )
    ]
