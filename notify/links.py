"""Absolute links to the site, for messages read off it (settings.SITE_URL, DJANGO_SITE_URL)."""

from __future__ import annotations

from django.conf import settings


def absolute(path: str) -> str:
    """The site's address of `path`."""
    if path.startswith(("http://", "https://")):
        return path
    return settings.SITE_URL.rstrip("/") + path
