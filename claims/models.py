"""A guest becoming an account's player, and the record of who asked and who decided."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Player


class Claim(models.Model):
    """A guest becoming an account's player: asked by the account's user (a judge of the guest
    decides) or linked by a judge (the account's user confirms). Approved, the guest's seats
    move to the account's player and the guest is gone; the claim stays as the record of who
    did what, with the guest's id and name as they were."""

    class Kind(models.TextChoices):
        CLAIM = "claim", _("claim")
        LINK = "link", _("link")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")
        WITHDRAWN = "withdrawn", _("withdrawn")

    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    guest = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="claims"
    )
    guest_number = models.PositiveIntegerField(_("guest's id"))
    guest_name = models.CharField(_("guest's name"), max_length=40)
    # The account the guest becomes.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="player_claims",
        verbose_name=_("account"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    asked_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    # On approval: how many of the guest's seats became the account's.
    seats_moved = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        # The table the games app made, kept as it is (the model moved here, its rows did not).
        db_table = "games_claim"
        ordering = ["-asked_at", "-pk"]
        verbose_name = _("claim")
        verbose_name_plural = _("claims")
        constraints = [
            models.UniqueConstraint(
                fields=["guest", "user"],
                condition=Q(status="pending"),
                name="claim_pending_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.guest_name} → {self.user}"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING
