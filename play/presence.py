"""Who has a table's page open: a seat's mark of presence (`PlaySeat.watched_at`), by which
notify tells nobody of a move they can see. Not the game's state: no lock, no version."""

from __future__ import annotations

from django.core import signing
from django.utils import timezone

from play.models import PlaySeat


def watching(*, table: int, seat: int | None = None, token: str = "") -> None:
    """The seat's person has the table's page open now (its load, and its poll naming the
    seat's token: `watch_token`): notify tells them nothing of a move they can see. A mark of
    presence, not of the game: no lock, no version."""
    if seat is None:
        try:
            seat = signing.loads(token, salt=WATCH_SALT)
        except signing.BadSignature:
            return
    PlaySeat.objects.filter(pk=seat, table_id=table).update(watched_at=timezone.now())


WATCH_SALT = "play.watching"


def watch_token(seat: PlaySeat) -> str:
    """What the seated person's page names in its poll, so that the poll marks them watching
    without reading their session (signed: nobody marks another's seat)."""
    return signing.dumps(seat.pk, salt=WATCH_SALT)
