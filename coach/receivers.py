"""The coach hears the apps it is built on: a round finished at a played table is queued for
review in the transaction that finished it; a player's profile asks for the coach's panel."""

from django.dispatch import receiver
from django.template.loader import render_to_string

from coach import profile, services
from play.signals import round_finished
from stats.signals import profile_panels


@receiver(round_finished)
def queue_the_round(sender, *, table, round: int, **kwargs) -> None:
    services.queue_review(table=table, round_index=round)


@receiver(profile_panels)
def coach_panel(sender, *, player, user=None, **kwargs) -> str:
    """The player's accuracy, mistakes and comparison with the site (one query for a player
    none of whose moves was reviewed); a link to practice on one's own profile."""
    panel = profile.panel_of(player)
    if panel is None:
        return ""
    own = user is not None and user.is_authenticated and player.user_id == user.pk
    return render_to_string("coach/_profile_panel.html", {"panel": panel, "own": own})
