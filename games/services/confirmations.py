"""Confirmed results (Match.confirm_results): a round entered at a table counts once a second
person there, or a director, confirms it; a second entry that differs is kept beside the first
(DisputedEntry) until a director chooses one. Same locks as the rounds: owner, then match."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import owners
from games.models import DisputedEntry, Match, Round
from games.queries import Outcomes, confirm_refusal, round_outcomes
from games.services.errors import NotAllowed, RoundConflict
from games.services.matches import _lock, announce_results, lock_matches, mark_changed
from games.services.rounds import _same, _stored, change_round


def confirm_round(*, match: Match, round_id: int, by) -> Round:
    """`by` confirms a round someone else entered: another player at the table with an
    account, or a director. A round confirmed already (or a match that asks for no
    confirmation) is left as it is."""
    with transaction.atomic():
        match = _lock(match)
        round_ = _round(match, round_id)
        if not match.confirm_results or round_.confirmed_at is not None:
            return round_
        _check_may_confirm(match, round_, by)
        _confirm(match, round_, by)
    return round_


def enter_again(
    *, match: Match, round_id: int, version: int, outcomes: Outcomes, by
) -> DisputedEntry | None:
    """A second person at the table enters a round that waits for confirmation, as they saw
    it: the same outcomes confirm it (None); others are kept beside the first entry, nothing
    overwritten, for a director to choose (the DisputedEntry)."""
    with transaction.atomic():
        match = _lock(match)
        round_ = _round(match, round_id)
        if round_.version != version:
            raise RoundConflict(
                _("Round %(number)s has been changed meanwhile: check it again.")
                % {"number": round_.number}
            )
        entered = round_outcomes(round_)
        if not match.confirm_results or round_.confirmed_at is not None:
            if _same(entered, outcomes):
                return None
            raise RoundConflict(
                _("Round %(number)s has been confirmed meanwhile; to change it, correct it.")
                % {"number": round_.number}
            )
        if _same(entered, outcomes):
            _check_may_confirm(match, round_, by)
            _confirm(match, round_, by)
            return None
        _check_may_confirm(match, round_, by, second_entry=True)
        dispute, _created = DisputedEntry.objects.update_or_create(
            round=round_, by=by, defaults={"outcomes": _stored(outcomes), "at": timezone.now()}
        )
        mark_changed(match)
    return dispute


def choose_entry(*, match: Match, round_id: int, dispute_id: int, by) -> Round | None:
    """A director settles a disputed round with its second entry: applied as a correction
    (kept in the corrections trail), the round confirmed by the director."""
    with transaction.atomic():
        match = _lock(match)
        if not owners.directs(match, by):
            raise NotAllowed(_("Only a director chooses between two entries of a round."))
        round_ = _round(match, round_id)
        dispute = round_.disputes.filter(pk=dispute_id).first()
        if dispute is None:
            raise RoundConflict(_("This entry has been settled meanwhile."), repeat=True)
        outcomes = {int(position): outcome for position, outcome in dispute.outcomes.items()}
        changed = change_round(
            match=match, round_id=round_id, version=round_.version, outcomes=outcomes, by=by
        )
        if changed is None:  # the first entry was corrected to the same meanwhile
            return confirm_round(match=match, round_id=round_id, by=by)
    return changed


def set_confirm_results(*, matches: Iterable[Match], on: bool) -> None:
    """Ask (or stop asking) these matches' rounds to be confirmed (a director changing the
    option of a tournament under way). Rounds entered while it was off count as confirmed."""
    for match in lock_matches(matches):
        if match.confirm_results == on:
            continue
        match.confirm_results = on
        _count_unconfirmed(match, "confirm_results")


def _round(match: Match, round_id: int) -> Round:
    round_ = (
        match.rounds.prefetch_related("entries__seat", "disputes").filter(pk=round_id).first()
        if 0 < round_id < 2**63
        else None
    )
    if round_ is None:
        raise RoundConflict(_("This round has been deleted meanwhile."))
    return round_


def _check_may_confirm(match: Match, round_: Round, by, *, second_entry=False) -> None:
    reason = confirm_refusal(match, round_, by, second_entry=second_entry)
    if reason is not None:
        raise NotAllowed(reason)


def _confirm(match: Match, round_: Round, by) -> None:
    round_.confirmed_by, round_.confirmed_at = by, timezone.now()
    round_.save(update_fields=["confirmed_by", "confirmed_at"])
    # The first entry stands: a second one (of the person confirming it now) is withdrawn.
    round_.disputes.all().delete()
    _count_unconfirmed(match)


def _count_unconfirmed(match: Match, *fields: str) -> None:
    """Count the match's rounds waiting for confirmation and move its version (and its
    owner's: a table's result may count now)."""
    waited = match.unconfirmed_rounds
    match.unconfirmed_rounds = (
        match.rounds.filter(confirmed_at__isnull=True).count() if match.confirm_results else 0
    )
    mark_changed(match, *fields, "unconfirmed_rounds")
    if bool(waited) != bool(match.unconfirmed_rounds):
        # A finished match's result starts or stops counting (ratings, profiles).
        announce_results(match, match.finished_at)
