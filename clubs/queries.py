"""What the clubs' pages read: who runs a club, and a season's table."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from clubs.models import Club, Member, Season
from tournaments.models import Tournament
from tournaments.queries import standings_of


def runs(club: Club, user) -> bool:
    """May `user` run the club (its owner and directors)?"""
    if not user.is_authenticated:
        return False
    return (
        club.owner_id == user.pk
        or club.members.filter(
            player__user=user, role__in=[Member.Role.OWNER, Member.Role.DIRECTOR]
        ).exists()
    )


@dataclass(frozen=True)
class SeasonRow:
    """A player's line of a season's table: the tournament points of the nights that count
    (each player's best `best_nights`, or all), the nights played, and the place (ties share
    it)."""

    player_id: int
    points: Fraction
    nights: int
    place: int


def season_nights(season: Season) -> list[Tournament]:
    """The club's finished nights dated within the season, oldest first."""
    return list(
        Tournament.objects.filter(
            club_id=season.club_id,
            status=Tournament.Status.FINISHED,
            date__gte=season.starts,
            date__lte=season.ends,
        ).order_by("date", "pk")
    )


def season_table(season: Season) -> list[SeasonRow]:
    """The season's table in ranking order: for each player who played a night that counts
    (members or not), the sum of the tournament points they earned there, most first; a
    season of best N nights sums each player's N best. Players level on points share a place,
    the one who played fewer nights listed first."""
    earned: dict[int, list[Fraction]] = {}
    for night in season_nights(season):
        for standing in standings_of(night):
            if standing.tables:  # entered, but sat at no table: not a night played
                earned.setdefault(standing.player, []).append(standing.points)
    rows = []
    for player_id, points in earned.items():
        counted = sorted(points, reverse=True)[: season.best_nights or None]
        rows.append((sum(counted, Fraction(0)), len(points), player_id))
    rows.sort(key=lambda row: (-row[0], row[1], row[2]))
    table, place = [], 0
    for index, (points, nights, player_id) in enumerate(rows):
        if index == 0 or points != rows[index - 1][0]:
            place = index + 1
        table.append(SeasonRow(player_id=player_id, points=points, nights=nights, place=place))
    return table
