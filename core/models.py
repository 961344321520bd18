"""What core keeps in the database: the live events, when no Redis carries them."""

from __future__ import annotations

import datetime

from django.db import models
from django.utils import timezone

# Long enough for every listener to have read an event (they read several times a second).
KEPT = datetime.timedelta(minutes=5)


class LiveEvent(models.Model):
    """A new version of something people watch (core/live.py's database broker): each app
    server process reads the events after the last one it read."""

    channel = models.CharField(max_length=100)
    version = models.PositiveIntegerField()
    at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.channel} v{self.version}"

    @classmethod
    def forget_old(cls, now: datetime.datetime | None = None) -> int:
        """Delete the events every listener has read; returns how many."""
        return cls.objects.filter(at__lt=(now or timezone.now()) - KEPT).delete()[0]
