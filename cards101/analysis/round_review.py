"""A coach's review of a played round: how many penalty points each decision cost its seat.

    from cards101.analysis import review
    for decision in review(start, moves, seed=1):
        print(decision.index, decision.seat, decision.played, decision.best, decision.label)

Fair to hidden cards: a decision is judged by what its seat could know when it made it. For
each decision with more than one legal move, the cards the seat could not see are dealt
again and again, each deal consistent with everything the seat had seen this round (what was
played, what was drawn from a known stock, the suits a player showed it lacked: as the expert
bot deals them, `cards101.bots.inference.Knowledge`). In every deal each legal move is made
and the round played to its end by greedy players, and the seat's penalty points for the
round are read (a Queen bonus counts as negative points). Every move is tried in the same
deals, so that the luck of a deal cancels out.

A move's `loss` is how many more penalty points, on average over the deals, the seat ended the
round with than after the best move, measured cautiously: one standard error of the paired
differences is taken off, and a gap of no more than half a point or SIGNIFICANCE standard
errors counts as none (the move played is then taken as best, and labelled "best"). So more
deals can only make a named mistake clearer.

Labels, by the loss in penalty points (docs/coach.md says why these and how it all works):
    best        less than 2 points
    inaccuracy  2 to 6 points
    mistake     6 to 15 points
    blunder     15 points or more

Deterministic for a seed. The budget (seconds per decision) is turned into an amount of work
(simulated moves, WORK_PER_SECOND of them a second: what this machine plays), never read off
a clock, so the same seed gives the same review on any machine; on the machine it was
measured on a decision takes about its budget.

Accuracy (0-100) of a set of decisions: the mean over them of 100 * exp(-loss / ACCURACY_SCALE):
a best move scores 100, an inaccuracy of 3 points 74, a mistake of 10 points 37, a blunder of
30 points 5.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from cards101.bots.greedy import best_move
from cards101.bots.inference import Knowledge
from cards101.bots.position import Position
from cards101.engine import Game, Move

type Label = Literal["best", "inaccuracy", "mistake", "blunder"]
LABELS: tuple[Label, ...] = ("best", "inaccuracy", "mistake", "blunder")

# The loss in penalty points from which a decision is labelled an inaccuracy, a mistake, a
# blunder (below the first: best).
INACCURACY = 2.0
MISTAKE = 6.0
BLUNDER = 15.0
THRESHOLDS: Mapping[Label, float] = {
    "inaccuracy": INACCURACY,
    "mistake": MISTAKE,
    "blunder": BLUNDER,
}

BUDGET = 0.1  # seconds per decision by default
# Seconds a whole round's review takes at most by default: a round of many decisions gives
# each an equal share when BUDGET each would come to more (a long last_holder round).
ROUND_BUDGET = 7.0
# Simulated moves a second on the machine the figures were measured on (docs/benchmarks.md):
# the budget's seconds times this is the work a decision may do.
WORK_PER_SECOND = 30_000
MIN_DEALS = 8  # deals tried however small the budget
RACE_AFTER = 6  # deals before a move can be found clearly worse than the leader
BEATEN = 3.0  # standard errors behind the leader that stop a move being tried
MAX_DEALS = 2_000  # enough to tell any two moves apart that matter
PLAYOUT_MOVES = 400  # a playout still going after this many moves is scored as it stands
SIGNIFICANCE = 2.5  # standard errors a move must be behind the best to have lost anything
CAUTION = 1.0  # standard errors taken off a loss (more deals can only make it clearer)
NOISE = 0.5  # points: a smaller loss is no loss
ACCURACY_SCALE = 10.0  # points


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a round reviewed: the move `played` by `seat` at position `index` of
    the round's moves, the `best` move there (the move played when it was as good), the
    expected penalty points it `loss` lost against it, and its `label`.

    `losses` holds every legal move's expected loss against the best one (the move played's
    is `loss`; the others' as measured, noise included: for practice, to tell a player how a
    move they pick compares); `deals` is the number of deals the estimate rests on."""

    index: int
    seat: int
    played: Move
    best: Move
    loss: float
    label: Label
    losses: tuple[tuple[Move, float], ...] = ()
    deals: int = 0

    def loss_of(self, move: Move) -> float:
        """The expected loss of any legal move there (ValueError for one that was not)."""
        for legal, loss in self.losses:
            if legal == move:
                return loss
        raise ValueError(f"{move} was not a legal move at decision {self.index}")


def label_of(loss: float) -> Label:
    """The label of a loss in penalty points."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return "best"


def accuracy(losses: Sequence[float]) -> float | None:
    """The accuracy (0-100) of decisions with these losses; None for no decision."""
    if not losses:
        return None
    return sum(100.0 * math.exp(-loss / ACCURACY_SCALE) for loss in losses) / len(losses)


def review(
    start: Game, moves: Sequence[Move], *, budget: float | None = None, seed: int = 0
) -> list[Decision]:
    """Every decision of the round that begins at `start` (a Game before the round's first
    move; it is not changed) and goes on with `moves`, where the seat had more than one legal
    move, in order. `budget`: seconds per decision (None: BUDGET, or an equal share of
    ROUND_BUDGET in a round of more than 70 decisions). Raises IllegalMove if a move is not
    legal where it is made, ValueError for a budget that is not a number above 0."""
    return list(decisions(start, moves, budget=budget, seed=seed))


def decisions(
    start: Game,
    moves: Sequence[Move],
    *,
    budget: float | None = None,
    seed: int = 0,
    first: int = 0,
) -> Iterator[Decision]:
    """`review` one decision at a time, from the move at index `first` (a worker stops
    between two and goes on later: a decision's review does not depend on where it began)."""
    work = work_for(budget) if budget is not None else _default_work(start, moves)
    game = start.copy()
    for index, move in enumerate(moves):
        legal = game.legal_moves()
        if move not in legal:
            game.play(move)  # raises IllegalMove, saying why
        if index >= first and len(legal) > 1:
            seat: int = game.to_move  # type: ignore[assignment]
            own = legal[legal.index(move)]
            yield judge(game.view(seat), legal, own, index=index, work=work, seed=seed)
        game.play(move)


def judge(
    view: Mapping[str, Any],
    legal: Sequence[Move],
    played: Move,
    *,
    index: int = 0,
    work: int | None = None,
    seed: int = 0,
) -> Decision:
    """The decision of `view`'s seat (the seat to move) to play `played` among `legal`,
    judged with `work` simulated moves (None: the default budget's)."""
    if played not in legal:
        raise ValueError(f"{played} is not one of the legal moves")
    work = work_for(None) if work is None else work
    legal = sorted(legal)  # in the same order however the hand is sorted
    seat = view["seat"]
    rng = random.Random(f"cards101.analysis:{seed}:{index}")
    knowledge = Knowledge.of_view(view)
    mine = legal.index(played)
    race = _Race(len(legal), mine)
    done = 0
    while race.deals < MAX_DEALS and (race.deals < MIN_DEALS or done < work):
        if len(race.running) == 1:
            break  # the move played alone is left: every other is clearly worse
        hands, stock = knowledge.sample(rng)
        dealt = Game.from_view(view, hands, stock, rng.getrandbits(32))
        points = {}
        for number in race.running:
            game = dealt.copy()
            game.play(legal[number])
            done += _play_out(game)
            points[number] = game.result.rounds[-1].scores[seat]
        race.record(points)
    losses = race.losses()
    best_index = min(race.running, key=lambda number: (losses[number], number))
    loss = race.loss_of_played(best_index)
    if not loss:
        best_index = mine
    losses[mine] = loss  # the move played as judged: `loss_of(played) == loss`
    return Decision(
        index=index,
        seat=seat,
        played=played,
        best=legal[best_index],
        loss=loss,
        label=label_of(loss),
        losses=tuple(zip(legal, losses, strict=True)),
        deals=race.deals,
    )


class _Race:
    """The legal moves tried in the same deals, their penalty points deal by deal. A move
    clearly worse than the leader stops being tried (its loss stays as it was then measured);
    the move played is tried to the end."""

    def __init__(self, moves: int, played: int) -> None:
        self.played = played
        self.running = list(range(moves))
        self.points: list[list[int]] = [[] for _ in range(moves)]
        self.dropped: dict[int, float] = {}  # a move no longer tried: its loss then
        self.deals = 0

    def record(self, points: Mapping[int, int]) -> None:
        for number, value in points.items():
            self.points[number].append(value)
        self.deals += 1
        if self.deals >= RACE_AFTER and len(self.running) > 2:
            self._drop_the_beaten()

    def _mean(self, number: int) -> float:
        values = self.points[number]
        return sum(values) / len(values)

    def _leader(self) -> int:
        return min(self.running, key=lambda number: (self._mean(number), number))

    def _gaps(self, number: int, leader: int) -> tuple[float, float]:
        """How many points `number` is behind `leader` on average over the deals both were
        tried in, and the standard error of that."""
        theirs = self.points[number]
        ahead = self.points[leader][: len(theirs)]
        gaps = [mine - best for mine, best in zip(theirs, ahead, strict=True)]
        n = len(gaps)
        mean = sum(gaps) / n
        if n < 2:
            return mean, math.inf
        variance = sum((gap - mean) ** 2 for gap in gaps) / (n - 1)
        return mean, math.sqrt(variance / n)

    def _drop_the_beaten(self) -> None:
        leader = self._leader()
        kept = []
        for number in self.running:
            if number not in (leader, self.played):
                mean, error = self._gaps(number, leader)
                if mean > NOISE and mean > BEATEN * error:
                    self.dropped[number] = mean
                    continue
            kept.append(number)
        self.running = kept

    def loss_of_played(self, best: int) -> float:
        """The move played's loss against `best`, measured cautiously: the mean of the paired
        differences less CAUTION standard errors, and none unless it is more than NOISE points
        and SIGNIFICANCE standard errors."""
        if best == self.played:
            return 0.0
        mean, error = self._gaps(self.played, best)
        if mean <= NOISE or mean <= SIGNIFICANCE * error:
            return 0.0
        return mean - CAUTION * error

    def losses(self) -> list[float]:
        """Each move's expected points more than the best move still tried."""
        lowest = min(self._mean(number) for number in self.running)
        measured = {number: self._mean(number) - lowest for number in self.running}
        measured.update(self.dropped)
        return [max(0.0, measured[number]) for number in range(len(self.points))]


def _play_out(game: Game) -> int:
    """The round played to its end by greedy players; one still going after PLAYOUT_MOVES
    is cut there and scored as it stands. Returns the moves made."""
    for made in range(PLAYOUT_MOVES):
        if game.round_over:
            return made
        game.play(best_move(Position.of_game(game), game.legal_moves()))
    if not game.round_over:
        game.cut_round()
    return PLAYOUT_MOVES


def _default_work(start: Game, moves: Sequence[Move]) -> int:
    """The work of each decision of a round reviewed at the default budget: BUDGET's, or an
    equal share of ROUND_BUDGET's in a round of many decisions (the same wherever the review
    is taken up again)."""
    game, count = start.copy(), 0
    for move in moves:
        count += len(game.legal_moves()) > 1
        game.play(move)
    return work_for(min(BUDGET, ROUND_BUDGET / max(count, 1)))


def work_for(budget: float | None) -> int:
    """The simulated moves a decision may make with `budget` seconds (None: BUDGET)."""
    if budget is None:
        budget = BUDGET
    if isinstance(budget, bool) or not isinstance(budget, int | float) or not budget > 0:
        raise ValueError(f"The budget is a number of seconds above 0, not {budget!r}")
    if math.isinf(budget):
        raise ValueError("The budget is a number of seconds above 0, not infinity")
    return max(1, round(budget * WORK_PER_SECOND))
