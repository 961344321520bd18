"""A season's table: the pure ranking of its nights' results (`rank_season`), and what the
season pages read (the nights it counts, its table, kept in the cache or, once the season is
closed, in the season's row)."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.errors import ClubError
from clubs.models import Club, Season
from games.models import Player
from tournaments.models import Tournament
from tournaments.queries import standings_of_many

# A season's table is worked out again only when one of its nights, or the season, changes.
TABLE_CACHE_SECONDS = 24 * 3600
# Lines of a season's table the club page and the projector show.
TOP_LINES = 5
PROJECTOR_LINES = 10


@dataclass(frozen=True)
class NightLine:
    """A player's result at one night: the tournament points they earned and their place."""

    player_id: int
    points: Fraction
    place: int


@dataclass(frozen=True)
class SeasonRow:
    """A player's line of a season's table: the tournament points of the nights that count
    (each player's best `best_nights`, or all), the nights played, and the place (ties share
    it; None below the season's minimum of nights). `wins` are nights won (first place there),
    `average` the average place at the nights played; `change` the places moved since the
    table before the last night (up is positive), `new` a place the player had not then."""

    player_id: int
    points: Fraction
    nights: int
    place: int | None
    wins: int = 0
    average: Fraction | None = None
    change: int | None = None
    new: bool = False

    @property
    def up(self) -> int:
        """Places moved up since the last night (0: none, or down)."""
        return max(self.change or 0, 0)

    @property
    def down(self) -> int:
        return max(-(self.change or 0), 0)


def rank_season(
    nights: Sequence[Sequence[NightLine]],
    *,
    best_nights: int | None = None,
    min_nights: int | None = None,
) -> list[SeasonRow]:
    """The table of these nights (oldest first), with each player's change since the table of
    all nights but the last."""
    table = _rank(nights, best_nights, min_nights)
    if len(nights) < 2:
        return table
    before = {row.player_id: row.place for row in _rank(nights[:-1], best_nights, min_nights)}
    rows = []
    for row in table:
        if row.place is None:
            rows.append(row)
            continue
        earlier = before.get(row.player_id)
        change, new = (None, True) if earlier is None else (earlier - row.place, False)
        rows.append(_with(row, change=change, new=new))
    return rows


def _rank(
    nights: Sequence[Sequence[NightLine]], best_nights: int | None, min_nights: int | None
) -> list[SeasonRow]:
    """Most points first; level on points, the one who played fewer nights first (the same
    points from fewer nights), then by id, sharing the place. Players below the minimum of
    nights follow, without a place, in the same order."""
    played: dict[int, list[NightLine]] = {}
    for night in nights:
        for line in night:
            played.setdefault(line.player_id, []).append(line)
    rows = []
    for player_id, lines in played.items():
        counted = sorted((line.points for line in lines), reverse=True)[: best_nights or None]
        rows.append(
            SeasonRow(
                player_id=player_id,
                points=sum(counted, Fraction(0)),
                nights=len(lines),
                place=None,
                wins=sum(1 for line in lines if line.place == 1),
                average=Fraction(sum(line.place for line in lines), len(lines)),
            )
        )
    rows.sort(key=lambda row: (-row.points, row.nights, row.player_id))
    ranked = [row for row in rows if row.nights >= (min_nights or 0)]
    table, place = [], 0
    for index, row in enumerate(ranked):
        if index == 0 or row.points != ranked[index - 1].points:
            place = index + 1
        table.append(_with(row, place=place))
    return table + [row for row in rows if row.nights < (min_nights or 0)]


def _with(row: SeasonRow, **changes) -> SeasonRow:
    return SeasonRow(**{**row.__dict__, **changes})


# --- settings ---------------------------------------------------------------------------------


def check_settings(
    name: str,
    starts: datetime.date,
    ends: datetime.date,
    best_nights: int | None = None,
    min_nights: int | None = None,
) -> str:
    """The season's name, tidied, once its settings make sense together; a ClubError says which
    does not. The one check of a season's settings: its form (clubs.season_forms) and its
    services (create_season, update_season) both ask here."""
    name = " ".join(name.split())
    if not name:
        raise ClubError(_("A season needs a name."))
    if ends < starts:
        raise ClubError(_("A season cannot end before it starts."))
    if best_nights is not None and best_nights < 1:
        raise ClubError(_("Count at least one night of each player, or all of them."))
    if min_nights is not None and min_nights < 1:
        raise ClubError(_("Ask at least one night to be ranked, or none."))
    return name


# --- reading ----------------------------------------------------------------------------------


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


def season_table(season: Season, nights: list[Tournament] | None = None) -> list[SeasonRow]:
    """The season's table in ranking order (`rank_season`): for each player who played a night
    that counts (members or not), the tournament points they earned there. A closed season's
    is the table it was closed with. Otherwise worked out in a fixed number of queries however
    many nights and players, and kept in the cache for the versions of its nights and of the
    season's settings. `nights`: `season_nights(season)`, when already read."""
    if season.final_table is not None:
        return kept_rows(season.final_table)
    if nights is None:
        nights = season_nights(season)
    key = _table_key(season, nights)
    table = cache.get(key)
    if table is None:
        table = _work_out(season, nights)
        cache.set(key, table, TABLE_CACHE_SECONDS)
    return table


def _table_key(season: Season, nights: list[Tournament]) -> str:
    counted = ",".join(f"{night.pk}.{night.version}" for night in nights)
    settings = f"{season.starts}:{season.ends}:{season.best_nights}:{season.min_nights}"
    digest = hashlib.sha256(f"{settings}|{counted}".encode()).hexdigest()[:24]
    return f"clubs:season-table:{season.pk}:{digest}"


def _work_out(season: Season, nights: list[Tournament]) -> list[SeasonRow]:
    standings = standings_of_many(nights)
    results = [
        [
            NightLine(player_id=standing.player, points=standing.points, place=standing.rank)
            for standing in standings[night.pk]
            if standing.tables  # entered, but sat at no table: not a night played
        ]
        for night in nights
    ]
    return rank_season(results, best_nights=season.best_nights, min_nights=season.min_nights)


def kept_table(rows: list[SeasonRow], nights: list[Tournament]) -> dict:
    """What a closed season keeps (`Season.final_table`): its rows, with each player's name as
    it was (a guest merged or deleted since still reads the same), and the nights counted."""
    players = Player.objects.in_bulk([row.player_id for row in rows])
    return {
        "rows": [
            {
                "player": row.player_id,
                "name": players[row.player_id].name if row.player_id in players else "",
                "private": players[row.player_id].private if row.player_id in players else False,
                "points": str(row.points),
                "nights": row.nights,
                "place": row.place,
                "wins": row.wins,
                "average": str(row.average) if row.average is not None else None,
                "change": row.change,
                "new": row.new,
            }
            for row in rows
        ],
        "nights": [night.pk for night in nights],
    }


def kept_rows(final_table: dict) -> list[SeasonRow]:
    return [
        SeasonRow(
            player_id=row["player"],
            points=Fraction(row["points"]),
            nights=row["nights"],
            place=row["place"],
            wins=row["wins"],
            average=Fraction(row["average"]) if row["average"] is not None else None,
            change=row["change"],
            new=row["new"],
        )
        for row in final_table["rows"]
    ]


def counted_nights(season: Season) -> list[Tournament]:
    """The nights the season's table counts: those kept when it was closed, else its nights."""
    if season.final_table is None:
        return season_nights(season)
    kept = season.final_table["nights"]
    return sorted(Tournament.objects.filter(pk__in=kept), key=lambda night: (night.date, night.pk))


@dataclass(frozen=True)
class SeasonLine:
    """A row of the table with its player, as a page shows it."""

    row: SeasonRow
    player: Player


def lines_of(season: Season, rows: list[SeasonRow]) -> list[SeasonLine]:
    """The rows with their players (one query); a player gone since the season was closed
    reads the name it was kept with."""
    players = Player.objects.in_bulk([row.player_id for row in rows])
    kept = {}
    if season.final_table is not None:
        kept = {row["player"]: row for row in season.final_table["rows"]}
    lines = []
    for row in rows:
        player = players.get(row.player_id)
        if player is None:
            gone = kept.get(row.player_id, {})
            player = Player(
                pk=row.player_id, name=gone.get("name", ""), private=gone.get("private", False)
            )
        lines.append(SeasonLine(row=row, player=player))
    return lines


def champions(lines: list[SeasonLine]) -> list[SeasonLine]:
    return [line for line in lines if line.row.place == 1]


def current_seasons(club: Club, today: datetime.date | None = None) -> list[Season]:
    """The club's seasons running today (not closed), the soonest to end first."""
    today = today or timezone.localdate()
    return list(
        club.seasons.filter(starts__lte=today, ends__gte=today, closed_at__isnull=True).order_by(
            "ends", "pk"
        )
    )


def season_lists(club: Club, today: datetime.date | None = None) -> dict[str, list[Season]]:
    """The club's seasons: running now, to come, and past (closed, or ended)."""
    today = today or timezone.localdate()
    seasons = list(club.seasons.order_by("-starts", "-pk"))
    past = [s for s in seasons if s.closed_at is not None or s.ends < today]
    running = [s for s in seasons if s not in past]
    return {
        "current": [s for s in running if s.starts <= today],
        "upcoming": [s for s in running if s.starts > today],
        "past": past,
    }


def last_night(club: Club) -> Tournament | None:
    """The club's last finished night."""
    return (
        Tournament.objects.filter(club=club, status=Tournament.Status.FINISHED)
        .order_by("-date", "-pk")
        .first()
    )
