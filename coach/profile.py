"""What the coach shows on a player's profile, read: their accuracy over time (a point a
reviewed table, a point a week when there are many), the kinds of mistakes they make most
(each with its costliest example), and their accuracy against the site's at the same rules.

Only the person's own moves count (`by` ""): never a stand-in's, and a bot's player has
none. Two queries for a player with reviewed moves, one for a player with none; the site's
accuracy per rules is read once for everyone and kept in the cache a few minutes."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Avg, Count, F, Max
from django.db.models.expressions import Window
from django.db.models.functions import RowNumber
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from cards101.analysis import KINDS
from coach.models import KIND_NAMES, ReviewedDecision
from games.labels import preset_label
from games.models import Player
from stats import charts

# More reviewed tables than this: the chart draws a point a week.
WEEKLY_FROM = 30
POINTS = 60  # the latest points drawn
SITE_CACHE_SECONDS = 10 * 60
SITE_KEY = "coach:site-accuracy"


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


def own_moves(player: Player):
    return ReviewedDecision.objects.own().filter(player=player)


def overall_of(player: Player | None) -> Overall | None:
    """The player's accuracy as the profile's panel gives it (one query), None when none of
    their own moves was reviewed."""
    if player is None:
        return None
    found = own_moves(player).aggregate(
        accuracy=Avg("accuracy"),
        decisions=Count("pk"),
        tables=Count("review__table", distinct=True),
    )
    if not found["decisions"]:
        return None
    return Overall(round(found["accuracy"]), found["decisions"], found["tables"])


def panel_of(player: Player) -> CoachPanel | None:
    """The coach's panel of the player, or None when none of their own moves was reviewed."""
    tables = list(
        own_moves(player)
        .values("review__table_id", "review__table__preset")
        .annotate(accuracy=Avg("accuracy"), decisions=Count("pk"), at=Max("review__created_at"))
        .order_by("at", "review__table_id")
    )
    if not tables:
        return None
    points = _points(tables)
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
        kinds=kinds_of(player),
        versus=_versus(tables),
        decisions=decisions,
        accuracy=round(sum(row["accuracy"] * row["decisions"] for row in tables) / decisions),
        tables=len(tables),
    )


def _points(tables: list[dict]) -> list[Point]:
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


def kinds_of(player: Player) -> list[Kind]:
    """The kinds of the player's mistakes, the most frequent first, each with its costliest
    example (one query: a window over the kinds)."""
    by_kind = [F("kind")]
    rows = (
        own_moves(player)
        .exclude(kind="")
        .annotate(
            rank=Window(RowNumber(), partition_by=by_kind, order_by=[F("loss").desc(), "pk"]),
            times=Window(Count("pk"), partition_by=by_kind),
        )
        .filter(rank=1)
        .values("kind", "times", "loss", "index", "review__round", "review__table_id")
    )
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


def _versus(tables: list[dict]) -> list[Versus]:
    mine: dict[str, list[float]] = {}
    for row in tables:
        total = mine.setdefault(row["review__table__preset"], [0.0, 0])
        total[0] += row["accuracy"] * row["decisions"]
        total[1] += row["decisions"]
    site = site_accuracy()
    return [
        Versus(preset=preset, mine=points / decisions, decisions=decisions, site=site.get(preset))
        for preset, (points, decisions) in sorted(mine.items(), key=lambda item: -item[1][1])
    ]


def site_accuracy() -> dict[str, float]:
    """The accuracy of every person's own reviewed moves on the site, per rules (preset):
    read once and kept in the cache for a few minutes."""
    return cache.get_or_set(SITE_KEY, _read_site_accuracy, SITE_CACHE_SECONDS)


def _read_site_accuracy() -> dict[str, float]:
    rows = (
        ReviewedDecision.objects.own()
        .values("review__table__preset")
        .annotate(accuracy=Avg("accuracy"))
        .order_by()
    )
    return {row["review__table__preset"]: row["accuracy"] for row in rows}
