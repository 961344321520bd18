"""What the coach shows on a player's profile, shaped from what coach.queries reads: their
accuracy over time (a point a reviewed table, a point a week when there are many), the kinds
of mistakes they make most (each with its costliest example), and their accuracy against the
site's at the same rules. Reads nothing itself.

Only the person's own moves count (`by` ""): never a stand-in's, and a bot's player has
none."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from cards101.analysis import KINDS
from coach.models import KIND_NAMES
from games.labels import preset_label
from stats import charts

# More reviewed tables than this: the chart draws a point a week.
WEEKLY_FROM = 30
POINTS = 60  # the latest points drawn


@dataclass(frozen=True)
class Point:
    """One point of the accuracy chart: a reviewed table, or a week of them."""

    at: datetime.datetime
    accuracy: float
    decisions: int
    week: bool = False

    @property
    def label(self) -> str:
        day = date_format(localtime(self.at), "SHORT_DATE_FORMAT")
        return str(_("week of %(day)s") % {"day": day}) if self.week else day

    @property
    def percent(self) -> int:
        return round(self.accuracy)


@dataclass(frozen=True)
class Kind:
    """A kind of mistake, how often the player made it, and their costliest one."""

    kind: str
    times: int
    loss: float
    replay: str  # the replay of its round, at the move

    @property
    def name(self) -> str:
        return str(KIND_NAMES.get(self.kind, KIND_NAMES["other"]))

    @property
    def lost(self) -> int:
        return round(self.loss)


@dataclass(frozen=True)
class Versus:
    """The player's accuracy at one set of rules, and the site's."""

    preset: str
    mine: float
    decisions: int
    site: float | None

    @property
    def rules(self) -> str:
        return preset_label(self.preset)

    @property
    def mine_percent(self) -> int:
        return round(self.mine)

    @property
    def site_percent(self) -> int | None:
        return None if self.site is None else round(self.site)


@dataclass(frozen=True)
class CoachPanel:
    points: list[Point]
    chart: charts.LineChart | None
    kinds: list[Kind]
    versus: list[Versus]
    decisions: int
    accuracy: int  # over every reviewed table, not only those the chart draws
    tables: int


@dataclass(frozen=True)
class Overall:
    """A player's accuracy as their profile gives it: over their own moves at every reviewed
    table (a match's review gives that match's alone)."""

    accuracy: int
    decisions: int
    tables: int


def panel_from(tables: list[dict], kinds: list[Kind], site: Mapping[str, float]) -> CoachPanel:
    """The coach's panel of a player from their reviewed tables (one row a table, in the order
    they were reviewed: its preset, the player's accuracy and decisions there, when), their
    kinds of mistakes and the site's accuracy per rules."""
    points = points_of(tables)
    decisions = sum(row["decisions"] for row in tables)
    return CoachPanel(
        points=points,
        # One point is no line: the figures alone say it.
        chart=charts.line(
            [point.accuracy for point in points],
            [point.label for point in points],
            [date_format(localtime(point.at), "MONTH_DAY_FORMAT") for point in points],
        )
        if len(points) > 1
        else None,
        kinds=kinds,
        versus=versus_of(tables, site),
        decisions=decisions,
        accuracy=round(sum(row["accuracy"] * row["decisions"] for row in tables) / decisions),
        tables=len(tables),
    )


def points_of(tables: list[dict]) -> list[Point]:
    """The chart's points: a point a table, or a week when there are more than WEEKLY_FROM."""
    if len(tables) <= WEEKLY_FROM:
        return [Point(row["at"], row["accuracy"], row["decisions"]) for row in tables[-POINTS:]]
    weeks: dict[tuple[int, int], list[dict]] = {}
    for row in tables:
        weeks.setdefault(localtime(row["at"]).isocalendar()[:2], []).append(row)
    points = []
    for rows in weeks.values():
        decisions = sum(row["decisions"] for row in rows)
        accuracy = sum(row["accuracy"] * row["decisions"] for row in rows) / decisions
        first = localtime(rows[0]["at"])
        monday = first - datetime.timedelta(days=first.weekday())
        points.append(Point(monday, accuracy, decisions, week=True))
    return points[-POINTS:]


def kinds_from(rows: Iterable[dict]) -> list[Kind]:
    """The kinds of a player's mistakes, the most frequent first, from one row a kind (its
    costliest example's loss and place, and how often)."""
    found = [
        Kind(
            kind=row["kind"],
            times=row["times"],
            loss=row["loss"],
            replay=reverse("play:replay", args=[row["review__table_id"], row["review__round"] + 1])
            + f"?step={row['index']}",
        )
        for row in rows
    ]
    return sorted(found, key=lambda kind: (-kind.times, -kind.loss, KINDS.index(kind.kind)))


def versus_of(tables: list[dict], site: Mapping[str, float]) -> list[Versus]:
    """The player's accuracy at each set of rules they played, the most played first, beside
    the site's."""
    mine: dict[str, list[float]] = {}
    for row in tables:
        total = mine.setdefault(row["review__table__preset"], [0.0, 0])
        total[0] += row["accuracy"] * row["decisions"]
        total[1] += row["decisions"]
    return [
        Versus(preset=preset, mine=points / decisions, decisions=decisions, site=site.get(preset))
        for preset, (points, decisions) in sorted(mine.items(), key=lambda item: -item[1][1])
    ]
