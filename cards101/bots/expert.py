"""The expert bot: tries each move in many deals of the cards it cannot see, and keeps the
move that did best.

Each deal (`Knowledge.sample`) fits everything the seat has seen this round; the bot builds
the game of that deal (`Game.from_view`, once a deal, copied for each move), makes the move,
plays the round out with greedy players and values the result for the match: a match won or
lost, else the totals as they then stand. Every move is tried in the same deals, so that luck
of the deal cancels out, until the time budget is spent.

Time: no deal starts after the budget once MIN_DEALS are done, and nothing goes on past the
budget plus GRACE (0.4 s at the default budget), a playout half-way included: in a round whose
hands have grown huge a single deal can take seconds. With `deals` instead, the clock is not
read at all, so a seed gives the same choices on every machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cards101.bots.chances import chances
from cards101.bots.greedy import best_move
from cards101.bots.inference import Knowledge
from cards101.bots.position import Position, effects
from cards101.engine import Game, Move

BUDGET = 0.1  # seconds per decision, by default
# Seconds past the budget that the first MIN_DEALS deals may take; then the search stops
# wherever it is, inside a playout too: a decision never takes much over BUDGET + GRACE.
GRACE = 0.3
MIN_DEALS = 4  # deals tried however short the budget (as long as GRACE allows)
MAX_DEALS = 400  # enough to tell moves apart; more only spends time
RACE_AFTER = 6  # deals before a move can be found clearly behind
BEATEN = 2.0  # standard errors behind the leader that drop a move
PLAYOUT_MOVES = 400  # a round that has not ended by then is cut: scored as it stands


type Clock = Callable[[], float]


class Expert:
    """A bot that searches by simulation within `budget` seconds a move (or, for
    reproducible runs, `deals` deals whatever the time); `clock` tells the seconds."""

    name = "expert"

    def __init__(
        self,
        seed: int = 0,
        budget: float = BUDGET,
        deals: int | None = None,
        clock: Clock = time.perf_counter,
    ) -> None:
        if not (isinstance(budget, int | float) and budget > 0):
            raise ValueError(f"The budget is a number of seconds above 0, not {budget!r}")
        if deals is not None and not (type(deals) is int and deals > 0):
            raise ValueError(f"The number of deals is a whole number above 0, not {deals!r}")
        self.seed = seed
        self.budget = budget
        self.fixed_deals = deals
        self.clock = clock  # seconds, for the budget (a test gives a fake one)
        self.rng = random.Random(seed)
        self.deals = 0  # deals tried in the last decision, for benchmarks

    def choose(self, view: Mapping[str, Any], legal_moves: Sequence[Move]) -> Move:
        self.deals = 0
        if len(legal_moves) == 1:
            return legal_moves[0]
        clock = self.clock
        # With a fixed number of deals the clock is never read: the same choice on any
        # machine. Each playout is capped at PLAYOUT_MOVES, so that work is bounded too.
        timed = self.fixed_deals is None
        began = clock() if timed else 0.0
        deadline = began + self.budget
        stop = began + self.budget + GRACE if timed else math.inf
        position = Position.of_view(view)
        going_out = _going_out(position, legal_moves)
        if going_out:
            return best_move(position, going_out)
        most = self.fixed_deals or MAX_DEALS
        knowledge = Knowledge.of_view(view)
        seat = position.seat
        race = _Race(len(legal_moves))
        while race.deals < most and len(race.running) > 1:
            enough = timed and race.deals >= MIN_DEALS
            if timed and (clock() > stop or (enough and clock() > deadline)):
                break
            hands, stock = knowledge.sample(self.rng)
            dealt = Game.from_view(view, hands, stock, self.rng.getrandbits(32))
            values = {}
            for index in race.running:
                if enough and values and clock() > deadline:
                    break  # a deal not tried with every move tells nothing: left out
                game = dealt.copy()
                game.play(legal_moves[index])
                if not _play_out(game, stop, clock):
                    break  # stopped at the deadline: this deal is left out too
                values[index] = _value(game, seat)
            else:
                race.record(values)
        self.deals = race.deals
        if not race.deals:
            # Not one deal tried with every move before time ran out (a round whose hands
            # have grown huge): the move greedy would make, as in a tie below.
            return best_move(position, legal_moves)
        best = race.leaders()
        choices = [legal_moves[index] for index in best]
        # Moves that did equally well (a Queen ordering suits nobody holds): greedy decides.
        return choices[0] if len(choices) == 1 else best_move(position, choices)


class _Race:
    """Moves tried on the same deals; a move clearly behind the leader stops being tried."""

    def __init__(self, moves: int) -> None:
        self.running = list(range(moves))
        self.values: list[list[float]] = [[] for _ in range(moves)]
        self.deals = 0

    def record(self, values: Mapping[int, float]) -> None:
        for index, value in values.items():
            self.values[index].append(value)
        self.deals += 1
        if self.deals >= RACE_AFTER:
            self.drop_the_beaten()

    def mean(self, index: int) -> float:
        values = self.values[index]
        return sum(values) / len(values)

    def leaders(self) -> list[int]:
        best = max(self.mean(index) for index in self.running)
        return [index for index in self.running if self.mean(index) == best]

    def drop_the_beaten(self) -> None:
        leader = self.leaders()[0]
        ahead = self.values[leader]
        kept = []
        for index in self.running:
            if index == leader:
                kept.append(index)
                continue
            # Each deal compared with itself: what one deal adds to both cancels out.
            gaps = [a - b for a, b in zip(ahead, self.values[index][-len(ahead) :], strict=True)]
            n = len(gaps)
            mean = sum(gaps) / n
            spread = math.sqrt(sum((gap - mean) ** 2 for gap in gaps) / (n - 1))
            if spread == 0.0:
                # The same result in every deal (Queens ordering suits nobody holds): once
                # is enough; a move behind in every deal is beaten.
                if mean > 0 or n >= 2 * RACE_AFTER:
                    continue
            elif mean > BEATEN * spread / math.sqrt(n):
                continue
            kept.append(index)
        self.running = kept


def _going_out(position: Position, legal_moves: Sequence[Move]) -> list[Move]:
    """The plays of a last card that is not one the player must cover: nothing beats them."""
    if len(position.hand) != 1:
        return []
    table = effects(position.variant)
    return [move for move in legal_moves if move.kind == "play" and table[move.card].cover is None]


def _play_out(game: Game, stop: float = math.inf, clock: Clock = time.perf_counter) -> bool:
    """The round played on by greedy players (all of them: a deal's cards are all guesses);
    one still going after PLAYOUT_MOVES moves is cut there, scored as it stands (as the
    engine cuts a round at its move limit). False if the clock passed `stop` first: it is
    read before every move, as a greedy move with a hand grown huge takes milliseconds."""
    timed = stop != math.inf
    for _ in range(PLAYOUT_MOVES):
        if game.round_over:
            return True
        if timed and clock() > stop:
            return False
        game.play(best_move(Position.of_game(game), game.legal_moves()))
    if not game.round_over:
        game.cut_round()
    return True


def _value(game: Game, seat: int) -> float:
    """What the round's end is worth to `seat`: its share of a match won, else its chances
    as the totals stand (lower is better; the match is lost by going over the limit)."""
    result = game.result
    if result.finished:
        for group in result.standings:
            if seat in group:
                return 1.0 / len(group) if group is result.standings[0] else 0.0
        return 0.0
    active = result.active
    if seat not in active:
        return 0.0
    totals = {player: result.totals[player] for player in active}
    return chances(game.variant, totals, seat, len(active))
