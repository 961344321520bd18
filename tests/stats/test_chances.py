"""Chances to win a match in play from the ratings and the totals as they stand (stats.chances):
pure Python, no database."""

import pytest

from cards101.rules import PRESETS, MatchResult, possible_points, score_match
from stats.chances import _after, live_chances, percentages, totals_chances
from stats.ratings import NEWCOMER, Skill, win_chances

STRONG = Skill(mu=32, sigma=2, matches=40)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("totals", [[10, 95], [0, 50, 95], [5, 30, 60, 90]])
def test_with_equal_ratings_a_lower_total_gives_a_higher_chance(preset, totals):
    chances = live_chances(PRESETS[preset], [NEWCOMER] * len(totals), totals, [False] * len(totals))
    assert chances == sorted(chances, reverse=True)
    assert chances[0] > chances[-1] + 0.2  # far apart: 95 (or 90) of 101 is near the end
    assert sum(chances) == pytest.approx(1.0)


def test_a_player_on_95_of_101_is_far_less_likely_to_win_than_one_on_10():
    low, high = live_chances(PRESETS["classic"], [NEWCOMER, NEWCOMER], [10, 95], [False, False])
    assert high < 0.2 < 0.8 < low


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_chances_add_up_to_one_and_their_percentages_to_100(preset):
    skills = [STRONG, NEWCOMER, Skill(mu=20, sigma=4, matches=12), NEWCOMER]
    chances = live_chances(PRESETS[preset], skills, [64, 12, 40, 88], [False] * 4)
    assert sum(chances) == pytest.approx(1.0)
    assert all(0 < chance < 1 for chance in chances)
    assert sum(percentages(chances)) == 100


def test_a_player_who_has_lost_has_no_chance_and_the_others_share_it_all():
    skills = [NEWCOMER, STRONG, NEWCOMER]
    chances = live_chances(PRESETS["classic"], skills, [40, 120, 70], [False, True, False])
    assert chances[1] == 0
    assert chances[0] > chances[2] > 0
    assert sum(chances) == pytest.approx(1.0)
    # The last one in play has won.
    assert live_chances(PRESETS["classic"], skills, [40, 120, 130], [False, True, True]) == [
        1.0,
        0.0,
        0.0,
    ]


def test_at_equal_totals_the_chances_are_the_ratings_alone():
    skills = [STRONG, NEWCOMER, Skill(mu=20, sigma=4, matches=12)]
    for totals in ([0, 0, 0], [47, 47, 47]):
        chances = live_chances(PRESETS["aaow"], skills, totals, [False] * 3)
        assert chances == pytest.approx(win_chances(skills))


def test_at_equal_ratings_the_chances_are_the_totals_alone():
    variant = PRESETS["conventions"]
    chances = live_chances(variant, [STRONG] * 3, [20, 45, 80], [False] * 3)
    assert chances == pytest.approx(totals_chances(variant, [20, 45, 80]))


def test_the_stronger_player_keeps_more_of_a_chance_from_the_same_totals():
    variant = PRESETS["classic"]
    behind_but_strong = live_chances(variant, [STRONG, NEWCOMER], [70, 30], [False, False])
    behind = live_chances(variant, [NEWCOMER, NEWCOMER], [70, 30], [False, False])
    assert behind[0] < behind_but_strong[0] < 0.9


def test_the_same_totals_give_the_same_chances_every_time():
    variant = PRESETS["aaow"]
    assert totals_chances(variant, [33, 70, 12]) == totals_chances(variant, [33, 70, 12])


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_simulated_total_follows_the_rules_as_score_match_does(preset):
    variant = PRESETS[preset]
    players = ("a", "b")
    for start in (0, 55, 60, 61, 70, 71, 80, 95, 100):
        for points in sorted(possible_points(variant) & set(range(50))):
            since = MatchResult(
                players=players,
                rounds=(),
                totals={"a": start, "b": 0},
                finished=False,
                standings=[],
                lost_in={},
                active=players,
                variant=variant,
            )
            rounds = [{"a": {"points": points}, "b": {"out": "7C"}}]
            scored = score_match(variant, players, rounds, since=since)
            assert _after(variant, start + points) == scored.totals["a"], (start, points)


@pytest.mark.parametrize(
    ("chances", "shown"),
    [
        ([1 / 3, 1 / 3, 1 / 3], [34, 33, 33]),
        ([0.125, 0.375, 0.5, 0.0], [13, 37, 50, 0]),
        ([0.996, 0.002, 0.002], [100, 0, 0]),
        ([1.0, 0.0], [100, 0]),
    ],
)
def test_percentages_are_whole_and_add_up_to_100(chances, shown):
    assert percentages(chances) == shown
