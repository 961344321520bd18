"""The coach's review (cards101.analysis): does it tell strong play from weak, and does a
mistake it names stay a mistake when it thinks longer?

1. **Strength.** For each preset and each bot (`random`, `greedy`, `expert` with a fixed
   number of deals a decision), ROUNDS rounds of 3-player tables where that bot holds every
   seat, each round reviewed at the default budget. The points lost per decision (moves with
   more than one legal choice), with a 95% interval (mean ± 1.96 standard errors). Target:
   random play loses clearly more than greedy play, and greedy clearly more than the expert
   (the intervals do not overlap).
2. **Stability.** The decisions of those rounds labelled a mistake or a blunder (at most
   STABLE_SAMPLE of them, taken evenly) are judged again with ten times the work and another
   seed. Target: at least 90% of them are still labelled at least an inaccuracy, the share
   given with its 95% Wilson interval.

Deterministic: the deals follow from SEED; the review's budget is work, not time, and the
expert is given a fixed number of deals (EXPERT_DEALS, about what its default budget allows
on this machine), so every figure here is the same on any machine. Only the seconds differ.
"""

from __future__ import annotations

import math
import time

from bench.common import Check, Options, Section, log, markdown_table
from cards101 import analysis
from cards101.bots import make_bot
from cards101.bots.arena import wilson
from cards101.engine import Game, Move
from cards101.rules import PRESETS

NAME = "review"
TITLE = "The coach's review: strong play told from weak, mistakes that stay mistakes"
SEED = 28
ROUNDS = 10  # a preset and a bot
TABLE = 3  # seats
PLAYERS = ("random", "greedy", "expert")
STABLE_SAMPLE = 200
EXPERT_DEALS = 60
STABLE_SHARE = 0.90
Z_95 = 1.959964


def run(options: Options) -> Section:
    losses: dict[str, list[float]] = {name: [] for name in PLAYERS}
    named = []  # (decision, view, legal, round) of every mistake or blunder
    began = time.perf_counter()
    reviewed_seconds = 0.0
    decisions = 0
    for preset in PRESETS:
        for name in PLAYERS:
            for number in range(ROUNDS):
                seed = SEED * 1000 + number
                start, moves = _round(preset, [name] * TABLE, seed=seed)
                clock = time.perf_counter()
                reviewed = analysis.review(start, moves, seed=number)
                reviewed_seconds += time.perf_counter() - clock
                decisions += len(reviewed)
                losses[name].extend(decision.loss for decision in reviewed)
                named += [(*found, number) for found in _named_mistakes(start, moves, reviewed)]
            log(f"[{NAME}] {preset}, {name}: {ROUNDS} rounds, {len(losses[name]):,} decisions")
    step = max(1, math.ceil(len(named) / STABLE_SAMPLE))
    held = judged = 0
    lost_labels: list[str] = []
    for decision, view, legal, number in named[::step]:
        again = analysis.judge(
            view,
            legal,
            decision.played,
            index=decision.index,
            work=10 * analysis.work_for(None),
            seed=number + 10_000,
        )
        judged += 1
        if again.label != "best":
            held += 1
        else:
            lost_labels.append(f"{decision.label} {decision.loss:.1f}")
    log(f"[{NAME}] stability: {held}/{judged}")
    seconds = time.perf_counter() - began

    rows = []
    intervals = {}
    for name in PLAYERS:
        mean, half = _mean_interval(losses[name])
        intervals[name] = (mean - half, mean + half)
        rows.append(
            [
                f"`{name}`",
                f"{len(losses[name]):,}",
                f"**{mean:.2f}**",
                f"{mean - half:.2f} to {mean + half:.2f}",
                f"{analysis.accuracy(losses[name]):.1f}",
                f"{sum(loss >= analysis.MISTAKE for loss in losses[name]) / len(losses[name]):.1%}",
            ]
        )
    checks = [
        Check(
            "points lost a decision: random clearly more than greedy (95% intervals apart)",
            f"{_mean(losses['random']):.2f} v {_mean(losses['greedy']):.2f}",
            intervals["random"][0] > intervals["greedy"][1],
        ),
        Check(
            "points lost a decision: greedy clearly more than the expert (95% intervals apart)",
            f"{_mean(losses['greedy']):.2f} v {_mean(losses['expert']):.2f}",
            intervals["greedy"][0] > intervals["expert"][1],
        ),
    ]
    share = held / judged if judged else 0.0
    low, high = wilson(held, judged)
    checks.append(
        Check(
            f"a mistake or blunder still at least an inaccuracy at 10x the budget, at least "
            f"{STABLE_SHARE:.0%}",
            f"{share:.1%} ({low:.1%} to {high:.1%}) of {judged}",
            share >= STABLE_SHARE,
        )
    )
    text = "\n\n".join(
        [
            f"{ROUNDS} rounds of each preset ({', '.join(f'`{p}`' for p in PRESETS)}) for "
            f"each bot, at {TABLE}-player tables where the bot holds every seat (`expert` "
            f"with {EXPERT_DEALS} deals a decision); each round reviewed at the default budget "
            f"({analysis.BUDGET:g} s a decision: {analysis.work_for(None):,} simulated moves, "
            f"or an equal share of {analysis.ROUND_BUDGET:g} s in a long round; at least "
            f"{analysis.MIN_DEALS} deals). Points lost per decision (moves with more than one "
            "legal choice), the 95% interval of the mean, the accuracy (0-100, "
            "docs/coach.md) and the share of decisions labelled a mistake or a blunder.",
            markdown_table(
                [
                    "Player",
                    "Decisions",
                    "Points lost a decision",
                    "95% interval",
                    "Accuracy",
                    "Mistakes",
                ],
                rows,
            ),
            f"**Stability.** {judged} of the {len(named)} decisions labelled a mistake or a "
            f"blunder (every {step}), judged again with ten times the work and another "
            f"seed: {held} ({share:.1%}, 95% interval "
            f"{low:.1%} to {high:.1%}) still at least an inaccuracy. Target: "
            f"{STABLE_SHARE:.0%}."
            + (
                f" The others were, at first: {', '.join(lost_labels)} points."
                if lost_labels
                else ""
            ),
            f"Reviewing took {reviewed_seconds:.0f} s for {decisions:,} decisions "
            f"({1000 * reviewed_seconds / max(1, decisions):.0f} ms a decision); the whole "
            f"benchmark {seconds / 60:.1f} min.",
        ]
    )
    return Section(NAME, TITLE, text, checks)


def _round(preset: str, seats: list[str], *, seed: int) -> tuple[Game, list[Move]]:
    game = Game.new(PRESETS[preset], players=len(seats), seed=seed)
    start = game.copy()
    bots = [
        make_bot(name, seed=seed + seat, **({"deals": EXPERT_DEALS} if name == "expert" else {}))
        for seat, name in enumerate(seats)
    ]
    moves = []
    while not game.round_over:
        move = bots[game.to_move].choose(game.view(game.to_move), game.legal_moves())
        moves.append(move)
        game.play(move)
    return start, moves


def _named_mistakes(start, moves, reviewed):
    """The decisions labelled a mistake or a blunder, with the view and legal moves there."""
    named = {d.index: d for d in reviewed if d.label in ("mistake", "blunder")}
    game = start.copy()
    for index, move in enumerate(moves):
        if index in named:
            yield named[index], game.view(game.to_move), game.legal_moves()
        game.play(move)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    n = len(values)
    mean = _mean(values)
    if n < 2:
        return mean, math.inf
    variance = sum((value - mean) ** 2 for value in values) / (n - 1)
    return mean, Z_95 * math.sqrt(variance / n)
