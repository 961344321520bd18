"""Per-player results of finished matches: the one query that tournament standings and player
statistics both read (place, final total, loss, rounds gone out), in a fixed number of queries
however many matches there are."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet

from games.models import Entry, Match, Seat


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one player finished one match."""

    match_id: int
    player_id: int
    position: int
    place: int
    total: int
    lost_in_round: int | None  # the round (from 1) the player went over the limit in
    went_out: int  # rounds in which the player went out

    @property
    def lost(self) -> bool:
        return self.lost_in_round is not None


def finished_results(
    matches: QuerySet[Match], *, count_outs: bool = True
) -> dict[int, list[SeatResult]]:
    """Every seat of the finished matches among `matches`, by match id, in seat order (two
    queries; one without `count_outs`, and `went_out` is then 0)."""
    finished = matches.filter(status=Match.Status.FINISHED).values("pk")
    went_out: dict[tuple[int, int], int] = {}
    if count_outs:
        out_counts = (
            Entry.objects.filter(round__match__in=finished, kind=Entry.Kind.OUT)
            .values_list("round__match_id", "seat__player_id")
            .annotate(count=Count("pk"))
            .order_by()
        )
        went_out = {(match_id, player_id): count for match_id, player_id, count in out_counts}
    seats = (
        Seat.objects.filter(match__in=finished)
        .order_by("match_id", "position")
        .values_list("match_id", "player_id", "position", "place", "total", "lost_in_round")
    )
    results: dict[int, list[SeatResult]] = {}
    for match_id, player_id, position, place, total, lost_in_round in seats:
        results.setdefault(match_id, []).append(
            SeatResult(
                match_id=match_id,
                player_id=player_id,
                position=position,
                place=place,
                total=total,
                lost_in_round=lost_in_round,
                went_out=went_out.get((match_id, player_id), 0),
            )
        )
    return results
