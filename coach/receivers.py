"""The coach hears the apps it is built on: a round finished at a played table is queued for
review in the transaction that finished it, and reviewed by a task (coach.tasks); the
replay and the round's end ask it for its marks and the viewer's accuracy, and a player's
profile for the coach's panel."""

from django.dispatch import receiver
from django.template.loader import render_to_string

from coach import queries, review_views, tasks
from play.signals import replay_panels, round_end_panels, round_finished
from stats.signals import profile_panels


@receiver(round_finished)
def queue_the_round(sender, *, table, round: int, **kwargs) -> None:
    tasks.queue(table=table, round_index=round)


@receiver(profile_panels)
def coach_panel(sender, *, player, user=None, **kwargs) -> str:
    """The player's accuracy, mistakes and comparison with the site (one query for a player
    none of whose moves was reviewed); a link to practice on one's own profile."""
    panel = queries.panel_of(player)
    if panel is None:
        return ""
    own = user is not None and user.is_authenticated and player.user_id == user.pk
    return render_to_string("coach/_profile_panel.html", {"panel": panel, "own": own})


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
