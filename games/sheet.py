"""What the score sheet shows: seats, rows of entries, standings, corrections; loaded on use."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from functools import cached_property

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.utils.translation import get_language

from cards101.rules import Variant, deck
from games import owners
from games.labels import card_name, card_notation, changed_options, outcome_label, rules_summary
from games.models import Correction, DisputedEntry, Entry, Match, Round, Seat, account_shown
from games.queries import round_outcomes


@dataclass(frozen=True, slots=True)
class RoundRef:
    """A round as the sheet shows it."""

    pk: int
    number: int


@dataclass(frozen=True, slots=True)
class Cell:
    """One player's entry in a round as the sheet shows it (read as plain values: a sheet of 30
    rounds of four is 120 of them)."""

    seat_id: int
    kind: str
    score: int
    total: int
    event: str


@dataclass
class SheetRow:
    round: RoundRef
    cells: list[Cell | None]
    correction: Correction | None  # the latest, if the round was corrected


@dataclass
class SecondEntry:
    """A second entry of a waiting round that differs from the first, player by player:
    (name, first entry, second entry, whether they differ)."""

    entry: DisputedEntry
    by_name: str
    lines: list[tuple[str, str, str, bool]]


@dataclass
class WaitingRound:
    """A round that waits for a second person's confirmation, with any second entries."""

    round: Round
    by_name: str  # who entered it
    second_entries: list[SecondEntry]


class Sheet:
    """The score sheet of one match, loaded on first use.

    Pages cache the rendered sheet per match version (`Match.version`), so a cached page
    reads none of this and costs one query whatever the number of rounds.
    """

    def __init__(self, match: Match):
        self.match = match

    @cached_property
    def seats(self) -> list[Seat]:
        return list(self.match.seats.select_related("player").order_by("position"))

    @cached_property
    def variant(self) -> Variant:
        """The match's rules, read from its options once for the page."""
        return self.match.variant

    @cached_property
    def names(self) -> dict[int, str]:
        """Display names by seat position, for messages about players."""
        return {seat.position: str(seat.player) for seat in self.seats}

    @cached_property
    def corrections(self) -> list[Correction]:
        if not self.match.corrected:
            return []
        return list(self.match.corrections.select_related("by__player"))

    @cached_property
    def rows(self) -> list[SheetRow]:
        # As the services scored them (Match.scored_rows), a cell per seat in seat order.
        latest: dict[int, Correction] = {}
        for correction in self.corrections:  # newest first
            if correction.round_id is not None:
                latest.setdefault(correction.round_id, correction)
        return [
            SheetRow(
                RoundRef(round_id, number),
                [None if cell is None else Cell(*cell) for cell in cells],
                latest.get(round_id),
            )
            for round_id, number, cells in self.match.scored_rows
        ]

    @cached_property
    def awaiting(self) -> dict[int, WaitingRound]:
        """The rounds waiting for confirmation by id (Match.confirm_results), read only when
        the match counts some: a fixed number of queries however many."""
        if not self.match.unconfirmed_rounds:
            return {}
        rounds = (
            self.match.rounds.filter(confirmed_at__isnull=True)
            .select_related("entered_by__player")
            .prefetch_related(
                "entries__seat",
                Prefetch("disputes", DisputedEntry.objects.select_related("by__player")),
            )
        )
        names = {seat.position: str(seat.player) for seat in self.seats}
        waiting = {}
        for round_ in rounds:
            first = {str(k): v for k, v in round_outcomes(round_).items()}
            second = [
                SecondEntry(
                    dispute,
                    dispute.by_name,
                    [
                        (
                            names.get(int(position), "?"),
                            outcome_label(outcome),
                            outcome_label(dispute.outcomes[position])
                            if position in dispute.outcomes
                            else "",
                            dispute.outcomes.get(position) != outcome,
                        )
                        for position, outcome in sorted(first.items(), key=lambda i: int(i[0]))
                    ],
                )
                for dispute in round_.disputes.all()
            ]
            waiting[round_.pk] = WaitingRound(round_, account_shown(round_.entered_by), second)
        return dict(sorted(waiting.items(), key=lambda item: item[1].round.number))

    @cached_property
    def recent_corrections(self) -> list[Correction]:
        return self.corrections[:3]

    @cached_property
    def round_count(self) -> int:
        return len(self.match.scored_rows)

    @cached_property
    def standings(self) -> list[Seat]:
        return sorted(self.seats, key=lambda seat: (seat.place, seat.position))

    @cached_property
    def in_play(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.has_lost]

    @cached_property
    def leads_next(self) -> Seat | None:
        """The winner of the last round leads, when the sheet can tell who that was."""
        match = self.match
        if match.is_finished or not self.rows or self.variant.leader != "previous_winner":
            return None
        last = self.rows[-1].cells
        went_out = [e.seat_id for e in last if e is not None and e.kind == Entry.Kind.OUT]
        if len(went_out) != 1:
            return None
        return next((seat for seat in self.in_play if seat.pk == went_out[0]), None)

    @cached_property
    def crumbs(self) -> list[tuple[str, str]]:
        return owners.owner_of(self.match).crumbs(self.match)

    @cached_property
    def summary(self) -> str:
        return rules_summary(self.variant, self.match.preset)

    @cached_property
    def house_rules(self) -> list[tuple[str, str]]:
        return changed_options(self.variant, self.match.preset)


@functools.lru_cache(maxsize=8)
def _card_grid(deck_size: int, language: str) -> str:
    """The buttons of the card grid, the same for every player: rendered once per language."""
    cards = [
        {"code": c.code, "suit": c.suit, "label": card_notation(c), "title": card_name(c)}
        for c in deck(deck_size)
    ]
    # render_to_string returns a SafeString: the page inserts it as HTML.
    return render_to_string("games/_card_grid.html", {"cards": cards})


def card_grid(match: Match) -> str:
    return _card_grid(match.variant.deck_size, get_language())
