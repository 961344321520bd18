"""What played tables answer the games app: which of them show a player's name."""

from django.dispatch import receiver

from games.signals import pages_showing_players
from play.models import PlaySeat, PlayTable


@receiver(pages_showing_players)
def tables_showing(sender, *, players: list[int], **kwargs) -> list[tuple[type, int]]:
    """A table's board names its seats (its spectators' board is cached: play.views)."""
    seated = PlaySeat.objects.filter(player__in=players).values_list("table_id", flat=True)
    return [(PlayTable, pk) for pk in set(seated)]
