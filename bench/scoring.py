"""`score_match` over a 4-player, 200-round classic match: pure Python, no database.

The services call `score_match` with every round of a match each time a round is saved,
changed, deleted or previewed, so this is the cost of one save of a very long match.
"""

from __future__ import annotations

from bench.common import (
    Check,
    Options,
    Section,
    classic_rounds,
    log,
    markdown_table,
    ms,
    time_calls,
    us,
)
from cards101.rules import PRESETS, score_match

NAME = "scoring"
TITLE = "Scoring a 200-round match (`score_match`)"
PLAYERS = ("Anna", "Boris", "Vera", "Gleb")
ROUNDS = 200
WARMUP = 5


def run(options: Options) -> Section:
    variant = PRESETS["classic"]
    rounds = classic_rounds(PLAYERS, ROUNDS)
    result = score_match(variant, PLAYERS, rounds)
    checks = [
        Check("all 200 rounds are scored", str(len(result.rounds)), len(result.rounds) == ROUNDS),
        Check("the match is not finished", f"finished={result.finished}", not result.finished),
        Check("nobody has lost", str(result.lost_in or "nobody"), not result.lost_in),
    ]
    totals = [total for scored in result.rounds for total in scored.totals.values()]

    runs = options.scoring_runs
    log(f"[{NAME}] score_match: {len(PLAYERS)} players, {ROUNDS} rounds, {runs} timed runs")
    timings = time_calls(lambda: score_match(variant, PLAYERS, rounds), runs, warmup=WARMUP)
    per_round = timings.median / ROUNDS
    log(
        f"[{NAME}] median {ms(timings.median)}, best {ms(timings.best)}, "
        f"worst {ms(timings.worst)}; {us(per_round)} per round"
    )
    for check in checks:
        log(f"[{NAME}] {check.what}: {check.measured} -> {'ok' if check.ok else 'FAILED'}")

    table = markdown_table(
        ["Runs (N)", "Median per call", "Best per call", "Worst per call", "Median per round"],
        [[timings.runs, ms(timings.median), ms(timings.best), ms(timings.worst), us(per_round)]],
    )
    markdown = f"""\
`cards101.rules.score_match(PRESETS["classic"], players, rounds)` with 4 players and 200 rounds,
called in-process N = {timings.runs} times after {WARMUP} untimed warm-up calls
(`time.perf_counter` around each call, garbage collector on). The rounds come from
`bench.common.classic_rounds`: each round one player goes out with a Queen (−20) and the
other three hold low cards (6, 6 and 8 points), written as card codes the way the services
pass them (`{{"out": "QH"}}`, `{{"hand": "JH KH 9H"}}`), so parsing and checking every card is
part of the time. Totals stay between {min(totals)} and {max(totals)}; the result is checked
to be unfinished with nobody lost.

{table}

No target is set for this figure. Saving round *n* rescores rounds 1‥*n*, so a match
entered round by round up to 200 rounds spends about {timings.median * (ROUNDS + 1) / 2:.2f} s
in `score_match` over its whole life (median × 201 / 2, the cost being linear in rounds)."""
    return Section(NAME, TITLE, markdown, checks)
