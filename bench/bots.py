"""The bots: how much stronger each is than the one below it, and how long the expert thinks.

1. `greedy` against `random`, 2-player `aaow`: whole matches as `manage.py simulate` plays
   them (cards101.bots.arena, seats rotating from match to match). Target: greedy wins at
   least 80% of the matches.
2. `expert` at its default budget against `greedy`, the same way. Target: the expert wins at
   least 60% of the matches.
3. The expert's time per decision in those matches (every move with more than one legal
   choice; a single legal move is made at once), with the deals it tried. Target: the
   slowest decision under 1 s.
4. The expert's time on long `last_holder` rounds (3 and 4 players, where players go out one
   by one and cards come back through the restock): decisions taken along every round of
   matches played by greedy's own move in every seat, as at a table of experts (they never
   tire of a round, as the greedy bot does), for the presets with `last_holder` and for rule
   mixes under which such rounds reach the engine's move limit. Timed once on the machine as
   it is and once beside a process that keeps a core busy (the site runs the bots beside its
   web processes). Target: the slowest decision under 1 s, both times; the slowest is shown
   with its rules, round and position.

Win rates carry their 95% Wilson interval; the deals follow from SEED, the expert's choices
also from the machine's speed (it thinks until its budget is spent).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bench.common import (
    Check,
    Options,
    Section,
    busy_core,
    load_average,
    log,
    markdown_table,
    ms,
)
from cards101.bots import chances, expert
from cards101.bots.arena import Tally, play_match
from cards101.bots.greedy import best_move
from cards101.bots.position import Position
from cards101.engine import Game, Move
from cards101.engine.game import MOVE_LIMIT
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

# Part 4. Presets with `last_holder`, 3 and 4 players, each played from SEEDS seeds.
LAST_HOLDER_TABLES: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("aaow", {}, 3),
    ("aaow", {}, 4),
    ("aaow", {"restock": "shuffle"}, 4),
    ("aaow", {"deck_size": 52, "hand_size": 8, "restock": "shuffle"}, 4),
    ("classic", {"round_end": "last_holder"}, 4),
    ("conventions", {"round_end": "last_holder"}, 4),
)
SEEDS = 2
MARKS = (0, 50, 100, 150, 200, 300, 400)  # moves into a round at which a decision is timed
# Rule mixes and seeds (found over random mixes with `last_holder`) whose rounds greedy's
# moves take to the engine's move limit, hands grown to 15-34 cards; the first is
# tests/cards101/bots/test_long_rounds.py's classic-last-holder.
LONG_ROUNDS: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("classic", {"round_end": "last_holder", "six": "draw_2_skip"}, 3, 723058),
    (
        "aaow",
        {
            "deck_size": 52,
            "hand_size": 8,
            "opening": "any",
            "ace_skips": False,
            "seven_draw": 5,
            "eight": "plain",
            "king_of_spades_draw": 4,
            "nine_points": 9,
            "big_queen": "D",
            "out_bonus": False,
            "lose_over": 162,
        },
        4,
        974634,
    ),
    (
        "aaow",
        {
            "draw_when_able": True,
            "ace_skips": False,
            "six": "plain",
            "seven_draw": 5,
            "seven_of_spades_draw": 5,
            "eight": "plain",
            "king_of_spades_draw": 0,
            "nine_points": 9,
            "big_queen": "D",
            "out_bonus": False,
            "lose_over": 91,
            "game_end": "last_survivor",
        },
        4,
        380933,
    ),
    (
        "aaow",
        {
            "hand_size": 8,
            "opening": "last_dealt",
            "leader": "clockwise",
            "after_draw": "pass",
            "draw_when_able": True,
            "seven_draw": 5,
            "seven_of_spades_draw": 5,
            "eight": "plain",
            "king_of_spades_draw": 4,
            "restock": "shuffle",
            "nine_points": 9,
            "big_queen": "C",
            "out_bonus": False,
            "queens_only_penalty": True,
            "lose_over": 61,
        },
        3,
        366794,
    ),
)
LONG_MARKS = (*range(0, MOVE_LIMIT, 100), MOVE_LIMIT - 10)


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
    long_text, long_checks = long_rounds()
    checks += long_checks
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
            f"{over_budget:.0%} ran past the budget (the deal being played out is finished, "
            f"and the first {expert.MIN_DEALS} deals are tried however long they take, up to "
            f"{expert.BUDGET + expert.GRACE:g} s in all). "
            f"Target: the slowest under {MOST_SECONDS:g} s.",
            long_text,
        ]
    )
    return Section(NAME, TITLE, text, checks)


# --- part 4: long last_holder rounds ------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One timed decision of the expert and where it was taken."""

    seconds: float
    rules: str
    players: int
    seed: int
    round: int
    moves: int  # made in the round before this decision
    events: int  # in the round's log
    legal: int
    held: int  # cards in every hand
    deals: int


def rules_label(preset: str, options: Mapping[str, Any]) -> str:
    return f"`{preset}`" + (f" with `{json.dumps(options)}`" if options else "")


def decisions() -> Iterator[tuple[str, int, int, dict[str, Any], list[Move]]]:
    """(rules, players, seed, view, legal moves) at the first decision at or after each
    mark of every round of every match of part 4."""
    tables = [
        (rules_label(preset, options), preset, options, players, range(SEEDS), MARKS)
        for preset, options, players in LAST_HOLDER_TABLES
    ]
    tables += [
        (f"mix {number}", preset, options, players, [seed], LONG_MARKS)
        for number, (preset, options, players, seed) in enumerate(LONG_ROUNDS, 1)
    ]
    for label, preset, options, players, seeds, marks in tables:
        variant = PRESETS[preset].replace(**options)
        for seed in seeds:
            game = Game.new(variant, players=players, seed=seed)
            while True:
                ahead = list(marks)
                while not game.round_over:
                    legal = game.legal_moves()
                    view = game.view(game.to_move)
                    if ahead and view["moves"] >= ahead[0] and len(legal) > 1:
                        while ahead and view["moves"] >= ahead[0]:
                            ahead.pop(0)
                        yield label, players, seed, view, legal
                    game.play(best_move(Position.of_game(game), legal))
                if game.match_over:
                    break
                game.next_round()


def time_decisions() -> list[Decision]:
    # As in a fresh worker process: the first decision under each rules builds the table of
    # match chances the expert values rounds with.
    chances._survival.cache_clear()
    timed = []
    for number, (rules, players, seed, view, legal) in enumerate(decisions()):
        bot = expert.Expert(seed=SEED * 1_000_003 + number)
        began = time.perf_counter()
        bot.choose(view, legal)
        seconds = time.perf_counter() - began
        timed.append(
            Decision(
                seconds,
                rules,
                players,
                seed,
                view["round"],
                view["moves"],
                len(view["log"]),
                len(legal),
                sum(view["hand_counts"]),
                bot.deals,
            )
        )
    return timed


def long_rounds() -> tuple[str, list[Check]]:
    rows = []
    checks = []
    slowest_of = {}
    for label, busy in (("as it is", False), ("beside a busy core", True)):
        log(f"[{NAME}] long last_holder rounds, the machine {label}")
        load = load_average()
        if busy:
            with busy_core():
                timed = time_decisions()
        else:
            timed = time_decisions()
        seconds = sorted(decision.seconds for decision in timed)
        slowest = max(timed, key=lambda decision: decision.seconds)
        slowest_of[label] = slowest
        rows.append(
            [
                label,
                load,
                len(timed),
                sum(1 for decision in timed if decision.moves >= 200),
                max(decision.moves for decision in timed),
                ms(statistics.median(seconds)),
                ms(statistics.quantiles(seconds, n=100)[98]),
                f"**{ms(slowest.seconds)}**",
                sum(1 for value in seconds if value > expert.BUDGET + expert.GRACE),
            ]
        )
        checks.append(
            Check(
                f"an expert decision on long `last_holder` rounds, the machine {label}, "
                f"slowest under {MOST_SECONDS:g} s",
                ms(slowest.seconds),
                slowest.seconds < MOST_SECONDS,
            )
        )
        log(f"[{NAME}] slowest {ms(slowest.seconds)}: {slowest}")
    worst = [
        [
            label,
            ms(decision.seconds),
            decision.rules,
            decision.players,
            decision.seed,
            decision.round + 1,
            decision.moves,
            decision.events,
            decision.legal,
            decision.held,
            decision.deals,
        ]
        for label, decision in slowest_of.items()
    ]
    text = "\n\n".join(
        [
            "**Long `last_holder` rounds.** The expert at its default budget "
            f"({expert.BUDGET:g} s; nothing goes on past {expert.BUDGET + expert.GRACE:g} s, "
            "a playout half-way included) at the first decision at or after moves "
            f"{', '.join(map(str, MARKS))} of every round of {SEEDS} matches of each preset "
            f"table below, and every 100 moves of every round of {len(LONG_ROUNDS)} rule "
            "mixes whose rounds reach the engine's move limit "
            f"({MOVE_LIMIT} moves), the matches played by greedy's own move in every seat. "
            "Preset tables: "
            + "; ".join(
                f"{rules_label(preset, options)}, {players} players"
                for preset, options, players in LAST_HOLDER_TABLES
            )
            + ". Long rounds: "
            + "; ".join(
                f"mix {number}: {rules_label(preset, options)}, {players} players, seed {seed}"
                for number, (preset, options, players, seed) in enumerate(LONG_ROUNDS, 1)
            )
            + ".",
            markdown_table(
                [
                    "The machine",
                    "Load average before",
                    "Decisions",
                    "At move 200+",
                    "Latest move",
                    "Median",
                    "99th percentile",
                    "Slowest",
                    f"Over {expert.BUDGET + expert.GRACE:g} s",
                ],
                rows,
            ),
            "The slowest decision, and where it was taken (moves made in its round, events "
            "in the round's log, legal moves, cards in all hands, deals the expert tried):",
            markdown_table(
                [
                    "The machine",
                    "Time",
                    "Rules",
                    "Players",
                    "Seed",
                    "Round",
                    "Moves",
                    "Log events",
                    "Legal moves",
                    "Cards held",
                    "Deals",
                ],
                worst,
            ),
        ]
    )
    return text, checks
