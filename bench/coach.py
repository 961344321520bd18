"""The coach: how long a round's review takes, and what the worker's reviews cost a live table.

1. A 4-player round reviewed at the default budget (`cards101.analysis.BUDGET` a decision,
   less in a long round: `cards101.analysis.ROUND_BUDGET`): ROUNDS rounds of each preset, each
   the first round of a match played by greedy bots that now and then play at random (as
   people do: a round of four greedy players is shorter than a real one). Target: the
   slowest round within TARGET seconds.
2. The worker's yield: the play worker reviews between the tables' moves, and a pass stops
   between two decisions once a table owes a move. In a throw-away database with rounds
   waiting for review, a table's move falls due at a random moment of a pass (any time within
   the pass's slice); the delay is from the moment it falls due to the end of the pass, when
   the worker makes it. Target: the worst delay within YIELD_TARGET seconds.
"""

from __future__ import annotations

import datetime
import random
import statistics
import time

from bench import harness
from bench.common import Check, Options, Section, load_average, log, markdown_table, ms
from cards101 import analysis
from cards101.bots.greedy import best_move
from cards101.bots.position import Position
from cards101.engine import Game, Move
from cards101.rules import PRESETS

NAME = "coach"
TITLE = "The coach: a round's review, and the worker's yield to live tables"
ROUNDS = 10
PLAYERS = 4
AT_RANDOM = 0.1  # the share of moves the players make at random
TARGET = 10.0  # seconds: a 4-player round reviewed
SEED = 28
YIELD_TRIALS = 40
YIELD_TARGET = 0.5  # seconds: the worst delay the reviews add to a table's owed move


def played_round(preset: str, seed: int) -> tuple[Game, list[Move]]:
    """The start and the moves of the first round of a 4-player match of `preset`."""
    game = Game.new(PRESETS[preset], players=PLAYERS, seed=f"bench.coach:{seed}")
    start = game.copy()
    chance = random.Random(seed)
    moves = []
    while not game.round_over:
        legal = game.legal_moves()
        if chance.random() < AT_RANDOM:
            move = chance.choice(legal)
        else:
            move = best_move(Position.of_game(game), legal)
        moves.append(move)
        game.play(move)
    return start, moves


def review_times() -> tuple[str, list[Check]]:
    rows, checks = [], []
    for preset in PRESETS:
        seconds, cpu, decisions, moves = [], [], [], []
        for number in range(ROUNDS):
            start, played = played_round(preset, SEED + number)
            began, began_cpu = time.perf_counter(), time.process_time()
            reviewed = analysis.review(start, played, seed=number)
            seconds.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
            decisions.append(len(reviewed))
            moves.append(len(played))
        slowest, slowest_cpu = max(seconds), max(cpu)
        log(
            f"[{NAME}] {preset}: median {statistics.median(seconds):.2f} s, slowest "
            f"{slowest:.2f} s (CPU {statistics.median(cpu):.2f} s, {slowest_cpu:.2f} s)"
        )
        rows.append(
            [
                f"`{preset}`",
                ROUNDS,
                f"{statistics.median(moves):.0f} ({max(moves)})",
                f"{statistics.median(decisions):.0f} ({max(decisions)})",
                f"{statistics.median(seconds):.2f} s",
                f"{slowest:.2f} s",
                f"{statistics.median(cpu):.2f} s",
                f"**{slowest_cpu:.2f} s**",
                f"{TARGET:g} s",
            ]
        )
        checks.append(
            Check(
                f"a 4-player `{preset}` round reviewed at the default budget, slowest within "
                f"{TARGET:g} s of CPU",
                f"{slowest_cpu:.2f} s",
                slowest_cpu <= TARGET,
            )
        )
    text = "\n\n".join(
        [
            f"{ROUNDS} first rounds of 4-player matches of each preset, played by greedy bots "
            f"that make {AT_RANDOM:.0%} of their moves at random, each reviewed whole by "
            f"`cards101.analysis.review` at the default budget "
            f"({analysis.BUDGET:g} s of work a decision), or less in a round of more than "
            f"{analysis.ROUND_BUDGET / analysis.BUDGET:.0f} decisions, which is given "
            f"{analysis.ROUND_BUDGET:g} s of work in all. Moves "
            "and decisions: median (most). Seconds on the clock and of the process's CPU (the "
            "target is read on the CPU: on a machine that other work keeps busy, the clock "
            "counts the waits for a core too).",
            markdown_table(
                [
                    "Rules",
                    "Rounds",
                    "Moves",
                    "Decisions",
                    "Median",
                    "Slowest",
                    "Median CPU",
                    "Slowest CPU",
                    "Target",
                ],
                rows,
            ),
        ]
    )
    return text, checks


def worker_yield() -> tuple[str, list[Check]]:
    harness.setup_django()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from coach import worker
    from coach.models import ReviewedDecision, RoundReview
    from play import services as play
    from play.models import PlayTable

    user = get_user_model().objects.create_user("bench-coach", password="bench-coach-password")
    later = timezone.now() + datetime.timedelta(hours=1)
    for seed in range(3):  # rounds to review
        table = play.create_table(
            by=user,
            preset="classic",
            variant=PRESETS["classic"],
            seats=["me"] + ["greedy"] * 3,
            seed=seed,
        )
        while not Game.from_json(table.state).round_over:
            game = Game.from_json(table.state)
            if game.to_move == 0:
                move = best_move(Position.of_game(game), game.legal_moves())
                play.play(table=table, user=user, move=move, version=table.version)
            else:
                play.step(table=table, now=later)
            table.refresh_from_db()
    live = play.create_table(
        by=user, preset="classic", variant=PRESETS["classic"], seats=["me", "greedy"], seed=99
    )
    PlayTable.objects.update(server_moves_at=None)
    chance = random.Random(SEED)
    delays, passes = [], []
    for _ in range(YIELD_TRIALS):
        if not RoundReview.objects.filter(status="waiting").exists():
            ReviewedDecision.objects.all().delete()
            RoundReview.objects.update(status="waiting", next_index=0, leased_until=None)
            worker.forget()
        offset = chance.uniform(0, worker.SLICE)
        due = timezone.now() + datetime.timedelta(seconds=offset)
        PlayTable.objects.filter(pk=live.pk).update(server_moves_at=due)
        began = time.perf_counter()
        worker.review_due(budget=analysis.BUDGET)
        ended = timezone.now()
        passes.append(time.perf_counter() - began)
        # The table waited from its due time to the end of the pass (none if it ended first).
        delays.append(max(0.0, (ended - due).total_seconds()))
        PlayTable.objects.filter(pk=live.pk).update(server_moves_at=None)
    worst = max(delays)
    p95 = statistics.quantiles(delays, n=20)[18]
    log(f"[{NAME}] yield: median {ms(statistics.median(delays))}, worst {ms(worst)}")
    text = (
        f"{YIELD_TRIALS} passes of the worker's review (`coach.worker.review_due` at the default "
        f"budget, slice {worker.SLICE:g} s) over 4-player `classic` rounds waiting, in a "
        "throw-away SQLite database; in each, another table's owed move falls due at a random "
        "moment of the slice. The move waits for the decision under review to be finished (the "
        "pass looks between two decisions) and is then made by the worker: delay median "
        f"{ms(statistics.median(delays))}, 95th percentile {ms(p95)}, worst **{ms(worst)}** "
        f"(a pass lasted {ms(statistics.median(passes))} at the median). Before the reviews "
        "the worker made owed moves within its look of 0.1 s; a table already due when a pass "
        "would begin is not delayed at all (no pass begins). "
        f"Target: the worst delay within {YIELD_TARGET:g} s."
    )
    check = Check(
        f"a due table's move delayed by the coach's reviews, worst within {YIELD_TARGET:g} s",
        ms(worst),
        worst <= YIELD_TARGET,
    )
    return text, [check]


def run(options: Options) -> Section:
    load = load_average()
    times_text, checks = review_times()
    yield_text, yield_checks = worker_yield()
    text = "\n\n".join(
        [
            f"Load average at the start: {load}. Reproduce with "
            "`.venv/bin/python bench/run.py --only coach`.",
            times_text,
            yield_text,
        ]
    )
    return Section(NAME, TITLE, text, checks + yield_checks)
