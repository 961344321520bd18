"""Awards only 101 has, for a club night and a season, worked out from the rounds that count.

The awards are pure functions over `RoundRecord`s (one player's line of one round), so they are
tested without the database; the loaders below read those records for a night, a season or a
player's profile in a fixed number of queries. How each award is worked out: docs/awards.md.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from cards101.rules import parse_card
from clubs.models import Season
from clubs.seasons import season_nights
from games.models import Entry, Match, Player, Round
from tournaments.models import Tournament

# The kinds of award, by their stable keys, in the order pages list them.
RESETS_101 = "resets_101"
QUEEN_OUTS = "queen_outs"
COMEBACK = "comeback"
ROUNDS_WON = "rounds_won"
FEWEST_POINTS = "fewest_points"
KINDS = (RESETS_101, QUEEN_OUTS, COMEBACK, ROUNDS_WON, FEWEST_POINTS)

# Fewest points a round goes to players who played at least this many rounds, and at least
# half as many as whoever played most: a good start is not a good night (docs/awards.md).
FEWEST_POINTS_MIN_ROUNDS = 10


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One player's line of one round, as the score sheet stored it."""

    player_id: int
    match_id: int
    round_number: int
    kind: str  # Entry.Kind: "out", "hand" or "points"
    went_out_with: str  # the card code gone out with ("QS"); "" unless kind is "out"
    score: int
    total: int  # after the round, resets done ("reset_to_0": 101 became 0)
    event: str  # Entry.Event: "", "reset_to_0", "reset_to_50" or "lost"
    won_match: bool = False  # the player's seat was placed first in the finished match


@dataclass(frozen=True, slots=True)
class Award:
    """An award of a night or a season: its kind (a key of KINDS), who shares it (ids, in
    order), and the figure it was won with (a count, a total, or points a round)."""

    kind: str
    player_ids: tuple[int, ...]
    figure: int | Fraction

    @property
    def title(self) -> str:
        return {
            RESETS_101: gettext("Most resets at exactly 101"),
            QUEEN_OUTS: gettext("Most rounds won with a Queen"),
            COMEBACK: gettext("Best comeback"),
            ROUNDS_WON: gettext("Most rounds won"),
            FEWEST_POINTS: gettext("Fewest penalty points a round"),
        }[self.kind]

    @property
    def text(self) -> str:
        """The figure in words: "3 resets at exactly 101"."""
        count = self.figure
        if self.kind == RESETS_101:
            text = ngettext(
                "%(count)s reset at exactly 101", "%(count)s resets at exactly 101", count
            )
        elif self.kind == QUEEN_OUTS:
            text = ngettext(
                "%(count)s round won with a Queen", "%(count)s rounds won with a Queen", count
            )
        elif self.kind == COMEBACK:
            text = ngettext(
                "won a match after a total of %(count)s point",
                "won a match after a total of %(count)s points",
                count,
            )
        elif self.kind == ROUNDS_WON:
            text = ngettext("%(count)s round won", "%(count)s rounds won", count)
        else:
            average = number_format(round(float(self.figure), 1), decimal_pos=1)
            return gettext("%(average)s points a round") % {"average": average}
        return text % {"count": count}


# --- the awards, from the records -----------------------------------------------------------


def awards(records: Iterable[RoundRecord]) -> list[Award]:
    """Every award the records give, in the order of KINDS; an award nobody earned (no reset,
    no Queen) is left out."""
    records = list(records)
    found = [
        most_resets_101(records),
        most_queen_outs(records),
        best_comeback(records),
        most_rounds_won(records),
        fewest_points(records),
    ]
    return [award for award in found if award is not None]


def most_resets_101(records: Iterable[RoundRecord]) -> Award | None:
    """Most totals of exactly 101 reset to 0 (the `reset_to_0` event, under every preset;
    without `reset_at_101` a total of 101 loses and earns nothing)."""
    counts = Counter(record.player_id for record in records if record.event == "reset_to_0")
    return _leaders(RESETS_101, counts)


def most_queen_outs(records: Iterable[RoundRecord]) -> Award | None:
    """Most rounds gone out with a Queen (any Queen)."""
    counts = Counter(
        record.player_id
        for record in records
        if record.kind == "out" and record.went_out_with and _is_queen(record.went_out_with)
    )
    return _leaders(QUEEN_OUTS, counts)


def best_comeback(records: Iterable[RoundRecord]) -> Award | None:
    """The highest total a match's winner had at some point of it (after a round's resets);
    a winner who never had more than 0 came back from nothing."""
    highest: dict[int, int] = {}
    for record in records:
        if record.won_match and record.total > 0:
            highest[record.player_id] = max(highest.get(record.player_id, 0), record.total)
    return _leaders(COMEBACK, highest)


def most_rounds_won(records: Iterable[RoundRecord]) -> Award | None:
    """Most rounds gone out (under "last holder" everyone out before the last holder won)."""
    counts = Counter(record.player_id for record in records if record.kind == "out")
    return _leaders(ROUNDS_WON, counts)


def fewest_points(records: Iterable[RoundRecord]) -> Award | None:
    """The lowest average score a round played (going out with a Queen's bonus included),
    among the players with enough rounds (FEWEST_POINTS_MIN_ROUNDS, and half the most)."""
    scores: dict[int, list[int]] = {}
    for record in records:
        scores.setdefault(record.player_id, []).append(record.score)
    if not scores:
        return None
    most = max(len(played) for played in scores.values())
    needed = max(FEWEST_POINTS_MIN_ROUNDS, math.ceil(most / 2))
    averages = {
        player_id: Fraction(sum(played), len(played))
        for player_id, played in scores.items()
        if len(played) >= needed
    }
    return _leaders(FEWEST_POINTS, averages, lowest=True)


def _leaders(
    kind: str, figures: Mapping[int, int | Fraction], lowest: bool = False
) -> Award | None:
    """The award to every player level at the best figure (ties share it)."""
    if not figures:
        return None
    best = min(figures.values()) if lowest else max(figures.values())
    players = tuple(sorted(player for player, figure in figures.items() if figure == best))
    return Award(kind=kind, player_ids=players, figure=best)


def _is_queen(code: str) -> bool:
    return parse_card(code).is_queen


# --- reading the records --------------------------------------------------------------------


def rounds_that_count() -> QuerySet[Round]:
    """The rounds awards are worked out from: those that count (a round still waiting for a
    second player's confirmation does not)."""
    return Round.objects.counted()


def _records_by_night(night_ids: Iterable[int]) -> dict[int, list[RoundRecord]]:
    """The records of these nights' tables, by night (one query)."""
    rows = (
        Entry.objects.filter(
            round__in=rounds_that_count(),
            round__match__table__round__tournament_id__in=list(night_ids),
        )
        .order_by()
        .values_list(
            "round__match__table__round__tournament_id",
            "seat__player_id",
            "round__match_id",
            "round__number",
            "kind",
            "cards",
            "score",
            "total",
            "event",
            "seat__place",
            "round__match__status",
            named=True,
        )
    )
    records: dict[int, list[RoundRecord]] = {}
    for row in rows:
        went_out = row.kind == Entry.Kind.OUT
        won = row.seat__place == 1 and row.round__match__status == Match.Status.FINISHED
        line = RoundRecord(
            row.seat__player_id,
            row.round__match_id,
            row.round__number,
            row.kind,
            row.cards.strip() if went_out else "",
            row.score,
            row.total,
            row.event,
            won_match=won,
        )
        records.setdefault(row.round__match__table__round__tournament_id, []).append(line)
    return records


def is_night(tournament: Tournament) -> bool:
    """A club's finished tournament: a night whose awards are given."""
    return tournament.club_id is not None and tournament.status == Tournament.Status.FINISHED


def night_awards(tournament: Tournament) -> list[Award]:
    """The awards of a club's finished night (one query); none for any other tournament."""
    if not is_night(tournament):
        return []
    return awards(_records_by_night([tournament.pk]).get(tournament.pk, []))


def season_awards(season: Season, nights: Sequence[Tournament] | None = None) -> list[Award]:
    """The awards of a season, over the nights it counts (two queries; one when the page has
    read its `nights` already)."""
    nights = [night.pk for night in (season_nights(season) if nights is None else nights)]
    if not nights:
        return []
    return awards(record for found in _records_by_night(nights).values() for record in found)


@dataclass(frozen=True)
class PlayerAward:
    """An award a player won (alone or shared) at a night or over a season."""

    award: Award
    night: Tournament | None = None
    season: Season | None = None


def awards_of_player(player_id: int) -> list[PlayerAward]:
    """The awards a player won, the latest nights and seasons first, season awards before
    night awards: one query for a player who never played a finished club night, four at most
    otherwise."""
    played = list(
        Tournament.objects.filter(
            club__isnull=False,
            status=Tournament.Status.FINISHED,
            rounds__tables__match__seats__player_id=player_id,
        )
        .distinct()
        .order_by("-date", "-pk")
    )
    if not played:
        return []
    clubs = {night.club_id for night in played}
    seasons = [
        season
        for season in Season.objects.filter(
            club_id__in=clubs,
            starts__lte=max(night.date for night in played),
            ends__gte=min(night.date for night in played),
        ).select_related("club")
        if any(_in_season(night, season) for night in played)
    ]
    nights = {night.pk: night for night in played}
    if seasons:
        # Every night of those seasons, the player's or not (the season's awards span them).
        for night in Tournament.objects.filter(
            club_id__in={season.club_id for season in seasons},
            status=Tournament.Status.FINISHED,
            date__gte=min(season.starts for season in seasons),
            date__lte=max(season.ends for season in seasons),
        ):
            nights.setdefault(night.pk, night)
    records = _records_by_night(nights)
    won = []
    for season in sorted(seasons, key=lambda season: (season.ends, season.pk), reverse=True):
        counted = [
            record
            for night in nights.values()
            if _in_season(night, season)
            for record in records.get(night.pk, [])
        ]
        won += [
            PlayerAward(award=award, season=season)
            for award in awards(counted)
            if player_id in award.player_ids
        ]
    for night in played:
        won += [
            PlayerAward(award=award, night=night)
            for award in awards(records.get(night.pk, []))
            if player_id in award.player_ids
        ]
    return won


def _in_season(night: Tournament, season: Season) -> bool:
    """Does the season count this finished club night (as clubs.queries.season_nights)?"""
    return night.club_id == season.club_id and season.starts <= night.date <= season.ends


@dataclass(frozen=True)
class ShownAward:
    """An award with its players, for a page (templates/clubs/_awards.html)."""

    award: Award
    players: list[Player]


def with_players(found: list[Award]) -> list[ShownAward]:
    """The awards with their players read (one query, none without awards); a page shows
    their names through games.audience, so a hidden name reaches only who may read it."""
    if not found:
        return []
    ids = {player_id for award in found for player_id in award.player_ids}
    players = Player.objects.in_bulk(ids)
    return [
        ShownAward(award=award, players=[players[pk] for pk in award.player_ids if pk in players])
        for award in found
    ]
