"""Absolute links to the site, for messages read off it (settings.SITE_URL, DJANGO_SITE_URL):
core.http.absolute, under the name notify's modules know it by."""

from __future__ import annotations

from core.http import absolute

__all__ = ["absolute"]
