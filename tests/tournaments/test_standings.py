"""Tournament points and tie-breaks, on hand-made tables (no database)."""

from fractions import Fraction

import pytest

from tournaments.standings import (
    DEFAULT_POINTS,
    TableResult,
    check_points,
    compute_standings,
    table_points,
)


def table(round_, places, totals=None, deals_won=None, lost=()):
    totals = totals or {p: 0 for p in places}
    return TableResult(round_, places, totals, deals_won or {}, frozenset(lost))


def order(lines):
    return [(line.player, line.rank) for line in lines]


def test_the_default_points_give_every_table_size_the_same_average():
    for size, points in DEFAULT_POINTS.items():
        assert sum(Fraction(p) for p in points) / size == Fraction(3, 2)
        assert points[0] == 3 and points[-1] == 0


def test_players_tied_for_a_place_share_its_points():
    points = table_points({"a": 1, "b": 1, "c": 3, "d": 4}, DEFAULT_POINTS)
    assert points == {"a": Fraction(5, 2), "b": Fraction(5, 2), "c": 1, "d": 0}
    three = table_points({"a": 1, "b": 2, "c": 2}, DEFAULT_POINTS)
    assert three == {"a": 3, "b": Fraction(3, 4), "c": Fraction(3, 4)}


@pytest.mark.parametrize(
    "points",
    [{4: (3, 2, 1)}, {3: (0, 1, 2)}, {4: (3, 2, 1, -1)}, {5: (4, 3, 2, 1, 0)}],
)
def test_a_points_list_that_does_not_fit_is_refused(points):
    with pytest.raises(ValueError):
        check_points(points)


def test_points_decide_first():
    lines = compute_standings(
        "abcdefg",
        [
            table(1, {"a": 1, "b": 2, "c": 3, "d": 4}),
            table(1, {"e": 1, "f": 2, "g": 3}),
        ],
    )
    assert [line.player for line in lines] == ["a", "e", "b", "f", "c", "d", "g"]
    assert {line.player: line.points for line in lines}["f"] == Fraction(3, 2)


def test_fewer_penalty_points_break_a_tie_then_deals_won():
    tables = [
        table(1, {"a": 1, "b": 2, "c": 3}, {"a": 10, "b": 20, "c": 30}, {"a": 2}),
        table(1, {"d": 1, "e": 2, "f": 3}, {"d": 10, "e": 25, "f": 30}, {"d": 3}),
    ]
    lines = compute_standings("abcdef", tables, tie_breaks=["penalty_total", "deals_won"])
    assert order(lines) == [("d", 1), ("a", 2), ("b", 3), ("e", 4), ("c", 5), ("f", 5)]


def test_players_equal_on_everything_share_a_rank():
    tables = [
        table(1, {"a": 1, "b": 2}, {"a": 0, "b": 30}),
        table(1, {"c": 1, "d": 2}, {"c": 0, "d": 30}),
    ]
    lines = compute_standings("abcd", tables, tie_breaks=["penalty_total"])
    assert order(lines) == [("a", 1), ("c", 1), ("b", 3), ("d", 3)]


def test_opponents_points_reward_a_harder_table():
    tables = [
        table(1, {"a": 1, "b": 2}),
        table(1, {"c": 1, "d": 2}),
        table(2, {"a": 1, "c": 2}),
        table(2, {"b": 1, "d": 2}),
    ]
    lines = compute_standings("abcd", tables, tie_breaks=["opponents_points"])
    by = {line.player: line for line in lines}
    # b and c both have 3 points; b met a (6) and d (0), c met d (0) and a (6): equal.
    assert by["b"].points == by["c"].points == 3
    assert by["b"].opponents_points == by["c"].opponents_points == 6
    assert by["b"].rank == by["c"].rank == 2


def test_head_to_head_counts_only_games_between_the_tied_players():
    tables = [
        table(1, {"b": 1, "a": 2}),
        table(1, {"y": 1, "x": 2}),
        table(2, {"a": 1, "x": 2}),
        table(2, {"y": 1, "b": 2}),
    ]
    lines = compute_standings("abxy", tables, tie_breaks=["head_to_head"])
    # a and b have 3 points each: b beat a when they met, so b is ahead of a.
    assert order(lines) == [("y", 1), ("b", 2), ("a", 3), ("x", 4)]


def test_fewest_losses_breaks_a_tie():
    tables = [
        table(1, {"a": 1, "b": 2}, lost=["b"]),
        table(1, {"c": 1, "d": 2}),
    ]
    lines = compute_standings("abcd", tables, tie_breaks=["fewest_losses"])
    assert order(lines)[2:] == [("d", 3), ("b", 4)]


def test_a_player_who_dropped_keeps_their_points_and_one_who_never_played_has_none():
    tables = [table(1, {"a": 1, "b": 2, "c": 3})]
    lines = compute_standings(["a", "b", "c", "late"], tables)
    by = {line.player: line for line in lines}
    assert by["b"].points == Fraction(3, 2)
    assert by["late"].points == 0 and by["late"].tables == 0


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="unknown tie-break"):
        compute_standings("ab", [], tie_breaks=["coin_toss"])
