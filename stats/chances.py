"""Each player's chance to win a match in play, from their ratings and the totals as they
stand (pure Python, no Django; the reasoning is in docs/win-chances.md).

Two forecasts of the same event are combined: the ratings' (openskill's predict_win, what
the site showed before a match's totals counted) and the totals' (a Monte-Carlo of the rest
of the match among players of equal skill, each round's points drawn from rounds the engine
plays under the match's rules). Each player's chance is the product of the two, normalized:
at equal totals it is the ratings' alone, at equal ratings the totals' alone, and a player
who has lost has none.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from cards101.bots import make_bot
from cards101.engine import Game
from cards101.rules import Variant, rank_players
from stats.ratings import Skill, win_chances

# Rounds the engine plays for each number of players still in, to draw rounds' points from
# (greedy bots, seeded: the same rules always give the same rounds).
ROUND_SAMPLES = 32
# Matches simulated from the totals as they stand: the chances they give are within about a
# percentage point of the exact ones (a standard error of at most √(¼ / 2000) ≈ 1.1%).
SIMULATIONS = 2000
# A simulated match still going after this many rounds (resets at 101 and Queens' bonuses can
# keep one going) is decided by its totals as they stand, as the rules rank a finished match.
ROUND_LIMIT = 100
SEED = 101


def live_chances(
    variant: Variant, skills: Sequence[Skill], totals: Sequence[int], lost: Sequence[bool]
) -> list[float]:
    """Each player's chance to win (seat order; 0 for one who has lost), summing to 1."""
    in_play = [seat for seat, out in enumerate(lost) if not out]
    chances = [0.0] * len(totals)
    if len(in_play) < 2:
        for seat in in_play:
            chances[seat] = 1.0
        return chances
    by_rating = win_chances([skills[seat] for seat in in_play])
    by_totals = totals_chances(variant, [totals[seat] for seat in in_play])
    product = [rating * standing for rating, standing in zip(by_rating, by_totals, strict=True)]
    whole = sum(product)
    for seat, share in zip(in_play, product, strict=True):
        chances[seat] = share / whole
    return chances


def totals_chances(variant: Variant, totals: Sequence[int]) -> list[float]:
    """The chance of each player still in (their totals given) to win the match if all were
    equally skilled: how many of SIMULATIONS matches played on from these totals each wins
    (a tie for first shares the win)."""
    players = len(totals)
    if len(set(totals)) == 1:
        return [1 / players] * players  # the same by symmetry, without the noise of chance
    chooser = random.Random(SEED)
    samples = {count: round_points(variant, count) for count in range(2, players + 1)}
    wins = [0.0] * players
    for _ in range(SIMULATIONS):
        winners = _play_on(variant, list(totals), samples, chooser)
        for player in winners:
            wins[player] += 1 / len(winners)
    return [won / SIMULATIONS for won in wins]


def _play_on(
    variant: Variant,
    totals: list[int],
    samples: dict[int, list[tuple[int, ...]]],
    chooser: random.Random,
) -> list[int]:
    """One match played on from `totals` to its end: the players who finish first."""
    players = list(range(len(totals)))
    alive = players[:]
    lost_in: dict[int, int] = {}
    for index in range(ROUND_LIMIT):
        seats = alive[:]
        chooser.shuffle(seats)
        scores = chooser.choice(samples[len(seats)])
        someone_lost = False
        for player, score in zip(seats, scores, strict=True):
            totals[player] = total = _after(variant, totals[player] + score)
            if total > variant.lose_over:
                lost_in[player] = index
                someone_lost = True
        if someone_lost:
            alive = [player for player in alive if player not in lost_in]
        if (someone_lost and variant.game_end == "first_loser") or len(alive) <= 1:
            break
    return rank_players(players, dict(enumerate(totals)), lost_in)[0]


def _after(variant: Variant, total: int) -> int:
    """A total after a round's points are added, as score_match keeps it (exactly 101 → 0,
    exactly 100 → 50, by the options); whether it loses is the caller's to see."""
    if total == 101 and variant.reset_at_101:
        return 0
    if total == 100 and variant.reset_at_100:
        return 50
    return total


@functools.lru_cache(maxsize=32)
def round_points(variant: Variant, players: int) -> list[tuple[int, ...]]:
    """The points each seat scored in ROUND_SAMPLES first rounds the engine played under
    `variant` with `players` greedy bots (kept for the process: they take up to 0.3 s to play)."""
    rounds = []
    for seed in range(ROUND_SAMPLES):
        game = Game.new(variant, players=players, seed=SEED + seed)
        bots = [make_bot("greedy", seed=seed * players + seat) for seat in range(players)]
        while not game.round_over:
            seat = game.to_move
            game.play(bots[seat].choose(game.view(seat), game.legal_moves()))
        rounds.append(tuple(game.view(0)["scores"]))
    return rounds


def percentages(chances: Sequence[float]) -> list[int]:
    """Whole percentages that add up to 100 (largest remainders get the points rounding
    down left over), so that a panel never reads 99% or 101% in all."""
    exact = [100 * chance for chance in chances]
    shown = [int(value) for value in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: exact[i] - shown[i], reverse=True)
    for index in by_remainder[: round(sum(exact)) - sum(shown)]:
        shown[index] += 1
    return shown
