"""`score_match` over a 4-player, 200-round classic match: pure Python, no database.

The services call `score_match` with every round of a match each time a round is
saved, changed, deleted or previewed, so this is the cost of one save of a long match.
"""

from __future__ import annotations

from bench.common import Check, Options, Section, classic_rounds, log, ms, time_calls, us
from games.rules import PRESETS, score_match

NAME = "scoring"
TITLE = "Scoring a 200-round match (`score_match`)"
PLAYERS = ("Anna", "Boris", "Vera", "Gleb")
ROUNDS = 200


def run(options: Options) -> Section:
    variant = PRESETS["classic"]
    rounds = classic_rounds(PLAYERS, ROUNDS)
    result = score_match(variant, PLAYERS, rounds)
    checks = [
        Check(
            "the match scores all 200 rounds", str(len(result.rounds)), len(result.rounds) == 200
        ),
        Check("the match is not finished", str(result.finished), not result.finished),
        Check("nobody has lost", str(result.lost_in or "nobody"), not result.lost_in),
    ]
    low = min(total for r in result.rounds for total in r.totals.values())
    high = max(total for r in result.rounds for total in r.totals.values())

    log(
        f"[{NAME}] score_match, {len(PLAYERS)} players x {ROUNDS} rounds, {options.scoring_runs} runs"
    )
    timings = time_calls(lambda: score_match(variant, PLAYERS, rounds), options.scoring_runs)
    per_round = timings.median / ROUNDS
    log(
        f"[{NAME}] median {ms(timings.median)}, best {ms(timings.best)}, "
        f"worst {ms(timings.worst)}; {us(per_round)} per round"
    )
    for check in checks:
        log(f"[{NAME}] {check.what}: {check.measured} -> {'ok' if check.ok else 'FAILED'}")

    markdown = f"""\
`games.rules.score_match(PRESETS["classic"], 4 players, 200 rounds)`, called in-process
{timings.runs} times after 5 untimed warm-up calls (`time.perf_counter` around each call,
garbage collector on). The rounds are made by `bench.common.classic_rounds`: each round
one player goes out with a Queen (−20) and the other three hold low cards (6, 6 and 8
points), entered as card codes the way the services pass them (`{{"hand": "JH KH 9H"}}`),
so parsing and checking every card is part of the time. Totals stay between {low} and
{high}; the result is checked to be unfinished with nobody lost.

{_table(timings, per_round)}

Saving round *n* rescores rounds 1..*n*, so entering all 200 rounds of such a match one by
one costs about {ms(timings.median * 201 / 2 / 1)} of scoring in total (the sum over *n* of
*n*/200 of the figure above)."""
    return Section(NAME, TITLE, markdown, checks)


def _table(timings, per_round: float) -> str:
    from bench.common import markdown_table

    return markdown_table(
        ["Runs (N)", "Median per call", "Best per call", "Worst per call", "Median per round"],
        [[timings.runs, ms(timings.median), ms(timings.best), ms(timings.worst), us(per_round)]],
    )
