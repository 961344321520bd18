"""The random bot: any legal move, each as likely, from its own seeded generator."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cards101.bots.position import LONG_ROUND, ending_moves, moves_made
from cards101.engine import Move


class RandomBot:
    """A bot that picks uniformly among the legal moves (a Queen once per suit it orders);
    in a round that has gone on far too long, among those that head for its end."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal_moves: Sequence[Move]) -> Move:
        # Drawing at random as often as playing, random players can pass cards back and
        # forth for thousands of moves (the engine would cut the round).
        if moves_made(view) > LONG_ROUND:
            legal_moves = ending_moves(view, legal_moves)
        # In a fixed order, so that the choice does not depend on the order of the hand.
        return self.rng.choice(sorted(legal_moves))
