"""Covering one's own card: the 6 under cover_self and cover_self_suit, the aaow 8."""

import pytest

from cards101.engine import IllegalMove
from cards101.rules import PRESETS
from tests.cards101.engine.positions import DRAW, PASS, events, hand, legal, play, position, top

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]


def test_a_classic_six_must_be_covered_by_its_player_at_once():
    game = position(CLASSIC, ["6S 9S 9H", "9C 10C", "KH JH"], pile="10S")
    game.play(play("6S"))
    assert game.to_move == 0
    assert game.view(0)["must_cover"] is True
    assert game.view(1)["must_cover"] is False
    assert legal(game) == {"9S"}
    game.play(play("9S"))
    assert game.to_move == 1
    assert game.view(0)["must_cover"] is False


def test_covering_comes_first_even_where_a_player_may_draw_instead():
    game = position(CLASSIC, ["6S 9S 9H", "9C 10C"], pile="10S")
    assert "draw" in legal(game)  # classic lets a player draw instead of playing
    game.play(play("6S"))
    assert "draw" not in legal(game)
    with pytest.raises(IllegalMove, match="You must cover your 6♠ first"):
        game.play(DRAW)
    with pytest.raises(IllegalMove, match="You must cover your 6♠ first"):
        game.play(PASS)


def test_a_six_may_be_covered_with_a_six_or_a_queen():
    game = position(CLASSIC, ["6S 6H QD 9H", "9C 10C"], pile="10S")
    game.play(play("6S"))
    assert legal(game) == {"6H", "QD>S", "QD>H", "QD>D", "QD>C"}


def test_with_no_cover_the_player_draws_until_one_can_be_played():
    game = position(CLASSIC, ["6S 9H", "9C 10C"], pile="10S", stock="10H JD 8S 7C")
    game.play(play("6S"))
    assert legal(game) == {"draw"}
    game.play(DRAW)
    game.play(DRAW)
    assert legal(game) == {"draw"}
    assert game.to_move == 0
    game.play(DRAW)
    assert legal(game) == {"8S"}  # no pass: the card that covers must be played
    game.play(play("8S"))
    assert game.to_move == 1
    assert hand(game, 0) == "9H 10H JD"


def test_nobody_goes_out_on_a_six_they_must_cover_even_drawing_with_an_empty_hand():
    game = position(CLASSIC, ["6S", "9C 10C"], pile="10S", stock="8S 7C")
    game.play(play("6S"))
    assert not game.round_over
    assert game.view(0)["hand"] == []
    assert game.view(0)["went_out"] == []
    assert legal(game) == {"draw"}
    game.play(DRAW)
    game.play(play("8S"))
    assert game.round_over
    assert game.round_outcomes == {0: {"out": "8S"}, 1: {"hand": "9C 10C"}}


def test_with_nothing_to_draw_and_nothing_to_cover_the_player_passes_and_the_duty_ends():
    # The 6 was led, so nothing lies under it; the rest of the deck is in the other hand.
    game = position(CLASSIC, ["9H", ""], pile="6S", rest=1, cover="any")
    assert legal(game) == {"pass"}
    with pytest.raises(IllegalMove, match="There is nothing left to draw"):
        game.play(DRAW)
    game.play(PASS)
    assert game.to_move == 1
    assert top(game) == "6S"
    assert game.view(1)["must_cover"] is False
    assert "7S" in legal(game)  # the next player plays on the 6 as on any card


def test_a_conventions_six_is_covered_with_its_suit_or_a_queen_not_its_rank():
    game = position(CONVENTIONS, ["6S 6H 9S QD", "9C 10C"], pile="10S")
    game.play(play("6S"))
    assert legal(game) == {"9S", "QD>S", "QD>H", "QD>D", "QD>C"}


def test_without_its_suit_the_conventions_player_draws_one_and_the_turn_passes():
    game = position(CONVENTIONS, ["6S 6H 9H", "9C 10C 7S", "KH JH"], pile="10S", stock="8S 7D")
    game.play(play("6S"))
    assert legal(game) == {"draw"}
    game.play(DRAW)
    # The card drawn would cover, but the turn has passed; the 6 stays on top.
    assert hand(game, 0) == "8S 6H 9H"
    assert game.to_move == 1
    assert top(game) == "6S"
    assert legal(game) == {"7S"}
    assert events(game)[-2:] == [(0, "draw", 1, ["8S"]), (0, "pass")]


def test_under_cover_self_suit_a_six_played_as_the_last_card_draws_and_does_not_go_out():
    game = position(CONVENTIONS, ["6S", "9C 10C"], pile="10S", stock="7D")
    game.play(play("6S"))
    game.play(DRAW)
    assert not game.round_over
    assert hand(game, 0) == "7D"
    assert game.to_move == 1


def test_an_aaow_eight_is_covered_and_then_the_next_player_skips():
    game = position(AAOW, ["8H 9H JC", "9C 10C", "KH JH"], pile="10H")
    game.play(play("8H"))
    assert game.to_move == 0
    assert legal(game) == {"9H"}
    game.play(play("9H"))
    assert game.to_move == 2
    assert events(game)[-1] == (1, "skip")


def test_with_two_players_the_covered_eight_gives_the_turn_back():
    game = position(AAOW, ["8H 9H JC", "9C 10C"], pile="10H")
    game.play(play("8H"))
    game.play(play("9H"))
    assert game.to_move == 0


def test_an_eight_covered_with_an_ace_skips_the_next_player_once():
    game = position(AAOW, ["8H AH JC", "9C 10C", "KH JH", "10S 9S"], pile="10H")
    game.play(play("8H"))
    game.play(play("AH"))
    assert game.to_move == 2


def test_an_eight_covered_with_a_seven_makes_the_next_draw_and_skip_once():
    game = position(AAOW, ["8H 7H JC", "9C 10C", "KH JH"], pile="10H", stock="6D 7D")
    game.play(play("8H"))
    game.play(play("7H"))
    assert hand(game, 1) == "6D 9C 10C"
    assert game.to_move == 2


def test_an_eight_covered_with_an_eight_must_be_covered_again():
    game = position(AAOW, ["8H 8C 9C JD", "9S 10S", "KH JH"], pile="10H")
    game.play(play("8H"))
    game.play(play("8C"))
    assert game.to_move == 0
    assert legal(game) == {"9C"}
    game.play(play("9C"))
    assert game.to_move == 2


def test_an_eight_as_the_last_card_is_covered_by_drawing_even_with_an_empty_hand():
    game = position(AAOW, ["8H", "9S 10S", "KC JC"], pile="10H", stock="9H")
    game.play(play("8H"))
    assert not game.round_over
    assert legal(game) == {"draw"}
    game.play(DRAW)
    assert legal(game) == {"9H"}
    game.play(play("9H"))
    # Seat 0 went out on the covering card; the 8 still skips seat 1.
    assert game.view(0)["went_out"] == [0]
    assert game.to_move == 2
    assert hand(game, 0) == ""


def test_an_eight_whose_cover_duty_ends_with_a_pass_still_skips_the_next_player():
    game = position(AAOW, ["9S", "", "JC"], pile="8H", rest=1, cover="any", skip_pending=True)
    assert legal(game) == {"pass"}
    game.play(PASS)
    assert game.to_move == 2
