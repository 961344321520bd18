"""The coach hears the apps it is built on: a round finished at a played table is queued for
review in the transaction that finished it, and reviewed in the play worker's passes; the
replay and the round's end ask it for its marks and the viewer's accuracy."""

import datetime

from django.dispatch import receiver
from django.template.loader import render_to_string

from coach import queries, review_views, services, worker
from play.signals import replay_panels, round_end_panels, round_finished, worker_pass


@receiver(round_finished)
def queue_the_round(sender, *, table, round: int, **kwargs) -> None:
    services.queue_review(table=table, round_index=round)


@receiver(worker_pass)
def review_what_waits(sender, *, now: datetime.datetime, **kwargs) -> None:
    """The worker's pass: the rounds waiting for review, a slice at a time, after the tables'
    owed moves (a database error propagates: the worker waits the outage out)."""
    worker.review_due(now)


@receiver(replay_panels)
def replay_marks(sender, *, table, round: int, step: int, count: int, seats, **kwargs) -> str:
    """The round's reviewed decisions beside its replay, each marked, and the one at this step
    (two queries)."""
    shown = queries.round_review(table, round, seats, count)
    if shown is None:
        return ""
    context = {"table": table, "number": round + 1, "shown": shown, "step": step, "count": count}
    context["current"] = shown.at(step)
    return render_to_string("coach/_replay_marks.html", context)


@receiver(round_end_panels)
def viewers_accuracy(sender, *, table, round: int, seats, viewer, **kwargs) -> str:
    """The viewer's accuracy after a round's board, or that the coach is at it."""
    return review_views.round_end_panel(table, round, seats, viewer)
