"""The only code that writes claims of guest profiles, merges a guest into an account's
player, and sets what a player shows of themselves to visitors.

A guest typed in by a scorekeeper may later turn out to be someone with an account. Either the
account's user asks for the guest (`ask`) and one of the guest's judges decides (`decide`), or a
judge links the guest to an account by username (`link`) and the account's user confirms. The
judges of a guest: whoever added it (typed the name first), and whoever the apps built on this
one name (a tournament's creator and directors for its entrants, through
`signals.player_judges`). Creating a match gives no say: anyone who may keep a sheet can press
Rematch. Nobody decides their own claim: a judge who asks waits for another judge, and a guest
with no other judge is decided by the site's staff (`deciders`).

A scorekeeper naming someone else's account at their table does not put it on that account's
record either: the seat goes to a guest of that name (games.services.players_for_names) and the
account is asked to confirm, as a link (`ask_to_confirm`, answering
`games.signals.account_named`). Once they confirm one, that scorekeeper's later tables count for
them at once (`confirmed_a_guest_of`, answering `games.signals.tables_counted`).

Approved, the guest is merged (`_merge`): rows that say who played (foreign keys that PROTECT
the player: seats, played seats, tournament entries) move to the account's player in one
transaction, rows derived from them (CASCADE: ratings) go with the guest and are computed
again, and claims (SET_NULL) keep the guest's id and name. Refused when the two ever sat at
one match, or when an app says no (`signals.merging_players`: both entered one tournament).
Every step is a Claim row with who asked and who decided, and a line in the log.

Locks, in this order: the two players' rows (by id), the claim's row, the owners of the
guest's matches (tournaments), then those matches by id, as every other write takes them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from claims import changes, queries, signals
from claims.models import Claim
from core.accounts import account_named
from games import owners
from games.models import Match, Player, Seat
from games.services import (
    NotAllowed,
    announce_results,
    lock_matches,
    mark_changed,
    own_player,
)
from games.visibility import names_changed

log = logging.getLogger(__name__)


# --- asking, linking, deciding ---------------------------------------------------------------


def ask(*, guest: Player, by) -> Claim:
    """`by` says the guest is them. A pending claim of theirs is returned as it is."""
    with transaction.atomic():
        return _open(Claim.Kind.CLAIM, guest, by, by)


def link(*, guest: Player, username: str, by) -> Claim:
    """A judge of the guest says it is the account called `username`; its user confirms. A
    judge linking a guest to their own account asks for it, as anyone else would."""
    user = account_named(
        username, _("Enter the username of the account this guest is."), error=NotAllowed
    )
    with transaction.atomic():
        if user.pk == by.pk:
            return _open(Claim.Kind.CLAIM, guest, user, by)
        return _open(Claim.Kind.LINK, guest, user, by)


def _open(kind: str, guest: Player, user, by) -> Claim:
    target = own_player(user)
    guest = _lock_players(guest, target)
    if kind == Claim.Kind.LINK and not queries.may_judge(guest, by):
        raise NotAllowed(
            _(
                "Only whoever added this guest or a director of one of its tournaments can "
                "link it to an account."
            )
        )
    _check_claimable(guest, target)
    pending = Claim.objects.filter(guest=guest, user=user, status=Claim.Status.PENDING).first()
    if pending is not None:
        return pending
    claim = Claim.objects.create(
        kind=kind, guest=guest, guest_number=guest.pk, guest_name=guest.name, user=user, asked_by=by
    )
    changes.claims_changed()
    signals.claim_opened.send(sender=Claim, claim=claim)
    if kind == Claim.Kind.CLAIM:
        log.info("claim %s: %s asks for guest %s (%s)", claim.pk, by, guest.pk, guest.name)
    else:
        log.info("claim %s: %s links guest %s (%s) to %s", claim.pk, by, guest.pk, guest.name, user)
    return claim


def decide(*, claim: Claim, approve: bool, by) -> Claim:
    """Approve (the guest is merged) or refuse a pending claim: a judge of the guest decides a
    claim, the account's user a link."""
    with transaction.atomic():
        guest = claim.guest
        if guest is None:
            raise NotAllowed(_("This guest is no longer there: the claim was decided."))
        target = own_player(claim.user)
        guest = _lock_players(guest, target)
        claim = _lock_pending(claim)
        if claim.kind == Claim.Kind.LINK:
            if by.pk != claim.user_id:
                raise NotAllowed(_("Only the account's owner can confirm this link."))
        elif by.pk == claim.asked_by_id:
            raise NotAllowed(_("Nobody decides their own claim: someone else will."))
        elif not queries.may_decide(claim, by):
            raise NotAllowed(
                _(
                    "Only whoever added this guest or a director of one of its tournaments "
                    "can decide this claim."
                )
            )
        if approve:
            _check_claimable(guest, target)
            _approve(claim, guest, target, by)
        else:
            _close(claim, Claim.Status.REFUSED, by)
            log.info("claim %s: refused by %s", claim.pk, by)
        signals.claim_decided.send(sender=Claim, claim=claim, by=by)
        return claim


def withdraw(*, claim: Claim, by) -> Claim:
    """Whoever asked takes a pending claim (or link) back."""
    with transaction.atomic():
        claim = _lock_pending(claim)
        if by.pk != claim.asked_by_id:
            raise NotAllowed(_("Only whoever asked can withdraw this."))
        _close(claim, Claim.Status.WITHDRAWN, by)
        log.info("claim %s: withdrawn by %s", claim.pk, by)
        return claim


def ask_to_confirm(*, guest: Player, user, by) -> None:
    """A scorekeeper (`by`) named `user`'s account at a table and seated `guest` instead
    (games.signals.account_named): ask `user` to confirm that the guest is them, unless they
    were asked already (a pending link) or said it is not them (a refused one). Inside the
    transaction that seats the guest."""
    Player.objects.select_for_update().filter(pk=guest.pk).first()  # one link at a time
    asked = Claim.objects.filter(
        kind=Claim.Kind.LINK,
        guest_number=guest.pk,
        user=user,
        status__in=[Claim.Status.PENDING, Claim.Status.REFUSED],
    )
    if not asked.exists():
        Claim.objects.create(
            kind=Claim.Kind.LINK,
            guest=guest,
            guest_number=guest.pk,
            guest_name=guest.name,
            user=user,
            asked_by=by,
        )
        changes.claims_changed()


def _check_claimable(guest: Player, target: Player) -> None:
    problem = queries.claimable_problem(guest)
    if problem:
        raise NotAllowed(problem)
    if guest.pk == target.pk:
        raise NotAllowed(_("This is your own profile."))
    if queries.sat_together(guest, target):
        raise NotAllowed(
            _("%(guest)s and %(player)s sat at the same match, so they are two people.")
            % {"guest": guest.name, "player": target.name}
        )


def _lock_players(guest: Player, target: Player) -> Player:
    """Row locks on both players, by id; the guest as it is now."""
    locked = {
        player.pk: player
        for player in Player.objects.select_for_update()
        .filter(pk__in=[guest.pk, target.pk])
        .order_by("pk")
    }
    if guest.pk not in locked:
        raise NotAllowed(_("This guest is no longer there: it was merged or removed."))
    return locked[guest.pk]


def _lock_pending(claim: Claim) -> Claim:
    claim = Claim.objects.select_for_update().get(pk=claim.pk)
    if not claim.is_pending:
        raise NotAllowed(
            _("This claim was already %(status)s.") % {"status": claim.get_status_display()}
        )
    return claim


def _close(claim: Claim, status: str, by, *also: str) -> None:
    """Record the decision (and the fields named in `also`, set by the caller)."""
    claim.status = status
    claim.decided_by = by
    claim.decided_at = timezone.now()
    claim.save(update_fields=["status", "decided_by", "decided_at", *also])
    changes.claims_changed()


def _approve(claim: Claim, guest: Player, target: Player, by) -> None:
    claim.seats_moved = _merge(guest, target)
    _close(claim, Claim.Status.APPROVED, by, "seats_moved")
    # The guest is gone: other claims of it are settled with this one.
    Claim.objects.filter(guest_number=claim.guest_number, status=Claim.Status.PENDING).update(
        status=Claim.Status.REFUSED, decided_by=by, decided_at=claim.decided_at
    )
    log.info(
        "claim %s: approved by %s; guest %s (%s) merged into player %s, %s seats moved",
        claim.pk,
        by,
        claim.guest_number,
        claim.guest_name,
        target.pk,
        claim.seats_moved,
    )


# --- merging ---------------------------------------------------------------------------------


def _merge(guest: Player, target: Player) -> int:
    """Move the guest's rows to `target` and delete the guest (both players are locked, inside a
    transaction); returns the number of seats moved."""
    for _receiver, refusal in signals.merging_players.send(sender=Player, guest=guest, into=target):
        if refusal:
            raise NotAllowed(refusal)
    matches = list(Match.objects.filter(seats__player=guest).order_by("pk"))
    for match in matches:
        owners.owner_of(match).lock(match)
    locked = lock_matches(matches)
    # Where each rating pool must be computed again from: the guest's first finished match.
    firsts: dict[str, Match] = {}
    for match in locked:  # by id: the first of equal times comes first, as ratings order them
        first = firsts.get(match.preset)
        if match.finished_at is not None and (
            first is None or match.finished_at < first.finished_at
        ):
            firsts[match.preset] = match
    seats = 0
    try:
        with transaction.atomic():
            for relation in _played_rows():
                moved = relation.related_model._base_manager.filter(
                    **{relation.field.name: guest}
                ).update(**{relation.field.name: target})
                if relation.related_model is Seat:
                    seats = moved
    except IntegrityError:
        raise NotAllowed(
            _("%(guest)s and %(player)s have rows that cannot become one player's.")
            % {"guest": guest.name, "player": target.name}
        ) from None
    guest_id = guest.pk
    guest.delete()
    guest.pk = guest_id
    for match in locked:
        mark_changed(match)
    signals.players_merged.send(sender=Player, guest_id=guest_id, into=target)
    for _preset, first in sorted(firsts.items()):
        announce_results(first, first.finished_at, players=[guest_id])
    # Every row of the guest is the account's now: the pages that show it show the account.
    names_changed([target.pk])
    return seats


def _played_rows() -> Iterable[models.ManyToOneRel]:
    """The relations that say who played: foreign keys to Player that protect it."""
    return [
        relation
        for relation in Player._meta.related_objects
        if relation.one_to_many and relation.on_delete is models.PROTECT
    ]


# --- what a player shows -----------------------------------------------------------------------


def set_private(*, player: Player, private: bool, by) -> None:
    """The account's user hides their profile and name from visitors, or shows them again."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.user_id is None or by.pk != player.user_id:
            raise NotAllowed(_("Only the account's owner can choose who sees this profile."))
        if player.private != private:
            player.private = private
            player.save(update_fields=["private"])
            # The guests that stand in for the account at others' tables until it confirms
            # (games.services.players_for_names) carry its name: they hide or show with it.
            stand_ins = list(
                Player.objects.filter(
                    user=None,
                    claims__user=by,
                    claims__kind=Claim.Kind.LINK,
                    claims__status=Claim.Status.PENDING,
                ).values_list("pk", flat=True)
            )
            Player.objects.filter(pk__in=stand_ins).update(private=private)
            names_changed([player.pk, *stand_ins])
