"""Ratings follow every change of a finished result, in the transaction that made it; and the
signal by which apps built on this one add to a player's profile."""

from django.dispatch import Signal, receiver

from games.models import Player
from games.signals import results_changed
from stats import services

profile_panels = Signal()
"""Asked for what apps built on this one show on `player`'s profile (a club's awards): a
receiver returns HTML, escaped by its maker, or "" (`user`: who looks, for what only
they see, such as a link of their own). Read for every view of the profile (it is
not in the cached body), so a receiver costs a query or two at most: one for a player with
nothing to show."""


def panels_of(player: Player, user=None) -> list[str]:
    """The panels the apps built on this one add to the player's profile, as `user` (who looks,
    signed in or not) sees it."""
    return [html for _, html in profile_panels.send(Player, player=player, user=user) if html]


@receiver(results_changed)
def rate_again(sender, *, preset: str, since, players, **kwargs) -> None:
    services.recompute(preset=preset, since=since, players=players)
