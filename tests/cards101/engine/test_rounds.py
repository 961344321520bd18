"""Going out, both round ends, draws owed at the end, scoring, and the rounds that follow."""

import pytest

from cards101.engine import IllegalMove
from cards101.rules import PRESETS, score_match
from tests.cards101.engine.positions import DRAW, PASS, hand, play, position

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]


def test_under_first_out_the_round_ends_when_a_player_goes_out():
    game = position(CLASSIC, ["9S", "9C 10C", "KH JH"], pile="10S")
    game.play(play("9S"))
    assert game.round_over
    assert game.to_move is None
    assert game.legal_moves() == []
    assert game.round_outcomes == {0: {"out": "9S"}, 1: {"hand": "9C 10C"}, 2: {"hand": "JH KH"}}
    assert game.result.totals == {0: 0, 1: 10, 2: 6}
    assert game.view(2)["scores"] == [0, 10, 6]


def test_draws_still_owed_when_the_round_ends_are_not_taken():
    game = position(CLASSIC, ["7S", "9C 10C", "KH JH"], pile="10S")
    game.play(play("7S"))
    assert game.round_over
    assert hand(game, 1) == "9C 10C"
    assert game.view(1)["owed_draws"] == 4


def test_under_last_holder_the_others_play_on_and_the_next_player_takes_the_draws():
    game = position(AAOW, ["7S", "9C 10C", "KH JH"], pile="10S", stock="8D 6H")
    game.play(play("7S"))
    assert not game.round_over
    assert game.view(1)["went_out"] == [0]
    assert hand(game, 1) == "8D 9C 10C"
    assert game.to_move == 2
    assert game.view(1)["owed_draws"] == 0


def test_a_player_who_went_out_is_passed_over():
    game = position(AAOW, ["9S", "9C 10C", "9H JH"], pile="10S")
    game.play(play("9S"))
    game.play(play("9C"))
    game.play(play("9H"))
    assert game.to_move == 1


def test_a_skip_after_a_player_went_out_falls_on_the_next_player_still_holding_cards():
    game = position(AAOW, ["9S", "9C JC", "9H JH", "AH 9D"], pile="10S")
    for card in ("9S", "9C", "9H", "AH"):
        game.play(play(card))
    assert game.view(0)["log"][-1] == {"seat": 1, "kind": "skip"}
    assert game.to_move == 2


def test_under_last_holder_the_round_ends_when_one_player_still_holds_cards():
    game = position(AAOW, ["9S", "9C 10C", "9H"], pile="10S")
    game.play(play("9S"))
    game.play(play("9C"))
    game.play(play("9H"))
    assert game.round_over
    assert game.round_outcomes == {0: {"out": "9S"}, 1: {"hand": "10C"}, 2: {"out": "9H"}}
    assert game.view(0)["went_out"] == [0, 2]


def test_with_two_players_last_holder_ends_the_round_at_the_first_player_out():
    game = position(AAOW, ["7S", "9C 10C"], pile="10S")
    game.play(play("7S"))
    assert game.round_over
    assert hand(game, 1) == "9C 10C"
    assert game.view(0)["owed_draws"] == 1


def test_a_card_someone_went_out_with_can_come_back_and_be_held_at_the_end():
    variant = AAOW.replace(draw_when_able=True)
    game = position(variant, ["9D", "9H 10H JH", "7C"], pile="10D", rest=2)
    game.play(play("9D"))  # seat 0 goes out
    game.play(play("9H"))
    game.play(DRAW)  # turns over 10D 9D; seat 2 draws the 10D
    game.play(PASS)
    game.play(play("10H"))
    game.play(DRAW)  # the 9D
    game.play(PASS)
    game.play(play("JH"))
    assert game.round_over
    assert game.round_outcomes[0] == {"out": "9D"}
    assert "9D" in game.round_outcomes[2]["hand"].split()


def test_going_out_with_the_big_queen_takes_forty_off():
    game = position(AAOW, ["QS", "9C 10C"], pile="10S")
    game.play(play("QS", "H"))
    assert game.result.totals == {0: -40, 1: 10}


def test_the_result_is_score_match_over_the_rounds_played():
    game = position(CLASSIC, ["QH", "AC 10C", "QS QD"], pile="10H")
    game.play(play("QH", "C"))
    outcomes = {0: {"out": "QH"}, 1: {"hand": "10C AC"}, 2: {"hand": "QS QD"}}
    assert game.round_outcomes == outcomes
    assert game.result == score_match(CLASSIC, (0, 1, 2), [outcomes])
    assert game.result.totals == {0: -20, 1: 21, 2: 60}  # queens only: 40 + 20


def test_the_next_round_is_refused_while_a_round_is_played():
    game = position(CLASSIC, ["9S JC", "9C 10C"], pile="10S")
    before = game.to_json()
    with pytest.raises(IllegalMove, match="The round is still being played"):
        game.next_round()
    assert game.to_json() == before


def test_the_next_round_is_dealt_and_led_by_the_player_who_went_out_first():
    game = position(AAOW, ["9S", "9C 10C", "9H"], pile="10S", dealer=0)
    for card in ("9S", "9C", "9H"):
        game.play(play(card))
    game.next_round()
    view = game.view(1)
    assert view["round"] == 1
    assert view["dealer"] == 1
    assert view["leader"] == 0
    assert view["totals"] == [0, 10, 0]
    assert view["round_over"] is False
    # dealer_card: the leader's last card is on the pile already.
    assert sum(view["hand_counts"]) + view["stock"] + view["pile"] == 36


def test_under_clockwise_the_seat_after_the_dealer_leads():
    variant = CLASSIC.replace(leader="clockwise")
    game = position(variant, ["9S", "9C 10C", "9H JH"], pile="10S", dealer=1)
    game.play(play("9S"))
    game.next_round()
    assert (game.view(0)["dealer"], game.view(0)["leader"]) == (2, 0)


def test_a_player_who_lost_sits_out_and_the_deal_passes_over_them():
    variant = CLASSIC.replace(lose_over=50)
    hands = ["9S", "AS AH AD AC 10C", "9H JH"]
    game = position(variant, hands, pile="10S", dealer=0)
    game.play(play("9S"))
    assert game.result.lost_in == {1: 0}
    assert not game.match_over  # last survivor: two players remain
    game.next_round()
    view = game.view(1)
    assert view["active"] == [0, 2]
    assert view["dealer"] == 2
    assert view["leader"] == 0
    assert view["hand_counts"][1] == 0
    assert view["hand"] == []


def test_after_the_match_no_round_follows():
    game = position(AAOW.replace(lose_over=50), ["9S", "AS AH AD AC 10C"], pile="10S")
    game.play(play("9S"))
    assert game.match_over
    assert game.view(0)["standings"] == [[0], [1]]
    before = game.to_json()
    with pytest.raises(IllegalMove, match="The match is over"):
        game.next_round()
    with pytest.raises(IllegalMove, match="The match is over"):
        game.play(DRAW)
    assert game.to_json() == before
