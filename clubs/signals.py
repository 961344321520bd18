"""What clubs say to the apps built on them (chats), never importing them: a night opened,
and the panels those apps add to a club's page."""

from django.dispatch import Signal

night_opened = Signal()
"""Sent by the services, inside the writing transaction, when a club's `night` was created
open for registration."""

club_panels = Signal()
"""Asked for what apps built on this one show on `club`'s page to `request`'s person: a
receiver returns HTML (escaped by its maker: a rendered template) or ""."""


def panels_of(club, request) -> list[str]:
    """The panels the apps built on clubs add to the club's page."""
    return [
        html for _, html in club_panels.send(sender=type(club), club=club, request=request) if html
    ]
