"""The coach hears the apps it is built on: a round finished at a played table is queued for
review in the transaction that finished it, and reviewed in the play worker's passes."""

import datetime

from django.dispatch import receiver

from coach import services, worker
from play.signals import round_finished, worker_pass


@receiver(round_finished)
def queue_the_round(sender, *, table, round: int, **kwargs) -> None:
    services.queue_review(table=table, round_index=round)


@receiver(worker_pass)
def review_what_waits(sender, *, now: datetime.datetime, **kwargs) -> None:
    """The worker's pass: the rounds waiting for review, a slice at a time, after the tables'
    owed moves (a database error propagates: the worker waits the outage out)."""
    worker.review_due(now)
