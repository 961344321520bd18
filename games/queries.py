"""What the score sheet's pages read of matches: names to suggest, rounds as entered, what a
round would score (saving nothing), and who may confirm a round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from cards101.rules import score_match
from cards101.rules.scoring import RoundResult
from core.names import sort_key
from games import owners
from games.models import Entry, Match, Player, Round

# An outcome as the score sheet sends it: {"out": "QS"}, {"hand": "9H AC"} or {"points": 17}.
Outcome = Mapping[str, Any]


# Every player's outcome of one round, keyed by seat position.
Outcomes = Mapping[int, Outcome]


RoundRows = list[tuple[Round, dict[int, Outcome]]]


def known_player_names(user) -> list[str]:
    """Names to suggest when seating a match: people this user has sat with, and their guests."""
    names = (
        Player.objects.filter(Q(added_by=user) | Q(seats__match__seats__player__user=user))
        .order_by()  # sorted below, once the duplicates are gone
        .values_list("name", flat=True)
    )
    return sorted(set(names), key=sort_key)


def preview_round(*, match: Match, outcomes: Outcomes, round_id: int | None = None) -> RoundResult:
    """What a new round (or the round `round_id`) would score with these outcomes, saving
    nothing."""
    loaded = load_rounds(match)
    rounds = [outcome for _round, outcome in loaded]
    ids = [round_.pk for round_, _outcome in loaded]
    if round_id in ids:
        index = ids.index(round_id)
        rounds = [*rounds[:index], dict(outcomes)]
    else:
        index = len(rounds)
        rounds.append(dict(outcomes))
    keys = list(match.seats.order_by("position").values_list("position", flat=True))
    return score_match(match.variant, keys, rounds, cut=cut_rounds(loaded[:index])).rounds[index]


def round_outcomes(round_: Round) -> dict[int, Outcome]:
    """A round's outcomes as entered, keyed by seat position (its entries prefetched)."""
    return {e.seat.position: entry_outcome(e) for e in round_.entries.all()}


def entry_outcome(entry: Entry) -> Outcome:
    if entry.kind == Entry.Kind.POINTS:
        return {"points": entry.points}
    return {entry.kind: entry.cards}


def cut_rounds(rounds: RoundRows) -> list[int]:
    """The indices of the rounds a played table cut at the engine's move limit."""
    return [index for index, (round_, _outcomes) in enumerate(rounds) if round_.cut]


def load_rounds(match: Match) -> RoundRows:
    """Every round of the match with the outcomes as entered, keyed by seat position."""
    rounds = match.rounds.order_by("number").prefetch_related("entries__seat")
    return [(r, round_outcomes(r)) for r in rounds]


def confirm_refusal(match: Match, round_: Round, user, *, second_entry=False) -> str | None:
    """Why this user may not confirm a round that waits (or enter it a second time, with
    `second_entry`), or None: a director may; else another player at the table with an
    account, while the owner lets them keep score; a round entered twice differently waits
    for a director (its disputes prefetched)."""
    if owners.directs(match, user):
        return None
    number = {"number": round_.number}
    if not user.is_authenticated or not match.seats.filter(player__user=user).exists():
        return (
            _("Only another player at this table or a director can confirm round %(number)s.")
            % number
        )
    reason = owners.refusal(match, user)
    if reason is not None:
        return reason
    if user.pk == round_.entered_by_id:
        return (
            _(
                "You entered round %(number)s yourself: another player at the table or a "
                "director confirms it."
            )
            % number
        )
    if not second_entry and any(d.by_id != user.pk for d in round_.disputes.all()):
        return (
            _("Round %(number)s was entered twice, differently: a director chooses which stands.")
            % number
        )
    return None
