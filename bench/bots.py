"""The bots: how much stronger each is than the one below it, and how long the expert thinks.

1. `greedy` against `random`, 2-player `aaow`: whole matches as `manage.py simulate` plays
   them (cards101.bots.arena, seats rotating from match to match). Target: greedy wins at
   least 80% of the matches.
2. `expert` at its default budget against `greedy`, the same way. Target: the expert wins at
   least 60% of the matches.
3. The expert's time per decision in those matches (every move with more than one legal
   choice; a single legal move is made at once), with the deals it tried. Target: the
   slowest decision under 1 s.

Win rates carry their 95% Wilson interval; the deals follow from SEED, the expert's choices
also from the machine's speed (it thinks until its budget is spent).
"""

from __future__ import annotations

import statistics
import time

from bench.common import Check, Options, Section, log, markdown_table, ms
from cards101.bots import expert
from cards101.bots.arena import Tally, play_match
from cards101.rules import PRESETS

NAME = "bots"
TITLE = "Bots: win rates and the expert's time per move"
PRESET = "aaow"
SEED = 1
SERIES = (
    # (the two bots, matches, the share of matches the first must win)
    (("greedy", "random"), 400, 0.80),
    (("expert", "greedy"), 200, 0.60),
)
MOST_SECONDS = 1.0  # the expert's slowest decision


def run(options: Options) -> Section:
    variant = PRESETS[PRESET]
    rows = []
    checks = []
    thinking: dict[str, list[float]] = {}
    for bots, matches, target in SERIES:
        tally = Tally(len(bots))
        began = time.perf_counter()
        for number in range(matches):
            played = play_match(variant, bots, number=number, seed=SEED, thinking=thinking)
            tally.add(played)
            if (number + 1) % 50 == 0:
                log(f"[{NAME}] {bots[0]} v {bots[1]}: {number + 1}/{matches} matches")
        seconds = time.perf_counter() - began
        rate, low, high = tally.win_rate(0)
        what = f"{bots[0]} over {bots[1]}, 2-player {PRESET}, at least {target:.0%} of matches"
        checks.append(Check(what, f"{rate:.1%} ({low:.1%} to {high:.1%})", rate >= target))
        rows.append(
            [
                f"`{bots[0]}` v `{bots[1]}`",
                matches,
                f"**{rate:.1%}**",
                f"{low:.1%} to {high:.1%}",
                f"{tally.rounds / matches:.2f}",
                f"{tally.rounds / seconds:.1f}",
                f"{target:.0%}",
            ]
        )
        log(f"[{NAME}] {bots[0]} v {bots[1]}: {rate:.1%} ({low:.1%} to {high:.1%})")

    times = sorted(thinking["expert"])
    p95 = statistics.quantiles(times, n=100)[94]
    worst = times[-1]
    checks.append(
        Check(
            f"an expert decision at the default budget ({expert.BUDGET:g} s), slowest under "
            f"{MOST_SECONDS:g} s",
            ms(worst),
            worst < MOST_SECONDS,
        )
    )
    over_budget = sum(1 for seconds in times if seconds > expert.BUDGET) / len(times)
    text = "\n\n".join(
        [
            f"Whole 2-player `{PRESET}` matches as `manage.py simulate --preset {PRESET} "
            f"--players 2 --bots A,B --seed {SEED}` plays them, seats rotating from match to "
            "match; a shared win counts half. The interval is the 95% Wilson interval.",
            markdown_table(
                [
                    "Bots",
                    "Matches",
                    "First wins",
                    "95% interval",
                    "Rounds a match",
                    "Rounds/s",
                    "Target",
                ],
                rows,
            ),
            f"The expert's {len(times):,} decisions in its matches (moves with more than one "
            f"legal choice), at its default budget of {expert.BUDGET:g} s: median "
            f"{ms(statistics.median(times))}, 95th percentile {ms(p95)}, slowest {ms(worst)}; "
            f"{over_budget:.0%} ran past the budget (the deal being played out is finished). "
            f"Target: the slowest under {MOST_SECONDS:g} s.",
        ]
    )
    return Section(NAME, TITLE, text, checks)
