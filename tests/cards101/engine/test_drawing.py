"""Drawing: when nothing fits, after_draw, draw_when_able, turning over or shuffling the pile,
and draws that nothing is left for."""

import pytest

from cards101.engine import Game, IllegalMove
from cards101.rules import PRESETS
from tests.cards101.engine.positions import DRAW, PASS, events, hand, legal, play, position, top

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]


def test_a_player_with_no_card_that_fits_may_only_draw():
    game = position(AAOW, ["9H JC", "9C 10C"], pile="10S", stock="7S 8D")
    assert legal(game) == {"draw"}
    with pytest.raises(IllegalMove, match="Draw a card first"):
        game.play(PASS)


def test_under_may_play_the_card_drawn_may_be_played():
    game = position(AAOW, ["9H JC", "9C 10C"], pile="10S", stock="7S 8D")
    game.play(DRAW)
    assert game.to_move == 0
    assert legal(game) == {"7S", "pass"}
    game.play(play("7S"))
    assert hand(game, 0) == "9H JC"
    assert game.to_move == 0  # two players: the 7 made seat 1 draw and skip


def test_under_may_play_the_player_may_keep_the_card_drawn_and_pass():
    game = position(AAOW, ["9H JC", "9C 10C"], pile="10S", stock="7S 8D")
    game.play(DRAW)
    with pytest.raises(IllegalMove, match="You have drawn already"):
        game.play(DRAW)
    game.play(PASS)
    assert game.to_move == 1
    assert hand(game, 0) == "7S 9H JC"


def test_under_may_play_a_card_drawn_that_does_not_fit_passes_the_turn_by_itself():
    game = position(AAOW, ["9H JC", "9C 10C", "KH 8H"], pile="10S", stock="8D 7S")
    game.play(DRAW)
    assert game.to_move == 1
    assert events(game)[-2:] == [(0, "draw", 1, ["8D"]), (0, "pass")]


def test_under_after_draw_pass_the_turn_passes_even_when_the_card_drawn_fits():
    game = position(CONVENTIONS, ["9H JC", "9C 10C", "KH 8H"], pile="10S", stock="7S 8D")
    game.play(DRAW)
    assert game.to_move == 1
    assert hand(game, 0) == "7S 9H JC"


def test_under_draw_when_able_a_player_may_draw_instead_of_playing():
    game = position(CLASSIC, ["9S JC", "9C 10C"], pile="10S", stock="8D 7H")
    assert legal(game) == {"9S", "draw"}
    game.play(DRAW)
    assert legal(game) == {"9S", "pass"}


@pytest.mark.parametrize("variant", [AAOW, CONVENTIONS], ids=["aaow", "conventions"])
def test_without_draw_when_able_a_player_who_can_play_may_not_draw(variant):
    game = position(variant, ["9S JC", "9C 10C"], pile="10S", stock="8D 7H")
    assert legal(game) == {"9S"}
    with pytest.raises(IllegalMove, match="A card of yours fits: play it"):
        game.play(DRAW)


def test_when_the_stock_runs_out_the_pile_is_turned_over_under_its_top_card():
    game = position(AAOW, ["9H JC", "8C 10C"], pile="6D 9D 10D 7S 10S", rest=1)
    game.play(DRAW)
    # Turned face down: the first card played in the pile is the first drawn.
    assert hand(game, 0) == "9H 6D JC"
    assert game.cards_in_play()["pile"] == [game.cards_in_play()["pile"][-1]]
    assert top(game) == "10S"
    assert [card.code for card in game.cards_in_play()["stock"]] == ["9D", "10D", "7S"]
    assert events(game)[:2] == [("restock", 4), (0, "draw", 1, ["6D"])]


def test_a_penalty_draw_goes_on_across_the_turning_over():
    game = position(AAOW, ["KS JC", "8C", "KH"], pile="6D 9D 10D 7S 10S", stock="AH", rest=1)
    game.play(play("KS"))
    # The King goes on the pile first, so all five cards under it come back.
    assert {"AH", "6D", "9D", "10D", "7S"} <= set(hand(game, 1).split())
    assert events(game, 1)[1:4] == [
        (1, "draw", 1, ["AH"]),
        ("restock", 5),
        (1, "draw", 4, ["6D", "9D", "10D", "7S"]),
    ]
    assert top(game) == "KS"


def test_a_draw_that_nothing_is_left_for_is_not_made_and_the_skip_still_falls():
    game = position(AAOW, ["KS JC", "", "KH"], pile="10S", rest=1)
    before = len(game.view(1)["hand"])
    game.play(play("KS"))
    assert len(game.view(1)["hand"]) == before + 1  # only the 10♠ under the King
    assert game.to_move == 2


def test_with_nothing_fitting_and_nothing_left_to_draw_a_player_passes():
    game = position(AAOW, ["9H JC", ""], pile="10D", rest=1)
    assert legal(game) == {"pass"}
    game.play(PASS)
    assert game.to_move == 1
    assert events(game) == [(0, "pass")]


def test_a_shuffled_restock_is_a_seeded_shuffle_of_the_pile_under_its_top():
    shuffle = AAOW.replace(restock="shuffle")
    pile = "6D 7D 8D 9D 10D JD KD AD 6H"
    stocks = []
    for seed in (1, 1, 2):
        game = position(shuffle, ["9S JC", "8C 10C"], pile=pile, rest=1, seed=seed)
        game.play(DRAW)
        drawn = game.view(0)["log"][1]["cards"]
        stocks.append(drawn + [card.code for card in game.cards_in_play()["stock"]])
        assert top(game) == "6H"
    assert sorted(stocks[0]) == sorted(pile.split()[:-1])
    assert stocks[0] == stocks[1]  # the same seed shuffles the same way
    assert stocks[0] != stocks[2]
    assert stocks[0] != pile.split()[:-1]  # not the turned-over order


def test_a_restocked_game_continues_the_same_after_saving():
    game = position(AAOW.replace(restock="shuffle"), ["9S JC", "8C"], pile="6D 7D 8D 9D 6H", rest=1)
    copy = Game.from_json(game.to_json())
    game.play(DRAW)
    copy.play(DRAW)
    assert copy.to_json() == game.to_json()
