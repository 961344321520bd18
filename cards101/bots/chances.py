"""A player's chances of winning the match from the totals, for the expert to value a round.

Each player's total is taken as a walk of its own: each round the player either goes out
(scoring 0, or the Queen bonus) or is left holding cards (a penalty as big as a typical
hand's). From that, the chance that a total is still under the limit after k rounds,
exactly 101 resetting and the limit losing as in the rules. A player wins a two-player
match when the other goes over first; with more players the chances against each are
multiplied (a rough guide, but it rises and falls as it should).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence

from cards101.rules import Variant, card_points, deck

ROUNDS = 40  # rounds looked ahead: a match that lasts longer is rare
LOWEST = -100  # totals below this are counted as this (Queen bonuses rarely go further)

# How many cards the player left holding has, as greedy players end rounds of four-card
# deals: the share of rounds per hand size from 1 to 14 (measured over 1,362 rounds).
HAND_SIZES = (124, 255, 281, 239, 165, 105, 77, 52, 28, 17, 9, 5, 4, 1)
# Going out with a Queen: about one round in ten with a small one, one in twelve the big one.
SMALL_QUEEN_OUT = 0.10
BIG_QUEEN_OUT = 0.08


def chances(variant: Variant, totals: Mapping[int, int], seat: int, players: int) -> float:
    """The chance that `seat` wins the match from these totals (the active players only)."""
    survival = _survival(variant, _penalty_share(variant, players))
    mine = _curve(survival, variant, totals[seat])
    result = 1.0
    for other, total in totals.items():
        if other != seat:
            result *= _ahead(mine, _curve(survival, variant, total))
    return result


def _penalty_share(variant: Variant, players: int) -> float:
    """How often a player is left holding cards: all but one under `first_out`, one player
    under `last_holder`."""
    if variant.round_end == "first_out":
        return (players - 1) / players
    return 1 / players


def _curve(
    survival: Mapping[int, Sequence[float]], variant: Variant, total: int
) -> Sequence[float]:
    if total > variant.lose_over:
        return (0.0,) * (ROUNDS + 1)
    return survival[max(total, LOWEST)]


def _ahead(mine: Sequence[float], theirs: Sequence[float]) -> float:
    """The chance that the other goes over the limit before me (half of it in the same round)."""
    won = 0.0
    for k in range(1, len(mine)):
        their_end = theirs[k - 1] - theirs[k]
        my_end = mine[k - 1] - mine[k]
        won += their_end * mine[k] + 0.5 * their_end * my_end
    # Both still in after the last round looked at: an even match.
    return won + 0.5 * mine[-1] * theirs[-1]


@functools.lru_cache(maxsize=32)
def _survival(variant: Variant, share: float) -> Mapping[int, tuple[float, ...]]:
    """For each total, the chance of being under the limit after 0, 1, ... ROUNDS rounds.

    Round by round, the chance of each total being still in is the chance of each score
    times that of the total it leads to: a dot product over a window of the totals after
    the round (`math.sumprod` on slices: a limit of 1,000 takes milliseconds, not seconds)."""
    penalties = _penalties(variant)
    bonuses = {0: 1.0}
    if variant.out_bonus:
        bonuses = {
            0: 1.0 - SMALL_QUEEN_OUT - BIG_QUEEN_OUT,
            -20: SMALL_QUEEN_OUT,
            -40: BIG_QUEEN_OUT,
        }
    limit = variant.lose_over
    # Every score a round can give, from the lowest up, with its chance (0.0 between).
    scores: dict[int, float] = {}
    for points, p in penalties.items():
        scores[points] = scores.get(points, 0.0) + share * p
    for bonus, p in bonuses.items():
        scores[bonus] = scores.get(bonus, 0.0) + (1 - share) * p
    low, high = min(scores), max(scores)
    weights = [scores.get(score, 0.0) for score in range(low, high + 1)]
    count = limit + 1 - LOWEST  # the totals LOWEST ... limit, by index total - LOWEST
    # Totals a round can lead to, LOWEST + low ... limit + high, by index total - LOWEST - low.
    reached = range(LOWEST + low, limit + high + 1)

    def after(total: int) -> int | None:
        """The total (its index in `alive`) a round's score leads to; None when it loses."""
        if variant.reset_at_101 and total == 101:
            return 0 - LOWEST
        if variant.reset_at_100 and total == 100:
            return 50 - LOWEST
        if total > limit:
            return None
        return max(total, LOWEST) - LOWEST

    leads_to = [after(total) for total in reached]
    curves: list[list[float]] = [[1.0] for _ in range(count)]
    alive = [1.0] * count
    for _ in range(ROUNDS):
        # The chance of staying in from each total a round leads to (0.0 once it loses).
        window = [0.0 if index is None else alive[index] for index in leads_to]
        alive = [math.sumprod(weights, window[i : i + len(weights)]) for i in range(count)]
        for curve, chance in zip(curves, alive, strict=True):
            curve.append(chance)
    return {total: tuple(curves[total - LOWEST]) for total in range(LOWEST, limit + 1)}


@functools.lru_cache(maxsize=32)
def _penalties(variant: Variant) -> Mapping[int, float]:
    """The chance of each penalty for a hand left at the end of a round: a typical number of
    cards (scaled to the deal), each as heavy as a card of the deck on average."""
    points = [card_points(variant, card) for card in deck(variant.deck_size)]
    one = {}
    for value in points:
        one[value] = one.get(value, 0.0) + 1 / len(points)
    scale = variant.hand_size / 4
    sizes: dict[int, float] = {}
    weight = sum(HAND_SIZES)
    for index, count in enumerate(HAND_SIZES):
        size = max(1, round((index + 1) * scale))
        sizes[size] = sizes.get(size, 0.0) + count / weight
    result: dict[int, float] = {}
    hand = {0: 1.0}
    for size in range(1, max(sizes) + 1):
        hand = _add(hand, one)
        if size in sizes:
            for value, p in hand.items():
                result[value] = result.get(value, 0.0) + sizes[size] * p
    return {value: p for value, p in result.items() if p > 1e-5}


def _add(first: Mapping[int, float], second: Mapping[int, float]) -> dict[int, float]:
    total: dict[int, float] = {}
    for a, p in first.items():
        for b, q in second.items():
            total[a + b] = total.get(a + b, 0.0) + p * q
    return total
