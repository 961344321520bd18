"""What a player's page shows about claiming a guest or hiding one's own profile, for the
person looking: the context of claims/_claim_panel.html, which the app that owns player pages
(stats) includes. Reading only; the forms it shows post to this app's claim and privacy views."""

from __future__ import annotations

from claims import queries
from claims.models import Claim
from games.models import Player


def claim_panel(player: Player, user) -> dict:
    """The panel's context: the owner's privacy form on their own profile; on a guest's, how
    `user` may claim it, their claim waiting, and the claims they are the ones to decide."""
    context: dict = {"player": player, "claimable": False}
    if player.user_id is not None:
        context["own"] = user.is_authenticated and user.pk == player.user_id
        return context
    if queries.claimable_problem(player):
        return context
    context["claimable"] = True
    if not user.is_authenticated:
        return context
    mine = player.claims.filter(user=user, status=Claim.Status.PENDING).first()
    context["my_claim"] = mine
    if mine is None:
        own = Player.objects.filter(user=user).first()
        context["sat_together"] = own is not None and queries.sat_together(player, own)
    judged = queries.judges(player)
    if user.pk in judged or user.is_staff:
        pending = player.claims.filter(status=Claim.Status.PENDING).select_related(
            "user", "asked_by"
        )
        waiting = [
            claim
            for claim in pending
            if claim.asked_by_id == user.pk or queries.may_decide(claim, user, judged)
        ]
        # Staff see the guest's claims only when they are the ones to decide them.
        if waiting or user.pk in judged:
            context["judge"] = user.pk in judged
            context["waiting"] = waiting
    shown = [claim for claim in [mine, *context.get("waiting", [])] if claim]
    queries.show_deciders(shown, {player.pk: judged})
    return context
