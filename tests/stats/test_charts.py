"""The charts' geometry, drawn without Django: where the dates go under a line."""

from stats.charts import line


def test_a_long_line_is_dated_at_four_points_its_ends_inside_the_chart():
    days = [f"{day} ноября" for day in range(1, 11)]
    chart = line(list(range(10)), days, days)
    assert [(tick.label, tick.anchor) for tick in chart.ticks] == [
        ("1 ноября", "start"),
        ("4 ноября", "middle"),
        ("7 ноября", "middle"),
        ("10 ноября", "end"),
    ]
    assert chart.ticks[0].x == chart.points[0].x and chart.ticks[-1].x == chart.points[-1].x


def test_a_day_is_said_once_under_the_line():
    days = ["27 ноября"] * 5 + ["28 ноября"]
    chart = line([1, 2, 3, 4, 5, 6], days, days)
    assert [tick.label for tick in chart.ticks] == ["27 ноября", "28 ноября"]


def test_a_single_point_has_one_date_and_no_dates_none():
    assert [tick.label for tick in line([1500], ["x"], ["27 ноября"]).ticks] == ["27 ноября"]
    assert line([1500, 1510], ["x", "y"]).ticks == []
