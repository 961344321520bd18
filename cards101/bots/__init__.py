"""Players that decide from their seat's view only: `random`, `greedy` and `expert`.

    from cards101.bots import make_bot
    bot = make_bot("expert", seed=1, budget=0.3)
    move = bot.choose(game.view(seat), game.legal_moves())

A bot is given what its seat may see (`Game.view(seat)`) and the legal moves, never the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from cards101.bots.expert import Expert
from cards101.bots.greedy import Greedy
from cards101.bots.random_bot import RandomBot
from cards101.engine import Move

BOT_NAMES = ("random", "greedy", "expert")


class Bot(Protocol):
    name: str

    def choose(self, view: Mapping[str, Any], legal_moves: Sequence[Move]) -> Move: ...


def make_bot(name: str, seed: int = 0, **options: Any) -> Bot:
    """A bot of strength `name` ("random", "greedy" or "expert"), its choices seeded;
    `expert` takes `budget`, the seconds it may think per move."""
    if name not in BOT_NAMES:
        raise ValueError(f"There is no bot {name!r}: choose one of {', '.join(BOT_NAMES)}")
    return _CLASSES[name](seed, **options)


_CLASSES = {"random": RandomBot, "greedy": Greedy, "expert": Expert}
