"""Ratings follow every change of a finished result, in the transaction that made it."""

from django.dispatch import receiver

from games.signals import results_changed
from stats import services


@receiver(results_changed)
def rate_again(sender, *, preset: str, since, players, **kwargs) -> None:
    services.recompute(preset=preset, since=since, players=players)
