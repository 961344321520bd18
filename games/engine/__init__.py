"""The game of 101 in play, pure Python: `Game`, its `Move`s and the `IllegalMove` it refuses."""

from games.engine.game import Game
from games.engine.moves import IllegalMove, Move

__all__ = ["Game", "IllegalMove", "Move"]
