"""A round that goes nowhere is cut at the move limit and scored as it stands."""

import json

import pytest

from cards101.engine import Game
from cards101.engine.game import MOVE_LIMIT
from cards101.rules import PRESETS, RulesError, score_match
from tests.cards101.engine.positions import DRAW, play, position

AAOW, CLASSIC = PRESETS["aaow"], PRESETS["classic"]
LAST = MOVE_LIMIT - 1  # moves made before the one that reaches the limit


def test_the_move_that_reaches_the_limit_cuts_the_round_and_every_hand_is_counted():
    game = position(CLASSIC, ["9S 10C", "9C KD", "KH JH"], pile="10S", moves=LAST - 1)
    game.play(play("9S"))
    assert not game.round_over
    assert game.view(0)["moves"] == LAST
    game.play(play("9C"))
    assert game.round_over
    assert game.cut
    assert game.round_outcomes == {0: {"hand": "10C"}, 1: {"hand": "KD"}, 2: {"hand": "JH KH"}}
    # Nobody went out: no 0, no Queen bonus; each hand counts its points.
    assert game.view(0)["scores"] == [10, 4, 6]
    assert game.result.totals == {0: 10, 1: 4, 2: 6}
    assert game.view(1)["log"][-1] == {"kind": "cut", "count": MOVE_LIMIT}
    assert game.view(1)["cut"] is True


def test_a_round_ended_by_its_last_move_is_not_cut():
    game = position(CLASSIC, ["9S", "9C KD", "KH JH"], pile="10S", moves=LAST)
    game.play(play("9S"))
    assert game.round_over
    assert not game.cut
    assert game.round_outcomes[0] == {"out": "9S"}
    assert game.view(0)["log"][-1]["kind"] == "out"


def test_under_last_holder_those_who_went_out_keep_it_and_the_holders_count():
    game = position(
        AAOW,
        ["9S 10C", "", "KH JH"],
        pile="10S QD",
        moves=LAST,
        went_out=[[1, "QD"]],
        ordered_suit="S",
    )
    game.play(play("9S"))
    assert game.round_over and game.cut
    assert game.round_outcomes == {0: {"hand": "10C"}, 1: {"out": "QD"}, 2: {"hand": "JH KH"}}
    assert game.view(0)["scores"] == [10, -20, 6]


def test_a_round_cut_early_by_a_simulating_bot_is_scored_as_at_the_move_limit():
    game = position(AAOW, ["9S 10C", "", "KH JH"], pile="10S QD", moves=40, went_out=[[1, "QD"]])
    game.cut_round()
    assert game.round_over and game.cut
    assert game.round_outcomes == {0: {"hand": "9S 10C"}, 1: {"out": "QD"}, 2: {"hand": "JH KH"}}
    assert game.view(0)["scores"] == [10, -20, 6]
    assert game.view(0)["log"][-1] == {"kind": "cut", "count": 40}
    with pytest.raises(RulesError, match="round is over"):
        game.cut_round()


def test_score_match_scores_a_cut_round_only_when_told_it_was_cut():
    round_ = {0: {"hand": "10C"}, 1: {"hand": "KD"}, 2: {"hand": "JH KH"}}
    with pytest.raises(RulesError, match="here nobody did"):
        score_match(CLASSIC, (0, 1, 2), [round_])
    result = score_match(CLASSIC, (0, 1, 2), [round_], cut=[0])
    assert result.totals == {0: 10, 1: 4, 2: 6}
    assert result.rounds[0].cut
    assert not score_match(CLASSIC, (0, 1), [{0: {"out": "9S"}, 1: {"hand": "KD"}}]).rounds[0].cut


def test_a_cut_round_is_saved_restored_and_scored_again_as_cut():
    game = position(CLASSIC, ["9S 10C", "9C KD", "KH JH"], pile="10S", moves=LAST - 1)
    game.play(play("9S"))
    game.play(play("9C"))
    saved = json.loads(json.dumps(game.to_json()))
    assert saved["cut_rounds"] == [0]
    again = Game.from_json(saved)
    assert again.cut and again.round_over
    assert again.result == game.result
    again.next_round()
    assert not again.cut
    assert again.view(0)["cut_rounds"] == [0]
    assert again.view(0)["moves"] == 0
    # A bot simulating from the view replays the cut round's score too.
    restored = Game.from_json(json.loads(json.dumps(again.to_json())))
    assert restored.result.rounds[0].cut


def test_after_a_cut_round_with_nobody_out_the_seat_after_the_new_dealer_leads():
    game = position(CLASSIC, ["9S 10C", "9C KD", "KH JH"], pile="10S", moves=LAST - 1)
    dealer = game.dealer
    game.play(play("9S"))
    game.play(play("9C"))
    game.next_round()
    assert game.dealer == (dealer + 1) % 3
    assert game.leader == (dealer + 2) % 3


def test_draws_and_passes_count_as_moves():
    game = position(CLASSIC, ["10C", "9C KD"], pile="9H", stock="6D", moves=LAST - 1)
    game.play(DRAW)  # the 6♦ does not fit: the turn passes by itself
    assert game.view(0)["moves"] == LAST
    assert game.to_move == 1
    game.play(play("9C"))
    assert game.cut


def test_under_last_holder_a_cut_round_may_hold_back_every_card_played_out():
    # The card seat 1 went out with came back through the stock to seat 2; the last card
    # played is another one, as a round is cut after any move.
    round_ = {0: {"hand": "10C"}, 1: {"out": "9D"}, 2: {"hand": "9D KH"}}
    with pytest.raises(RulesError, match="given twice"):
        score_match(AAOW, (0, 1, 2), [round_])
    result = score_match(AAOW, (0, 1, 2), [round_], cut=[0])
    assert result.rounds[0].scores == {0: 10, 1: 0, 2: 4}
