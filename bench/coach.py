"""The coach: how long a round's review takes.

A 4-player round reviewed at the default budget (`cards101.analysis.BUDGET` a decision,
   less in a long round: `cards101.analysis.ROUND_BUDGET`): ROUNDS rounds of each preset, each
   the first round of a match played by greedy bots that now and then play at random (as
   people do: a round of four greedy players is shorter than a real one). Target: the
   slowest round within TARGET seconds.
"""

from __future__ import annotations

import random
import statistics
import time

from bench.common import Check, Options, Section, load_average, log, markdown_table
from cards101 import analysis
from cards101.bots.greedy import best_move
from cards101.bots.position import Position
from cards101.engine import Game, Move
from cards101.rules import PRESETS

NAME = "coach"
TITLE = "The coach: a round's review"
ROUNDS = 10
PLAYERS = 4
AT_RANDOM = 0.1  # the share of moves the players make at random
TARGET = 10.0  # seconds: a 4-player round reviewed
SEED = 28


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


def run(options: Options) -> Section:
    load = load_average()
    times_text, checks = review_times()
    text = "\n\n".join(
        [
            f"Load average at the start: {load}. Reproduce with "
            "`.venv/bin/python bench/run.py --only coach`.",
            times_text,
            "The reviews are tasks of the tasks' worker (coach.tasks), a process of its own: "
            "they no longer share the play worker's loop, and what they cost a live table is "
            "measured with the other outside work in the isolation benchmark.",
        ]
    )
    return Section(NAME, TITLE, text, checks)
