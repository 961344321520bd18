"""Practice judged with no database (cards101.analysis.practice): a move solves a position
when it loses less than an inaccuracy against the best; the move played costs what the review
said; a move not legal there is not one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from cards101.analysis import INACCURACY
from cards101.analysis.practice import extra_loss, is_best, legal_move, solves

QUEEN = {"kind": "play", "card": "QS", "suit": "H"}
SEVEN = {"kind": "play", "card": "7H", "suit": None}
DRAW = {"kind": "draw", "card": None, "suit": None}


@dataclass
class Kept:
    """A reviewed decision as the coach keeps one: the seven played, a Queen best."""

    played: dict[str, Any] = field(default_factory=lambda: SEVEN)
    best: dict[str, Any] = field(default_factory=lambda: QUEEN)
    loss: float = 7.0  # measured cautiously: less than the mean in `losses`
    losses: list[list[Any]] = field(
        default_factory=lambda: [[QUEEN, 0.5], [SEVEN, 8.5], [DRAW, 2.0]]
    )
    position: dict[str, Any] = field(default_factory=lambda: {"legal": [QUEEN, SEVEN, DRAW]})


def test_the_move_played_costs_what_the_review_said_it_lost():
    assert extra_loss(Kept(), SEVEN) == 7.0
    assert not solves(Kept(), SEVEN)


def test_another_move_costs_its_loss_against_the_least_measured():
    assert extra_loss(Kept(), DRAW) == pytest.approx(1.5)
    assert extra_loss(Kept(), QUEEN) == 0.0


def test_a_move_less_than_an_inaccuracy_worse_solves_it_without_being_the_best():
    assert extra_loss(Kept(), DRAW) < INACCURACY
    assert solves(Kept(), DRAW) and not is_best(Kept(), DRAW)
    assert solves(Kept(), QUEEN) and is_best(Kept(), QUEEN)


def test_exactly_an_inaccuracy_worse_does_not_solve_it():
    kept = Kept(losses=[[QUEEN, 0.0], [SEVEN, 8.5], [DRAW, INACCURACY]])
    assert not solves(kept, DRAW)


def test_a_move_not_legal_there_has_no_loss():
    with pytest.raises(KeyError):
        extra_loss(Kept(), {"kind": "play", "card": "AS", "suit": None})


def test_a_posted_move_is_found_among_the_legal_ones_blank_fields_as_none():
    assert legal_move(Kept(), "draw", "", "") is DRAW
    assert legal_move(Kept(), "play", "QS", "H") is QUEEN
    assert legal_move(Kept(), "play", "QS", "") is None
    assert legal_move(Kept(), "pass", None, None) is None
