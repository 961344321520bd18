"""Charts drawn on the server as SVG geometry (pure Python): the template draws the shapes,
so that no script and no inline style reach the page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 600
HEIGHT = 200
PAD = 28  # room for the axis labels


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class LineChart:
    """A line through the values in order, with the lowest and highest marked."""

    points: list[Point]
    polyline: str
    low: float
    high: float
    low_y: float
    high_y: float
    width: int = WIDTH
    height: int = HEIGHT


def line(values: Sequence[float], labels: Sequence[str]) -> LineChart | None:
    """The values left to right (the first at the left), scaled to fill the chart."""
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
    )


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
