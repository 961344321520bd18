"""The coach hears the apps it is built on: a round finished at a played table is queued for
review in the transaction that finished it."""

from django.dispatch import receiver

from coach import services
from play.signals import round_finished


@receiver(round_finished)
def queue_the_round(sender, *, table, round: int, **kwargs) -> None:
    services.queue_review(table=table, round_index=round)
