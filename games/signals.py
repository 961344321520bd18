"""Every account gets its player, so it can be picked when a match is created."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.models import Player


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_player_for_new_account(sender, instance, created: bool, raw: bool = False, **kwargs):
    if created and not raw:
        Player.objects.get_or_create(user=instance, defaults={"name": instance.get_username()})
