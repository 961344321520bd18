"""Each special card under each preset and option: skips, draws, Queens and plain cards."""

import pytest

from cards101.rules import PRESETS
from tests.cards101.engine.positions import hand, legal, play, position, top

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]


@pytest.mark.parametrize("variant", [AAOW, CLASSIC, CONVENTIONS], ids=PRESETS)
def test_an_ace_skips_the_next_player_of_three(variant):
    game = position(variant, ["AS 9H", "9S 10C", "KH JH"], pile="10S")
    game.play(play("AS"))
    assert game.to_move == 2
    assert game.view(0)["log"][-1] == {"seat": 1, "kind": "skip"}


def test_with_two_players_an_ace_gives_the_turn_back_so_chains_are_built():
    game = position(AAOW, ["AS AH 9H", "KC JC"], pile="10S")
    game.play(play("AS"))
    assert game.to_move == 0
    game.play(play("AH"))
    assert game.to_move == 0
    game.play(play("9H"))
    assert game.round_over
    assert game.round_outcomes == {0: {"out": "9H"}, 1: {"hand": "JC KC"}}


def test_with_four_players_an_ace_skips_only_the_next_one():
    game = position(AAOW, ["AS 9H", "9S", "KH", "10H JS"], pile="10S")
    game.play(play("AS"))
    assert game.to_move == 2


def test_an_ace_is_plain_when_aces_do_not_skip():
    game = position(AAOW.replace(ace_skips=False), ["AS 9H", "9S 10C", "KH JH"], pile="10S")
    game.play(play("AS"))
    assert game.to_move == 1


def test_an_aaow_six_makes_the_next_player_draw_two_and_skip():
    game = position(AAOW, ["6S 9H", "9C 10C", "KH JH"], pile="10S", stock="7D 8D 9D")
    game.play(play("6S"))
    assert hand(game, 1) == "7D 8D 9C 10C"
    assert game.to_move == 2
    assert game.view(1)["log"][-2:] == [
        {"seat": 1, "kind": "draw", "count": 2, "cards": ["7D", "8D"]},
        {"seat": 1, "kind": "skip"},
    ]


@pytest.mark.parametrize(
    ("variant", "seven", "drawn"),
    [
        (AAOW, "7H", 1),
        (AAOW, "7S", 1),
        (CLASSIC, "7H", 2),
        (CLASSIC, "7S", 4),
        (CONVENTIONS, "7H", 2),
        (CONVENTIONS, "7S", 2),
    ],
)
def test_a_seven_makes_the_next_player_draw_and_skip(variant, seven, drawn):
    game = position(variant, [f"{seven} 9D", "9C 10C", "KH JH"], pile="7C", stock="6D 8D 10D JD")
    game.play(play(seven))
    assert len(game.view(1)["hand"]) == 2 + drawn
    assert game.to_move == 2


@pytest.mark.parametrize("variant", [AAOW, CLASSIC, CONVENTIONS], ids=PRESETS)
def test_the_king_of_spades_makes_the_next_player_draw_five_and_skip(variant):
    game = position(variant, ["KS 9D", "9C 10C", "KH JH"], pile="9S", stock="6D 7D 8D 10D JD AD")
    game.play(play("KS"))
    assert hand(game, 1) == "6D 7D 8D 10D JD 9C 10C"
    assert game.to_move == 2


def test_other_kings_are_plain():
    game = position(AAOW, ["KH 9D", "9C 10C", "KD JH"], pile="9H")
    game.play(play("KH"))
    assert game.to_move == 1


@pytest.mark.parametrize(
    ("option", "card"),
    [("seven_draw", "7H"), ("seven_of_spades_draw", "7S"), ("king_of_spades_draw", "KS")],
)
def test_a_draw_of_nought_makes_the_card_plain_without_a_skip(option, card):
    variant = CLASSIC.replace(**{option: 0})
    game = position(variant, [f"{card} 9D", "9C 10C", "KH JH"], pile=f"9{card[-1]}")
    game.play(play(card))
    assert game.to_move == 1
    assert hand(game, 1) == "9C 10C"


def test_a_six_is_plain_under_six_plain():
    game = position(AAOW.replace(six="plain"), ["6S 9H", "9C 10C", "KH JH"], pile="10S")
    game.play(play("6S"))
    assert game.to_move == 1
    assert hand(game, 1) == "9C 10C"


def test_a_classic_eight_is_plain():
    game = position(CLASSIC, ["8S 9H", "9C 10C", "KH JH"], pile="10S")
    game.play(play("8S"))
    assert game.to_move == 1


def test_with_two_players_a_seven_draws_and_the_player_goes_on():
    game = position(CLASSIC, ["7H 7D 9D", "9C 10C"], pile="9H", stock="6S 8S 10S JS")
    game.play(play("7H"))
    game.play(play("7D"))
    assert game.to_move == 0
    assert hand(game, 1) == "6S 8S 10S JS 9C 10C"


def test_a_queen_goes_on_anything_and_is_offered_once_per_suit():
    game = position(AAOW, ["QH 9D", "9C 10C"], pile="10S")
    assert legal(game) == {"QH>S", "QH>H", "QH>D", "QH>C"}


def test_after_a_queen_only_the_ordered_suit_or_another_queen_may_follow():
    game = position(AAOW, ["QH 9D", "9H 10D QC KS"], pile="10S")
    game.play(play("QH", "D"))
    assert game.ordered_suit == "D"
    assert legal(game) == {"10D", "QC>S", "QC>H", "QC>D", "QC>C"}


def test_a_queen_on_a_queen_orders_again():
    game = position(AAOW, ["QH 9D", "9H QC", "KS 8S JD"], pile="10S")
    game.play(play("QH", "D"))
    game.play(play("QC", "S"))
    assert game.ordered_suit == "S"
    assert game.to_move == 2
    assert legal(game) == {"KS", "8S"}


def test_a_card_of_the_ordered_suit_ends_the_order():
    game = position(AAOW, ["QH 9D", "10D 9H", "JD 9S"], pile="10S")
    game.play(play("QH", "D"))
    game.play(play("10D"))
    assert game.ordered_suit is None
    assert top(game) == "10D"
    assert legal(game) == {"JD"}


def test_a_queen_may_order_its_own_suit():
    game = position(AAOW, ["QH 9D", "10H 9S"], pile="10S")
    game.play(play("QH", "H"))
    assert legal(game) == {"10H"}


def test_in_a_52_card_deck_the_low_cards_are_plain():
    variant = AAOW.replace(deck_size=52)
    game = position(variant, ["2S 5S 9D", "9C 10C", "KH JH"], pile="10S")
    game.play(play("2S"))
    assert game.to_move == 1
