"""What each seat saw before its decisions: the round replayed once, a view made only where
one is asked for."""

from __future__ import annotations

from collections.abc import Sequence

from cards101.engine import Game, Move


class ViewsBefore:
    """The views of the seats to move before the round's moves, for indices asked in
    increasing order: the round is replayed once, as far as asked, and a view (which holds the
    round's log) is made only where one is asked for, not at every move of a long round.
    IllegalMove where a move is not legal."""

    def __init__(self, start: Game, moves: Sequence[Move]) -> None:
        self._game = start.copy()
        self._moves = moves
        self._made = 0

    def __getitem__(self, index: int) -> dict:
        if index < self._made:
            raise ValueError(f"The view before move {index} is behind this replay")
        while self._made < index:
            self._game.play(self._moves[self._made])
            self._made += 1
        return self._game.view(self._game.to_move)
