"""What the tournaments' pages read: standings (kept in the cache for the tournament's
version), where a player sits now, who sits out the round being played, tables' results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache

from games import audience
from games.models import Entry, Match, Seat
from games.results import finished_results
from tournaments.models import Entrant, Table, Tournament, TournamentRound
from tournaments.standings import Standing, TableResult, compute_standings, deciding

STANDINGS_CACHE_SECONDS = 24 * 3600


@dataclass
class StandingLine:
    """A standings line with the entrant it belongs to."""

    standing: Standing
    entrant: Entrant
    tie_breaks: list  # the tournament's tie-break figures, in its order
    # Level on points with a neighbour: the tie-break that decided between them and this
    # player's figure for it; ("", None) when level on every tie-break too.
    separated_by: tuple[str, object] | None = None


@dataclass(frozen=True)
class SeatNow:
    """Where a player sits in a round being played: its tournament, round, table and seat."""

    table: Table
    seat: int  # from 1, the order of play

    @property
    def round(self) -> TournamentRound:
        return self.table.round

    @property
    def tournament(self) -> Tournament:
        return self.table.round.tournament


def seats_now(user, tournament: Tournament | None = None) -> list[SeatNow]:
    """The tables this user sits at in rounds being played (of one tournament, or of all
    running ones); one query."""
    if not user.is_authenticated:
        return []
    seats = Seat.objects.filter(
        player__user=user,
        match__table__round__status=TournamentRound.Status.PLAYING,
        match__table__round__tournament__status=Tournament.Status.RUNNING,
    )
    if tournament is not None:
        seats = seats.filter(match__table__round__tournament=tournament)
    seats = seats.select_related("match__table__round__tournament").order_by(
        "-match__table__round__tournament__date", "match_id"
    )
    return [SeatNow(seat.match.table, seat.position + 1) for seat in seats]


@dataclass(frozen=True)
class SittingOut:
    """Players checked in after the round being played was seated: they are at none of its
    tables, and sit it out."""

    entrants: list[Entrant]
    round: int  # the round being played
    next_round: int | None  # the round they are seated from; None when this is the last
    reseat: bool  # no score in the round yet: seating it again seats them now


def sitting_out(tournament: Tournament, entrants: Sequence[Entrant]) -> SittingOut | None:
    """Which of `entrants` (checked in, not dropped out) sit out the round being played, or
    None when no round is being played or they all sit at its tables. The final table seats
    only the best players: sitting it out says nothing."""
    current = tournament.rounds.order_by("number").last()
    if current is None or current.is_closed or current.is_final:
        return None
    seated = set(
        Seat.objects.filter(match__table__round=current).values_list("player_id", flat=True)
    )
    out = [e for e in entrants if e.checked_in and not e.has_dropped and e.player_id not in seated]
    if not out:
        return None
    return SittingOut(
        entrants=out,
        round=current.number,
        next_round=current.number + 1 if current.number < tournament.rounds_planned else None,
        # As reseat_round would allow: the latest round, no score entered in it.
        reseat=not has_scores(current),
    )


def standing_lines(tournament: Tournament) -> list[StandingLine]:
    entrants = {e.player_id: e for e in tournament.entrants.select_related("player")}
    standings = standings_of(tournament)
    breaks = tournament.tie_breaks
    lines = []
    for index, s in enumerate(standings):
        separated = None
        for other in standings[index - 1 : index] + standings[index + 1 : index + 2]:
            if other.points == s.points and s.tables:
                above, below = (other, s) if other.rank <= s.rank else (s, other)
                name = deciding(above, below, breaks)
                separated = (name, s.value(name)) if name else ("", None)
                break
        lines.append(
            StandingLine(s, entrants[s.player], [s.value(name) for name in breaks], separated)
        )
    return lines


def cached_standing_lines(tournament: Tournament) -> list[StandingLine]:
    """`standing_lines`, kept in the cache for the tournament's version (every change to it or
    its tables moves it) and the players' shown names."""
    names = audience.names_version(Tournament, tournament.pk)
    key = f"tournaments:standings:{tournament.pk}:{tournament.version}:{names}"
    lines = cache.get(key)
    if lines is None:
        lines = standing_lines(tournament)
        cache.set(key, lines, STANDINGS_CACHE_SECONDS)
    return lines


def standings_of(tournament: Tournament) -> list[Standing]:
    """The standings from every finished table, computed afresh (corrections count at once)."""
    return standings_of_many([tournament])[tournament.pk]


def standings_of_many(tournaments: Sequence[Tournament]) -> dict[int, list[Standing]]:
    """`standings_of` each of these tournaments, by id, in a fixed number of queries however
    many there are (a club's season reads all its nights at once)."""
    pks = [tournament.pk for tournament in tournaments]
    entrants: dict[int, list[int]] = {pk: [] for pk in pks}
    for tournament_id, player_id in (
        # In the entrants' own order (by name), as a tournament's standings read them.
        Entrant.objects.filter(tournament__in=pks).values_list("tournament_id", "player_id")
    ):
        entrants[tournament_id].append(player_id)
    results = _table_results_of(pks)
    standings = {}
    for tournament in tournaments:
        scheme = {int(size): points for size, points in tournament.points_by_place.items()}
        standings[tournament.pk] = compute_standings(
            entrants[tournament.pk], results[tournament.pk], scheme, tournament.tie_breaks
        )
    return standings


def table_results(tournament: Tournament) -> list[TableResult]:
    """Finished tables' places, totals, deals won and losses, in a fixed number of queries. A
    table with a round waiting for confirmation has not finished yet (Match.is_done)."""
    return _table_results_of([tournament.pk])[tournament.pk]


def _table_results_of(pks: list[int]) -> dict[int, list[TableResult]]:
    tables = list(
        Table.objects.filter(
            round__tournament__in=pks,
            match__status=Match.Status.FINISHED,
            match__unconfirmed_rounds=0,
        )
        .select_related("round")
        .order_by("round__tournament_id", "round__number", "number")
    )
    seats_of = finished_results(Match.objects.filter(table__in=tables))
    results: dict[int, list[TableResult]] = {pk: [] for pk in pks}
    for table in tables:
        seats = seats_of[table.match_id]
        results[table.round.tournament_id].append(
            TableResult(
                round=table.round.number,
                places={s.player_id: s.place for s in seats},
                totals={s.player_id: s.total for s in seats},
                deals_won={s.player_id: s.went_out for s in seats},
                lost=frozenset(s.player_id for s in seats if s.lost),
            )
        )
    return results


def can_finish(tournament: Tournament) -> bool:
    """Whether every round has been played and closed (as after reopening to correct)."""
    last = tournament.rounds.order_by("-number").first()
    return last is not None and last.is_closed and is_last(tournament, last)


def is_last(tournament: Tournament, round_: TournamentRound) -> bool:
    return round_.is_final or (
        round_.number >= tournament.rounds_planned and not tournament.final_table_size
    )


def history(tournament: Tournament) -> list[list[list[int]]]:
    """Earlier rounds' tables as lists of player ids in seat order."""
    seats = (
        Seat.objects.filter(match__table__round__tournament=tournament)
        .order_by("match__table__round__number", "match__table__number", "position")
        .values_list("match__table__round__number", "match__table__number", "player_id")
    )
    rounds: dict[int, dict[int, list[int]]] = {}
    for round_number, table_number, player_id in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(player_id)
    return [list(tables.values()) for _number, tables in sorted(rounds.items())]


def has_scores(round_: TournamentRound) -> bool:
    return Entry.objects.filter(round__match__table__round=round_).exists()
