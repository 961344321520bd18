"""The version of the claims waiting, kept in the cache: every claim asked, decided or withdrawn
moves it, and the top bar's counts (claims.notices) are kept under it."""

from __future__ import annotations

from django.db import transaction

from core import versions

CLAIMS_VERSION_KEY = "claims:version"


def claims_version() -> str:
    return versions.current(CLAIMS_VERSION_KEY)


def claims_changed() -> None:
    """A claim was asked, decided or withdrawn: counts are worked out again. Now, and once
    more when committed, so that a count read from the rows before the change in between is
    not kept either."""
    _new_version()
    transaction.on_commit(_new_version)


def _new_version() -> None:
    versions.move(CLAIMS_VERSION_KEY)
