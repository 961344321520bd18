"""A club, the people in it, and its seasons."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Player


class Club(models.Model):
    """A club: its name and page (`slug`, readable from a Cyrillic name too), and who runs it.
    Its nights are tournaments (`Tournament.club`)."""

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    description = models.TextField(_("description"), blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="clubs_owned"
    )
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        # "clubs" alone is the suit (трефы).
        verbose_name = pgettext_lazy("organisation", "club")
        verbose_name_plural = pgettext_lazy("organisation", "clubs")

    def __str__(self) -> str:
        return self.name


class Member(models.Model):
    """A player of a club (an account's player or a guest: the same person every night)."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        DIRECTOR = "director", _("director")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_membership_a_club")
        ]
        verbose_name = _("member")
        verbose_name_plural = _("members")

    def __str__(self) -> str:
        return f"{self.player} ({self.club})"


class Season(models.Model):
    """A club's season: its table sums the tournament points of the club's finished nights dated
    within it (clubs.queries.season_table); `best_nights` counts only each player's best N."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    starts = models.DateField(_("starts"))
    ends = models.DateField(_("ends"))
    best_nights = models.PositiveSmallIntegerField(_("best nights counted"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")), name="season_ends_after_start"
            )
        ]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name
