"""The charts' geometry (games.stats.charts): numbers in, SVG coordinates out."""

import pytest

from games.stats import charts


@pytest.mark.parametrize("value, top", [(0, 1), (1, 1), (3, 5), (7, 10), (11, 20), (180, 200), (501, 1000)])
def test_an_axis_ends_on_a_round_number(value, top):
    assert charts.nice_ceiling(value) == top


def test_bars_stand_on_the_baseline_in_proportion_to_their_values():
    chart = charts.bar_chart([("mon", 5), ("tue", 10), ("wed", 0)], width=340, height=130)
    baseline = chart.baseline
    assert baseline == 130 - charts.BOTTOM
    tallest = chart.bars[1]
    assert tallest.y == charts.TOP and tallest.y + tallest.height == baseline
    assert chart.bars[0].height == pytest.approx(tallest.height / 2)
    assert chart.bars[2].height == 0 and chart.bars[2].y == baseline
    # Left to right, inside the plot, not overlapping.
    xs = [bar.x for bar in chart.bars]
    assert xs == sorted(xs) and xs[0] >= charts.LEFT
    assert all(a.x + a.width <= b.x for a, b in zip(chart.bars, chart.bars[1:], strict=False))
    assert chart.bars[-1].x + chart.bars[-1].width <= 340
    assert [t.label for t in chart.ticks] == ["0", "10"]


def test_no_bars_for_no_data():
    chart = charts.bar_chart([])
    assert chart.bars == [] and chart.ticks[-1].label == "1"


def test_a_rising_line_goes_up_the_chart():
    chart = charts.line_chart([1200, 1220, 1250], width=440, height=200)
    ys = [y for _, y, _ in chart.dots]
    assert ys[0] > ys[1] > ys[2]  # SVG's y grows downwards
    assert all(charts.TOP <= y <= 200 - charts.BOTTOM for y in ys)
    assert chart.points.split() == [f"{x},{y}" for x, y, _ in chart.dots]
    assert (chart.low, chart.high) == (1200, 1250)
    assert [t.label for t in chart.ticks] == ["1250", "1200"]


def test_one_point_or_a_flat_line_sits_mid_chart():
    single = charts.line_chart([1200], width=440, height=200)
    ((x, y, value),) = single.dots
    assert value == 1200 and y == pytest.approx(charts.TOP + (200 - charts.TOP - charts.BOTTOM) / 2)
    flat = charts.line_chart([1200, 1200, 1200])
    assert len({y for _, y, _ in flat.dots}) == 1
    assert charts.line_chart([]).points == ""


def test_the_board_grid_is_row_by_row_from_the_top_left():
    cells = charts.grid(3, side=300, gap=0)
    assert [(c["x"], c["y"]) for c in cells[:4]] == [(0, 0), (100, 0), (200, 0), (0, 100)]
    assert cells[4]["cx"] == cells[4]["cy"] == 150
    assert len(charts.grid(5)) == 25


@pytest.mark.parametrize("count, most, level", [(0, 10, 0.0), (10, 10, 1.0), (1, 10, 0.25), (4, 10, 0.5), (3, 0, 0.0)])
def test_heat_grows_with_popularity(count, most, level):
    assert charts.heat(count, most) == level


def test_percent_of_nothing_is_zero():
    assert charts.percent(1, 3) == 33 and charts.percent(2, 3) == 67 and charts.percent(0, 0) == 0


def test_tick_labels_written_beside_the_chart_know_where_they_go():
    chart = charts.bar_chart([("a", 3)], width=200, height=100, left=0)
    assert chart.bars[0].x < 5  # no room kept for labels inside the chart
    assert [(t.label, t.y) for t in chart.ticks] == [("0", 80.0), ("5", 10.0)]
    line = charts.line_chart([1000, 1100], height=200, left=0)
    assert line.dots[0][0] == 0
    assert [t.label for t in line.ticks] == ["1100", "1000"] and line.ticks[0].y < line.ticks[1].y
