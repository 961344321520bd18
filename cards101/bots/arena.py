"""Bots playing whole matches against each other, and the win rates they add up to.

Each match seats the entrants (bot names, in the order given) rotated by the match's
number, so that no entrant always sits first; a win shared by k players counts 1/k.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cards101.bots import make_bot
from cards101.engine import Game
from cards101.rules import MatchResult, Variant

Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class PlayedMatch:
    """One match: which entrant sat in each seat, each finished round's outcomes (keyed by
    seat, as score_match takes them), the result and the number of moves made."""

    number: int
    entrants: tuple[int, ...]
    rounds: tuple[dict[int, dict[str, Any]], ...]
    result: MatchResult[int]
    moves: int

    def wins(self) -> dict[int, float]:
        """Each entrant's share of the win."""
        first = self.result.standings[0]
        return {self.entrants[seat]: 1 / len(first) for seat in first}


def seating(number: int, entrants: int) -> tuple[int, ...]:
    """The entrant in each seat for match `number`: the order given, rotated by one a match."""
    return tuple((seat + number) % entrants for seat in range(entrants))


def play_match(
    variant: Variant,
    bots: Sequence[str],
    *,
    number: int,
    seed: int,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    thinking: dict[str, list[float]] | None = None,
) -> PlayedMatch:
    """Match `number` of a series seeded `seed`, one bot per name in `bots` (one a seat
    before rotation); `options` by bot name, e.g. {"expert": {"budget": 0.1}}. Given a
    `thinking` dict, each bot's seconds per decision (more than one legal move) go in it."""
    entrants = seating(number, len(bots))
    base = seed * 1_000_003 + number * 16
    players = [
        make_bot(bots[entrant], seed=base + seat, **(options or {}).get(bots[entrant], {}))
        for seat, entrant in enumerate(entrants)
    ]
    game = Game.new(variant, players=len(bots), seed=f"{seed}:{number}")
    rounds = []
    moves = 0
    while True:
        while not game.round_over:
            seat = game.to_move
            bot, view, legal = players[seat], game.view(seat), game.legal_moves()
            if thinking is None or len(legal) == 1:
                game.play(bot.choose(view, legal))
            else:
                began = time.perf_counter()
                move = bot.choose(view, legal)
                thinking.setdefault(bot.name, []).append(time.perf_counter() - began)
                game.play(move)
            moves += 1
        rounds.append(game.round_outcomes)
        if game.match_over:
            break
        game.next_round()
    return PlayedMatch(number, entrants, tuple(rounds), game.result, moves)


def wilson(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default): good near 0 and 1 too."""
    if trials <= 0:
        return (0.0, 1.0)
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    return (max(0.0, centre - half / denominator), min(1.0, centre + half / denominator))


@dataclass
class Tally:
    """Wins, matches, rounds and moves of a series."""

    entrants: int
    wins: list[float] = field(default_factory=list)
    matches: int = 0
    rounds: int = 0
    moves: int = 0

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.entrants

    def add(self, played: PlayedMatch) -> None:
        for entrant, share in played.wins().items():
            self.wins[entrant] += share
        self.matches += 1
        self.rounds += len(played.rounds)
        self.moves += played.moves

    def win_rate(self, entrant: int) -> tuple[float, float, float]:
        """The share of matches won, and its 95% interval."""
        rate = self.wins[entrant] / self.matches if self.matches else 0.0
        return (rate, *wilson(self.wins[entrant], self.matches))


def labels(bots: Sequence[str]) -> list[str]:
    """The entrants' names as shown: "greedy", and "greedy 2" for a second of the same."""
    shown = []
    for index, name in enumerate(bots):
        count = list(bots[: index + 1]).count(name)
        shown.append(name if count == 1 else f"{name} {count}")
    return shown
