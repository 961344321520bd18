"""What the clubs' services refuse: a change the club's rules forbid, and a person without the
right to make it (a 403 where a view lets it through)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied


class ClubError(Exception):
    """A change the club's rules refuse; its text says why, for the person who asked."""


class NotAllowed(ClubError, PermissionDenied):
    """The person asking may not do this to the club (clubs.rights): Django answers 403."""
