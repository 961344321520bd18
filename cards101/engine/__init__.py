"""The game of 101 in play, pure Python: `Game`, its `Move`s and the `IllegalMove` it refuses."""

from cards101.engine.game import Game
from cards101.engine.moves import IllegalMove, Move

__all__ = ["Game", "IllegalMove", "Move"]
