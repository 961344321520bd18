"""The chances of winning a match from the totals, as the expert values a round's end."""

import pytest

from cards101.bots import chances as match_chances
from cards101.rules import PRESETS, Variant


def survival_total_by_total(variant: Variant, share: float) -> dict[int, list[float]]:
    """The table `_survival` makes, written the plain way: each total's chance of being
    still in after k rounds from every score a round can give and the total it leads to."""
    penalties = match_chances._penalties(variant)
    bonuses = {0: 1.0}
    if variant.out_bonus:
        small, big = match_chances.SMALL_QUEEN_OUT, match_chances.BIG_QUEEN_OUT
        bonuses = {0: 1.0 - small - big, -20: small, -40: big}
    scores = [(points, share * p) for points, p in penalties.items()]
    scores += [(bonus, (1 - share) * p) for bonus, p in bonuses.items()]
    totals = range(match_chances.LOWEST, variant.lose_over + 1)

    def after(total: int) -> int | None:
        if variant.reset_at_101 and total == 101:
            return 0
        if variant.reset_at_100 and total == 100:
            return 50
        if total > variant.lose_over:
            return None
        return max(total, match_chances.LOWEST)

    curves = {total: [1.0] for total in totals}
    alive = dict.fromkeys(totals, 1.0)
    for _ in range(match_chances.ROUNDS):
        alive = {
            total: sum(
                p * alive[to] for score, p in scores if (to := after(total + score)) is not None
            )
            for total in totals
        }
        for total in totals:
            curves[total].append(alive[total])
    return curves


@pytest.mark.parametrize(
    ("variant", "share"),
    [
        (PRESETS["aaow"], 1 / 3),
        (PRESETS["classic"], 3 / 4),  # exactly 100 becomes 50
        (PRESETS["conventions"].replace(reset_at_101=False, lose_over=99), 1 / 2),
        (PRESETS["aaow"].replace(out_bonus=False, lose_over=60), 1 / 4),
        (PRESETS["aaow"].replace(deck_size=52, hand_size=8, lose_over=300), 1 / 4),
    ],
)
def test_the_chance_of_staying_in_is_each_scores_chance_times_where_it_leads(variant, share):
    table = match_chances._survival(variant, share)
    expected = survival_total_by_total(variant, share)
    assert table.keys() == expected.keys()
    for total, curve in expected.items():
        assert table[total] == pytest.approx(curve, abs=1e-12)


def test_a_lower_total_has_better_chances_and_over_the_limit_none():
    aaow = PRESETS["aaow"]
    low = match_chances.chances(aaow, {0: 10, 1: 50}, 0, 2)
    high = match_chances.chances(aaow, {0: 90, 1: 50}, 0, 2)
    assert 0.5 < low < 1.0 and 0.0 < high < 0.5
    assert match_chances.chances(aaow, {0: 102, 1: 50}, 0, 2) == 0.0
    # Equal totals: an even match.
    assert match_chances.chances(aaow, {0: 80, 1: 80}, 0, 2) == pytest.approx(0.5)
