"""The rounds of a match: entering, changing and deleting them (each kept in the corrections
trail), storing rounds played on the site or a whole match played earlier, closing a match by
hand; every change scores the match again from scratch and moves its version."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cards101.rules import RulesError, parse_cards, score_match
from games import owners, signals
from games.models import Correction, Entry, Match, Round, Seat
from games.queries import Outcome, Outcomes, RoundRows, cut_rounds, load_rounds
from games.services.errors import NotAllowed, RoundConflict
from games.services.matches import (
    _check_may_change,
    _lock,
    announce_results,
    lock_matches,
    mark_changed,
)


def record_round(*, match: Match, outcomes: Outcomes, version: int, by) -> Round:
    """Add the next round, with each seat's outcome, to the match as it was at `version`."""
    with transaction.atomic():
        match = _lock(match)
        _check_may_change(match, by)
        rounds = load_rounds(match)
        if match.version != version:
            last = rounds[-1] if rounds else None
            if last and last[0].entered_by_id == by.pk and _same(last[1], outcomes):
                raise RoundConflict(
                    _("Round %(number)s has already been saved.") % {"number": len(rounds)},
                    repeat=True,
                )
            raise RoundConflict(
                _(
                    "The sheet changed while you were entering this round, so it was not "
                    "saved. Here it is now; your round is still in the form: check it and "
                    "save again."
                )
            )
        if match.is_finished:
            raise RoundConflict(_("The match is over; no more rounds can be entered."))
        new = Round(match=match, number=len(rounds) + 1, entered_by=by)
        _stamp(new, match, by)
        new.save()
        _announce_unconfirmed(new, match, by)
        rounds.append((new, dict(outcomes)))
        _rescore(match, _seats(match), rounds)
    return new


def change_round(
    *, match: Match, round_id: int, version: int, outcomes: Outcomes, by
) -> Round | None:
    """Replace the outcomes of an entered round; everything after it is recomputed and the
    change is kept with who made it. Returns None when nothing changed."""
    with transaction.atomic():
        match = _lock(match)
        _check_may_change(match, by)
        rounds = load_rounds(match)
        index = _find_round(rounds, round_id, version, outcomes, deleting=False)
        changed, before = rounds[index]
        if _same(before, outcomes):
            return None
        old = list(rounds)
        rounds[index] = (changed, dict(outcomes))
        seats = _seats(match)
        _check_nobody_returns(match, seats, old, rounds, first_later=index + 1)
        changed.entered_by = by
        changed.version += 1
        # The changed round is to be confirmed afresh; a second entry of it no longer applies.
        _stamp(changed, match, by)
        changed.save(
            update_fields=["entered_by", "version", "confirmed_by", "confirmed_at", "updated_at"]
        )
        changed.disputes.all().delete()
        _announce_unconfirmed(changed, match, by)
        _rescore(match, seats, rounds)
        _keep_correction(match, changed, Correction.Action.CHANGED, by, before, outcomes)
    return changed


def delete_round(*, match: Match, round_id: int, version: int, by) -> int:
    """Remove a round; later rounds move up one number, everything is recomputed and the
    deletion is kept with who made it. Returns the deleted round's number."""
    with transaction.atomic():
        match = _lock(match)
        _check_may_change(match, by)
        rounds = load_rounds(match)
        index = _find_round(rounds, round_id, version, None, deleting=True)
        old = list(rounds)
        doomed, before = rounds.pop(index)
        seats = _seats(match)
        _check_nobody_returns(match, seats, old, rounds, first_later=index)
        _keep_correction(match, doomed, Correction.Action.DELETED, by, before)
        doomed.delete()
        # One by one in ascending order, so no two rounds ever share a number.
        for later, _outcomes in rounds[index:]:
            later.number -= 1
            later.save(update_fields=["number"])
        _rescore(match, seats, rounds)
    return doomed.number


def store_played_round(*, match: Match, outcomes: Outcomes, cut: bool = False) -> Round:
    """Add a round played on the site: its table holds the table's lock and its moves were
    checked by the engine, so no person's rights are asked. A round the engine `cut` at its
    move limit is kept as cut: it need not end the way the rules end rounds."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        rounds = load_rounds(match)
        new = Round.objects.create(
            match=match,
            number=len(rounds) + 1,
            entered_by=None,
            cut=cut,
            confirmed_at=timezone.now(),  # the engine checked it
        )
        rounds.append((new, dict(outcomes)))
        _rescore(match, _seats(match), rounds)
    return new


def store_history(
    *, match: Match, rounds: Sequence[Outcomes], finished_at: datetime.datetime, by
) -> None:
    """Enter a whole match played earlier (an import, the demo's history) in one go, dated
    when it finished: a new match of the creator's, which its rounds must finish."""
    with transaction.atomic():
        match = _lock(match)
        if by.pk != match.created_by_id:
            raise NotAllowed(_("Only the match's creator can enter its history."))
        if match.rounds.exists():
            raise RoundConflict(_("This match has rounds already."))
        stored = []
        for number, outcomes in enumerate(rounds, start=1):
            new = Round.objects.create(
                match=match, number=number, entered_by=by, confirmed_at=timezone.now()
            )
            stored.append((new, dict(outcomes)))
        _rescore(match, _seats(match), stored, finished_at=finished_at)
        if not match.is_finished:
            raise RoundConflict(_("These rounds do not finish the match; nothing was saved."))


def close_match(*, match: Match, by) -> None:
    """End a match by hand (a tournament director closing a table); ranked as it stands."""
    _set_closed_early(match, True)


def reopen_match(*, match: Match, by) -> None:
    """Undo closing by hand: the match goes on where it stopped."""
    _set_closed_early(match, False)


def _set_closed_early(match: Match, closed: bool) -> None:
    with transaction.atomic():
        match = _lock(match)
        seats = _seats(match)
        match.closed_early = closed
        _rescore(match, seats, load_rounds(match))


def lock_results(*, matches: Iterable[Match]) -> None:
    """Fix finished matches' results as finished (a tournament round closing): a later
    correction may change their places but not make them unfinished."""
    for match in lock_matches(matches):
        if not match.is_finished:
            raise RoundConflict(_("%(match)s has not finished.") % {"match": match})
        match.result_locked = True
        match.save(update_fields=["result_locked"])
        mark_changed(match)


def _stamp(round_: Round, match: Match, by) -> None:
    """Confirm a round as it is entered or changed when nobody else need: the match asks no
    confirmation, or a director entered it (they confirm for anyone); else it waits."""
    if not match.confirm_results:
        round_.confirmed_by, round_.confirmed_at = None, timezone.now()
    elif by is not None and owners.directs(match, by):
        round_.confirmed_by, round_.confirmed_at = by, timezone.now()
    else:
        round_.confirmed_by, round_.confirmed_at = None, None


def _announce_unconfirmed(round_: Round, match: Match, by) -> None:
    if round_.confirmed_at is None:
        signals.round_waits_confirmation.send(sender=Round, round_=round_, match=match, by=by)


def _seats(match: Match) -> list[Seat]:
    return list(match.seats.order_by("position"))


def _find_round(
    rounds: RoundRows, round_id: int, version: int, outcomes: Outcomes | None, *, deleting: bool
) -> int:
    """The index of the round a form was made on, if it is still as the form saw it."""
    for index, (round_, current) in enumerate(rounds):
        if round_.pk != round_id:
            continue
        if round_.version == version:
            return index
        if outcomes is not None and _same(current, outcomes):
            raise RoundConflict(
                _("Round %(number)s has already been saved.") % {"number": round_.number},
                repeat=True,
            )
        if deleting:
            message = _(
                "Round %(number)s has been changed by someone else meanwhile, so it was not "
                "deleted. Here it is now."
            )
        else:
            message = _(
                "Round %(number)s has been changed by someone else meanwhile, so your change "
                "was not saved. Here it is now; your change is still in the form."
            )
        raise RoundConflict(message % {"number": round_.number})
    if deleting:
        raise RoundConflict(_("This round has already been deleted."), repeat=True)
    raise RoundConflict(_("This round has been deleted meanwhile, so your change was not saved."))


def _keep_correction(
    match: Match, round_: Round, action: str, by, before: Outcomes, after: Outcomes | None = None
) -> None:
    """Keep who changed or deleted an entered round, when, and its outcomes before and after
    (in the same transaction as the change)."""
    if not match.corrected:
        match.corrected = True
        match.save(update_fields=["corrected"])
    Correction.objects.create(
        match=match,
        # A deleted round is gone; its number says which it was.
        round=round_ if action == Correction.Action.CHANGED else None,
        number=round_.number,
        action=action,
        by=by,
        before=_stored(before),
        after=None if after is None else _stored(after),
    )


def _same(entered: Outcomes, sent: Outcomes) -> bool:
    """Whether two rounds' outcomes are the same as stored (card order and notation aside)."""
    try:
        return _stored(entered) == _stored(sent)
    except (RulesError, KeyError, TypeError):
        return False


def _stored(outcomes: Outcomes) -> dict[str, dict[str, Any]]:
    """Outcomes as kept in the corrections trail: {"<position>": {kind: value}}."""
    stored = {}
    for position, outcome in outcomes.items():
        kind, cards, points = _as_entered(outcome)
        stored[str(position)] = {kind: points if kind == Entry.Kind.POINTS else cards}
    return dict(sorted(stored.items()))


def _check_nobody_returns(
    match: Match, seats: list[Seat], old: RoundRows, new: RoundRows, *, first_later: int
) -> None:
    """A change that would bring a player who lost back into play cannot stand while later
    rounds were played without them: say which rounds must go first."""
    later = new[first_later:]
    if not later:
        return
    keys = [seat.position for seat in seats]
    variant = match.variant
    before = score_match(variant, keys, [o for _r, o in old], cut=cut_rounds(old))
    try:
        kept = new[:first_later]
        after = score_match(variant, keys, [o for _r, o in kept], cut=cut_rounds(kept))
    except RulesError:
        return  # the change itself breaks a rule; _rescore reports it
    back = [
        seat
        for seat in seats
        if before.lost_in.get(seat.position, len(old)) < first_later + (len(old) - len(new))
        and seat.position not in after.lost_in
    ]
    if not back:
        return
    names = ", ".join(str(seat.player) for seat in back)
    first, last = later[0][0].number, later[-1][0].number
    rounds = str(first) if first == last else f"{first}–{last}"
    raise RoundConflict(
        _(
            "This would bring %(names)s back into play, but round %(rounds)s was played "
            "without them: delete the later rounds first, from the last one."
        )
        % {"names": names, "rounds": rounds}
    )


def _rescore(
    match: Match,
    seats: list[Seat],
    rounds: RoundRows,
    *,
    finished_at: datetime.datetime | None = None,
) -> None:
    """Score every round from scratch and store scores, totals, events, places and status;
    move the match's version."""
    by_position = {seat.position: seat for seat in seats}
    result = score_match(
        match.variant,
        list(by_position),
        [outcome for _round, outcome in rounds],
        cut=cut_rounds(rounds),
    )
    Entry.objects.filter(round__match=match).delete()
    entries = []
    scored_rows = []  # what the sheet shows, as Match.scored_rows keeps it
    for (round_, outcomes), scored in zip(rounds, result.rounds, strict=True):
        events = dict(scored.events)
        cells: dict[int, list] = {}
        for position, outcome in outcomes.items():
            kind, cards, points = _as_entered(outcome)
            entry = Entry(
                round=round_,
                seat=by_position[position],
                kind=kind,
                cards=cards,
                points=points,
                score=scored.scores[position],
                total=scored.totals[position],
                event=events.get(position, ""),
            )
            entries.append(entry)
            cells[position] = [entry.seat_id, kind, entry.score, entry.total, entry.event]
        scored_rows.append([round_.pk, round_.number, [cells.get(p) for p in sorted(by_position)]])
    Entry.objects.bulk_create(entries)
    place_of = {key: place for place, group in _places(result.standings) for key in group}
    for seat in seats:
        seat.total = result.totals[seat.position]
        seat.place = place_of[seat.position]
        lost = result.lost_in.get(seat.position)
        seat.lost_in_round = None if lost is None else lost + 1
    Seat.objects.bulk_update(seats, ["total", "place", "lost_in_round"])
    ended = (
        result.finished
        or match.closed_early
        or (match.deal_limit is not None and len(rounds) >= match.deal_limit)
    )
    if match.result_locked and not ended:
        raise RoundConflict(
            _(
                "This table's tournament round is closed, so a correction must leave the "
                "match finished; nothing was saved."
            )
        )
    match.status = Match.Status.FINISHED if ended else Match.Status.RUNNING
    finished_before = match.finished_at
    if not ended:
        match.finished_at = None
    elif match.finished_at is None:
        match.finished_at = finished_at or timezone.now()
    match.scored_rows = scored_rows
    match.unconfirmed_rounds = (
        sum(round_.confirmed_at is None for round_, _outcomes in rounds)
        if match.confirm_results
        else 0
    )
    mark_changed(
        match, "status", "closed_early", "finished_at", "scored_rows", "unconfirmed_rounds"
    )
    announce_results(match, finished_before, match.finished_at)


def _places(standings: list[list[Any]]) -> list[tuple[int, list[Any]]]:
    """Competition ranking: two tied for first are both 1st, the next is 3rd."""
    places, place = [], 1
    for group in standings:
        places.append((place, group))
        place += len(group)
    return places


def _as_entered(outcome: Outcome) -> tuple[str, str, int | None]:
    """The outcome in storage form: kind, card codes, points."""
    if "points" in outcome:
        return Entry.Kind.POINTS, "", outcome["points"]
    kind = "out" if "out" in outcome else "hand"
    return kind, " ".join(card.code for card in parse_cards(outcome[kind])), None
