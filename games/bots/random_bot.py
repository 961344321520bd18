"""The random bot: any legal move, each as likely, from its own seeded generator."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import Move


class RandomBot:
    """A bot that picks uniformly among the legal moves (a Queen once per suit it orders)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: Mapping[str, Any], legal_moves: Sequence[Move]) -> Move:
        # In a fixed order, so that the choice does not depend on the order of the hand.
        return self.rng.choice(sorted(legal_moves))
