"""Tournament standings: points by place at each table, then the tie-breaks. Pure Python."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

PlayerId = Hashable

# Winner 3, last 0, evenly in between: every table size gives 1.5 points a player on average,
# so sitting at a table of 3 rather than 4 neither helps nor hurts.
DEFAULT_POINTS = {4: (3, 2, 1, 0), 3: (3, Fraction(3, 2), 0), 2: (3, 0)}
TIE_BREAK_NAMES = (
    "penalty_total",
    "deals_won",
    "opponents_points",
    "head_to_head",
    "fewest_losses",
)


@dataclass(frozen=True)
class TableResult:
    """How one finished table ended: places (ties share a place), final totals and more."""

    round: int
    places: Mapping[PlayerId, int]
    totals: Mapping[PlayerId, int]
    deals_won: Mapping[PlayerId, int] = field(default_factory=dict)
    lost: frozenset = frozenset()


@dataclass
class Standing:
    """One player's line: tournament points, tie-break values and rank (ties share it)."""

    player: PlayerId
    points: Fraction = Fraction(0)
    tables: int = 0
    penalty_total: int = 0
    deals_won: int = 0
    losses: int = 0
    opponents_points: Fraction = Fraction(0)
    head_to_head: int = 0
    rank: int = 0
    opponents: list[PlayerId] = field(default_factory=list)
    # Tournament points earned in each round, by round number.
    round_points: dict[int, Fraction] = field(default_factory=dict)

    def value(self, name: str) -> Fraction | int:
        """The figure a criterion ("points" or a tie-break) compares."""
        return {
            "points": self.points,
            "penalty_total": self.penalty_total,
            "deals_won": self.deals_won,
            "opponents_points": self.opponents_points,
            "head_to_head": self.head_to_head,
            "fewest_losses": self.losses,
        }[name]


def check_points(points_by_size: Mapping[int, Sequence]) -> dict[int, tuple[Fraction, ...]]:
    """Points by place for each table size; raise ValueError when a list does not fit."""
    checked = {}
    for size, points in points_by_size.items():
        size = int(size)
        if size not in (2, 3, 4):
            raise ValueError(f"tables have 2, 3 or 4 players, not {size}")
        values = tuple(Fraction(str(p)) for p in points)
        if len(values) != size:
            raise ValueError(f"a table of {size} needs {size} numbers, one per place")
        if any(v < 0 for v in values):
            raise ValueError("tournament points cannot be negative")
        if list(values) != sorted(values, reverse=True):
            raise ValueError("a better place cannot give fewer points than a worse one")
        checked[size] = values
    return checked


def table_points(
    places: Mapping[PlayerId, int], points_by_size: Mapping[int, Sequence]
) -> dict[PlayerId, Fraction]:
    """Tournament points of one table; players tied for a place share those places' points."""
    scheme = check_points({len(places): points_by_size[len(places)]})[len(places)]
    tied: dict[int, list[PlayerId]] = defaultdict(list)
    for player, place in places.items():
        tied[place].append(player)
    points = {}
    for place, players in tied.items():
        shared = scheme[place - 1 : place - 1 + len(players)]
        for player in players:
            points[player] = sum(shared, Fraction(0)) / len(players)
    return points


def compute_standings(
    players: Iterable[PlayerId],
    tables: Iterable[TableResult],
    points_by_size: Mapping[int, Sequence] = DEFAULT_POINTS,
    tie_breaks: Sequence[str] = ("penalty_total", "deals_won", "opponents_points"),
) -> list[Standing]:
    """Everyone's standing, best first; players equal on points and every tie-break share a rank
    and keep the order of `players` among themselves.

    Tie-breaks, in the order given: penalty_total (sum of final totals, lower is better),
    deals_won (more is better), opponents_points (the tournament points of everyone they
    sat with, once per table; more is better), head_to_head (among the players still tied:
    places above minus places below them at shared tables; more is better), fewest_losses
    (tables at which they went over the limit; fewer is better).
    """
    unknown = [name for name in tie_breaks if name not in TIE_BREAK_NAMES]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}")
    tables = list(tables)
    lines = {player: Standing(player) for player in players}
    for table in tables:
        for player, points in table_points(table.places, points_by_size).items():
            line = lines.setdefault(player, Standing(player))
            line.points += points
            line.round_points[table.round] = line.round_points.get(table.round, 0) + points
            line.tables += 1
            line.penalty_total += table.totals[player]
            line.deals_won += table.deals_won.get(player, 0)
            line.losses += player in table.lost
            line.opponents.extend(other for other in table.places if other != player)
    for line in lines.values():
        line.opponents_points = sum((lines[o].points for o in line.opponents), Fraction(0))

    ordered = _rank(list(lines.values()), ["points", *tie_breaks], tables)
    return ordered


_BETTER_IS_LOWER = {"penalty_total", "fewest_losses"}


def deciding(above: Standing, below: Standing, tie_breaks: Sequence[str]) -> str | None:
    """The tie-break that puts `above` before `below` when their points are equal: the first
    whose figures differ (None when every one is equal, or the points differ)."""
    if above.points != below.points:
        return None
    return next((name for name in tie_breaks if above.value(name) != below.value(name)), None)


def _key(line: Standing, name: str):
    value = line.value(name)
    return value if name in _BETTER_IS_LOWER else -value


def _rank(lines: list[Standing], criteria: list[str], tables: list[TableResult]) -> list[Standing]:
    """Sort by the first criterion; break each remaining tie by the next ones, in turn."""
    # Players tied on everything keep the order they were given in (the caller's choice).
    groups = _split([lines], criteria, tables)
    ordered, rank = [], 1
    for group in groups:
        for line in group:
            line.rank = rank
        ordered.extend(group)
        rank += len(group)
    return ordered


def _split(
    groups: list[list[Standing]], criteria: list[str], tables: list[TableResult]
) -> list[list[Standing]]:
    if not criteria:
        return groups
    name, rest = criteria[0], criteria[1:]
    result = []
    for group in groups:
        if len(group) == 1:
            result.append(group)
            continue
        if name == "head_to_head":
            _head_to_head(group, tables)
        by_value: dict = defaultdict(list)
        for line in group:
            by_value[_key(line, name)].append(line)
        result.extend(_split([by_value[k] for k in sorted(by_value)], rest, tables))
    return result


def _head_to_head(group: list[Standing], tables: list[TableResult]) -> None:
    """Among the players of `group`: places above minus places below each other."""
    members = {line.player for line in group}
    for line in group:
        line.head_to_head = 0
    by_player = {line.player: line for line in group}
    for table in tables:
        present = [p for p in table.places if p in members]
        for a in present:
            for b in present:
                if a != b:
                    difference = table.places[b] - table.places[a]
                    by_player[a].head_to_head += (difference > 0) - (difference < 0)
