"""What played tables answer the games app: which of them show a player's name."""

from django.dispatch import Signal, receiver

from games.signals import pages_showing_players
from play.models import PlaySeat, PlayTable

worker_pass = Signal()
"""Sent by the play worker between owed moves, about once a second (`now`): the apps built on
this one do their time-driven work there (notify sends what is due). A receiver that fails on
the database raises (the worker waits out the outage); it handles its other errors itself."""


@receiver(pages_showing_players)
def tables_showing(sender, *, players: list[int], **kwargs) -> list[tuple[type, int]]:
    """A table's board names its seats (its spectators' board is cached: play.views)."""
    seated = PlaySeat.objects.filter(player__in=players).values_list("table_id", flat=True)
    return [(PlayTable, pk) for pk in set(seated)]
