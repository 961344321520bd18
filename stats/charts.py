"""Charts drawn on the server as SVG geometry (pure Python): the template draws the shapes,
so that no script and no inline style reach the page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 600
HEIGHT = 200
PAD = 28  # room for the axis labels
TICKS = 4  # dates under a line chart's x-axis, at most


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Tick:
    """A label under the x-axis at a point's x; `anchor` keeps the ends inside the chart."""

    x: float
    label: str
    anchor: str


@dataclass(frozen=True)
class LineChart:
    """A line through the values in order, with the lowest and highest marked."""

    points: list[Point]
    polyline: str
    low: float
    high: float
    low_y: float
    high_y: float
    ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def tick_y(self) -> int:
        return HEIGHT - PAD + 18


def line(
    values: Sequence[float], labels: Sequence[str], ticks: Sequence[str] = ()
) -> LineChart | None:
    """The values left to right (the first at the left), scaled to fill the chart; `ticks`, a
    short label a value (its day), are written under a few of them, the first and the last
    among them, each label once."""
    if not values:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(1, len(values) - 1)
    points = [
        Point(
            round(PAD + index * step, 1),
            round(HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD), 1),
            label,
        )
        for index, (value, label) in enumerate(zip(values, labels, strict=True))
    ]
    return LineChart(
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        low=low,
        high=high,
        low_y=HEIGHT - PAD,
        high_y=PAD if high != low else HEIGHT - PAD,
        ticks=_ticks(points, ticks),
    )


def _ticks(points: list[Point], labels: Sequence[str]) -> list[Tick]:
    if not labels:
        return []
    last = len(points) - 1
    shown = min(TICKS, len(points))
    chosen = sorted({round(i * last / (shown - 1)) if shown > 1 else 0 for i in range(shown)})
    ticks: list[Tick] = []
    for index in chosen:
        if ticks and ticks[-1].label == labels[index]:
            continue  # the same day again: said once, where it starts
        anchor = "start" if index == 0 else "end" if index == last else "middle"
        ticks.append(Tick(points[index].x, labels[index], anchor))
    return ticks


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    height: float
    place: int
    table_size: int
    label: str
    first: bool


@dataclass(frozen=True)
class PlacesChart:
    bars: list[Bar]
    bar_width: float
    width: int = WIDTH
    height: int = HEIGHT


def places(results: Sequence[tuple[int, int, str]]) -> PlacesChart | None:
    """A bar a match, oldest at the left: (place, table size, label). A first place fills the
    height, a last place shows a sliver, so that the bars read 'higher is better' at any table
    size."""
    if not results:
        return None
    slot = (WIDTH - 2 * PAD) / len(results)
    usable = HEIGHT - 2 * PAD
    bars = []
    for index, (place, size, label) in enumerate(results):
        share = (size - place) / (size - 1) if size > 1 else 1.0
        height = round(max(0.06, share) * usable, 1)
        bars.append(
            Bar(
                x=round(PAD + index * slot + slot * 0.15, 1),
                y=round(HEIGHT - PAD - height, 1),
                height=height,
                place=place,
                table_size=size,
                label=label,
                first=place == 1,
            )
        )
    return PlacesChart(bars=bars, bar_width=round(slot * 0.7, 1))
