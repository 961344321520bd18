"""Moves as values and as JSON, and illegal moves: refused with a reason, changing nothing."""

import json

import pytest

from cards101.engine import Game, IllegalMove, Move
from cards101.rules import PRESETS, Card, RulesError
from tests.cards101.engine.positions import DRAW, PASS, play, position

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]


def test_a_move_is_a_value_that_can_be_hashed_and_sorted():
    assert Move("play", Card("Q", "S"), "H") == Move("play", Card("Q", "S"), "H")
    assert len({Move("draw"), Move("draw"), Move("pass")}) == 2
    moves = [Move("pass"), Move("draw"), play("QS", "H"), play("QS", "D"), play("9S")]
    assert sorted(moves) == [play("9S"), play("QS", "H"), play("QS", "D"), DRAW, PASS]
    with pytest.raises(AttributeError):
        Move("draw").kind = "pass"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("move", "stored"),
    [
        (play("QS", "H"), {"kind": "play", "card": "QS", "suit": "H"}),
        (play("10H"), {"kind": "play", "card": "10H"}),
        (DRAW, {"kind": "draw"}),
        (PASS, {"kind": "pass"}),
    ],
)
def test_a_move_is_stored_as_plain_json_and_read_back(move, stored):
    assert move.to_json() == stored
    assert Move.from_json(json.loads(json.dumps(stored))) == move


@pytest.mark.parametrize(
    ("stored", "message"),
    [
        ({"kind": "jump"}, "'jump' is not a move"),
        ({"kind": "play"}, "Say which card to play"),
        ({"kind": "play", "card": "QX", "suit": "H"}, '"QX" is not a card'),
        ({"kind": "play", "card": "QS", "suit": "X"}, 'A Queen orders S, H, D or C, not "X"'),
        ({"kind": "draw", "card": "QS"}, "Only a play names a card or a suit"),
        ({"kind": "draw", "extra": 1}, "is not a move"),
        ("draw", "is not a move"),
        (None, "is not a move"),
    ],
)
def test_a_stored_move_that_is_not_a_move_is_refused_clearly(stored, message):
    with pytest.raises(IllegalMove, match=message):
        Move.from_json(stored)


def test_an_illegal_move_is_a_value_error_of_the_rules_library():
    assert issubclass(IllegalMove, RulesError)
    assert issubclass(IllegalMove, ValueError)


def refused(game: Game, move: object, seat: int | None = None) -> str:
    """The reason a move is refused, checking that the game did not change."""
    before = game.to_json()
    with pytest.raises(IllegalMove) as error:
        game.play(move, seat=seat)  # type: ignore[arg-type]
    assert game.to_json() == before
    return str(error.value)


def test_a_card_not_in_the_hand_is_refused():
    game = position(AAOW, ["9S JC", "QS 10C"], pile="10S")
    assert refused(game, play("QS", "H")) == "Q♠ is not in your hand"


def test_a_move_out_of_turn_is_refused_naming_whose_turn_it_is():
    game = position(AAOW, ["9S JC", "JS 10C", "JH"], pile="10S", to_move=2)
    assert refused(game, play("JS"), seat=1) == "It is seat 2's turn"
    assert refused(game, play("JH"), seat=0) == "It is seat 2's turn"
    with pytest.raises(IllegalMove) as error:
        game.play(play("JS"), seat=1)
    assert error.value.render(names={2: "Vera"}) == "It is Vera's turn"


def test_a_card_that_does_not_fit_is_refused_saying_what_would():
    game = position(AAOW, ["9H JC 9S", "10C"], pile="10S")
    assert refused(game, play("JC")) == (
        "J♣ does not go on 10♠: play a card of its suit or rank, or a Queen"
    )


def test_after_a_queen_a_card_of_another_suit_is_refused_naming_the_ordered_suit():
    game = position(AAOW, ["9H JC", "10C"], pile="10S QH", ordered_suit="S")
    assert refused(game, play("9H")) == "Play a spade or a Queen: a spade was ordered"


def test_a_queen_needs_its_suit_and_only_a_queen_orders_one():
    game = position(AAOW, ["QH 9S", "10C"], pile="10S")
    assert refused(game, play("QH")) == "Choose the suit that Q♥ orders"
    assert refused(game, play("9S", "H")) == "Only a Queen orders a suit"


def test_drawing_or_passing_instead_of_covering_is_refused():
    game = position(CLASSIC, ["6S 9S JH", "10C"], pile="10S")
    game.play(play("6S"))
    assert refused(game, DRAW) == "You must cover your 6♠ first"
    assert refused(game, PASS) == "You must cover your 6♠ first"
    assert refused(game, play("JH")) == (
        "Cover your 6♠ with a card of its suit or rank, or a Queen"
    )


def test_passing_while_drawing_to_cover_is_refused():
    game = position(CLASSIC, ["6S JH", "10C"], pile="10S", stock="7D 8S")
    game.play(play("6S"))
    assert refused(game, PASS) == "Draw until you can cover your 6♠"


def test_covering_a_conventions_six_by_rank_is_refused():
    game = position(CONVENTIONS, ["6S 6H 9H", "10C"], pile="10S")
    game.play(play("6S"))
    assert refused(game, play("6H")) == "Cover your 6♠ with a card of its suit or a Queen"


def test_passing_before_drawing_is_refused():
    game = position(AAOW, ["9H JC", "10C"], pile="10S")
    assert refused(game, PASS) == "Draw a card first: you may pass when nothing fits"
    game = position(CLASSIC, ["9S JC", "10C"], pile="10S")
    assert refused(game, PASS) == "A card of yours fits: play it or draw"


def test_anything_that_is_not_a_move_is_refused():
    game = position(AAOW, ["9H JC", "10C"], pile="10S")
    assert refused(game, "draw") == "'draw' is not a move: play a card, draw or pass"


def test_moves_after_the_round_are_refused():
    game = position(CLASSIC, ["9S", "10C"], pile="10S")
    game.play(play("9S"))
    assert refused(game, DRAW) == "The round is over: deal the next one"
