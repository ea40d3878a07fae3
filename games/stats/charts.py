"""The geometry of the site's charts: pure functions from numbers to SVG coordinates.

No Django and no drawing here: each function returns the numbers a template
needs to write an inline ``<svg>`` (bars, a polyline, tick labels), so the
charts are plain HTML, readable without JavaScript, and testable as arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: int


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    bars: list[Bar]
    ticks: list[Tick]
    baseline: float


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    points: str  # "x,y x,y ..." for <polyline points>
    dots: list[tuple[float, float, int]] = field(default_factory=list)  # x, y, value
    ticks: list[Tick] = field(default_factory=list)
    low: int = 0
    high: int = 0


#: Room on the left for the tick labels, and above and below the plot.
LEFT, TOP, BOTTOM = 40, 10, 20


def nice_ceiling(value: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... at least ``value`` (an axis's top)."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= value:
                return step * factor
        step *= 10


def _tick(y: float, label: str) -> Tick:
    return Tick(y=round(y, 2), label=label)


def bar_chart(series: list[tuple[str, int]], *, width: int = 640, height: int = 180, left: int = LEFT) -> BarChart:
    """Vertical bars for ``(label, value)`` pairs, left to right, on an axis from 0
    to a round number at least the largest value. ``left`` is room for the axis's
    labels (0 when the page writes them beside the chart)."""
    plot_width = width - left
    plot_height = height - TOP - BOTTOM
    top = nice_ceiling(max((value for _, value in series), default=0) or 1)
    slot = plot_width / max(len(series), 1)
    gap = min(slot * 0.2, 4)
    bars = []
    for index, (label, value) in enumerate(series):
        bar_height = plot_height * value / top
        bars.append(
            Bar(
                x=round(left + index * slot + gap / 2, 2),
                y=round(TOP + plot_height - bar_height, 2),
                width=round(max(slot - gap, 1), 2),
                height=round(bar_height, 2),
                label=label,
                value=value,
            )
        )
    ticks = [_tick(TOP + plot_height, "0"), _tick(TOP, str(top))]
    return BarChart(width=width, height=height, bars=bars, ticks=ticks, baseline=TOP + plot_height)


def line_chart(values: list[int], *, width: int = 640, height: int = 180, left: int = LEFT) -> LineChart:
    """A line through ``values`` spread evenly left to right, the axis from the
    lowest to the highest value (with some room, so a flat line sits mid-chart)."""
    if not values:
        return LineChart(width=width, height=height, points="")
    low, high = min(values), max(values)
    margin = max((high - low) * 0.1, 10)
    axis_low, axis_high = low - margin, high + margin
    plot_width = width - left - 10
    plot_height = height - TOP - BOTTOM
    step = plot_width / (len(values) - 1) if len(values) > 1 else 0
    dots = []
    for index, value in enumerate(values):
        x = left + (index * step if len(values) > 1 else plot_width / 2)
        y = TOP + plot_height * (axis_high - value) / (axis_high - axis_low)
        dots.append((round(x, 2), round(y, 2), value))
    ticks = [
        _tick(TOP + plot_height * (axis_high - v) / (axis_high - axis_low), str(v))
        for v in sorted({low, high}, reverse=True)
    ]
    return LineChart(
        width=width,
        height=height,
        points=" ".join(f"{x},{y}" for x, y, _ in dots),
        dots=dots,
        ticks=ticks,
        low=low,
        high=high,
    )


def grid(size: int, *, side: int = 300, gap: int = 4) -> list[dict]:
    """The squares of a ``size`` x ``size`` board drawn ``side`` units wide, cell 0
    top left, row by row: ``x``, ``y``, ``size`` and the centre ``cx``, ``cy``."""
    step = side / size
    square = step - gap
    return [
        {
            "x": round(column * step + gap / 2, 2),
            "y": round(row * step + gap / 2, 2),
            "size": round(square, 2),
            "cx": round(column * step + step / 2, 2),
            "cy": round(row * step + step / 2, 2),
        }
        for row in range(size)
        for column in range(size)
    ]


def heat(count: int, most: int) -> float:
    """How strongly to colour a cell played ``count`` times when the most played
    cell has ``most``: 0 for never, then from 0.15 up to 1, in steps of 0.05."""
    if count <= 0 or most <= 0:
        return 0.0
    return round(round((0.15 + 0.85 * count / most) * 20) / 20, 2)


def percent(part: int, whole: int) -> int:
    """``part`` of ``whole`` as a whole percentage (0 when there is no whole)."""
    return round(100 * part / whole) if whole else 0
