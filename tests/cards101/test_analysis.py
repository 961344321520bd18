"""The coach's review of a round (cards101.analysis): fixed API, fair to hidden cards,
deterministic, and it finds what a player of 101 would call a mistake."""

from __future__ import annotations

import random

import pytest

from cards101 import analysis
from cards101.analysis import Decision, accuracy, decisions, judge, kind_of, label_of, review
from cards101.bots import make_bot
from cards101.bots.inference import Knowledge
from cards101.engine import Game, IllegalMove, Move
from cards101.rules import PRESETS, parse_card
from tests.cards101.engine.positions import position

SMALL = 0.005  # seconds a decision: the review's least work (MIN_DEALS deals) in tests


def played_round(preset: str, players: int, seed: int, bots: list[str]) -> tuple[Game, list[Move]]:
    """A round's start and its moves, each seat played by a bot."""
    game = Game.new(PRESETS[preset], players=players, seed=seed)
    start = game.copy()
    seated = [make_bot(name, seed=seed * 10 + seat) for seat, name in enumerate(bots)]
    moves = []
    while not game.round_over:
        move = seated[game.to_move].choose(game.view(game.to_move), game.legal_moves())
        moves.append(move)
        game.play(move)
    return start, moves


def play(card: str, suit: str | None = None) -> Move:
    return Move("play", parse_card(card), suit)


def test_a_review_has_one_decision_per_move_with_a_choice_in_order():
    start, moves = played_round("classic", 3, 4, ["random", "greedy", "greedy"])
    reviewed = review(start, moves, budget=SMALL, seed=1)
    game = start.copy()
    with_choice = []
    for index, move in enumerate(moves):
        legal = game.legal_moves()
        if len(legal) > 1:
            with_choice.append((index, game.to_move, move, legal))
        game.play(move)
    assert [d.index for d in reviewed] == [index for index, *_ in with_choice]
    for decision, (_, seat, move, legal) in zip(reviewed, with_choice, strict=True):
        assert decision.seat == seat
        assert decision.played == move
        assert decision.best in legal
        assert decision.loss >= 0.0
        assert decision.label == label_of(decision.loss)
        assert (decision.loss == 0.0) == (decision.best == decision.played)
        assert {move for move, _ in decision.losses} == set(legal)
        assert decision.loss_of(decision.played) == decision.loss


def test_the_start_of_the_round_is_left_as_it_was():
    start, moves = played_round("aaow", 2, 3, ["greedy", "random"])
    before = start.to_json()
    review(start, moves, budget=SMALL)
    assert start.to_json() == before


def test_a_seed_gives_the_same_review_and_a_review_goes_on_where_it_stopped():
    start, moves = played_round("conventions", 3, 2, ["random", "random", "greedy"])
    first = review(start, moves, budget=SMALL, seed=7)
    assert review(start, moves, budget=SMALL, seed=7) == first
    halfway = first[len(first) // 2].index
    resumed = list(decisions(start, moves, budget=SMALL, seed=7, first=halfway))
    assert resumed == [d for d in first if d.index >= halfway]


def test_a_decision_is_judged_by_what_its_seat_could_see_never_by_hidden_cards():
    """Two deals alike for seat 0 (its hand, the pile) but with the other hand and the stock
    dealt otherwise: the first decision is judged the same in both."""
    game = Game.new(PRESETS["classic"], players=2, seed=11)
    while len(game.legal_moves()) < 2:
        game.play(game.legal_moves()[0])
    view = game.view(game.to_move)
    hands, stock = Knowledge.of_view(view).sample(random.Random(5))
    other = Game.from_view(view, hands, stock, seed=99)
    hidden = 1 - game.to_move
    assert other.hands[hidden] != game.hands[hidden] or other.stock != game.stock
    move = game.legal_moves()[-1]
    assert review(game, [move], budget=SMALL, seed=3) == review(other, [move], budget=SMALL, seed=3)


def test_spending_the_queen_one_could_go_out_on_is_a_blunder_and_drawing_a_mistake():
    """Classic rules (a Queen as the last card scores a bonus): with the 9 of hearts and the
    Queen of hearts on a 9, the 9 is best, keeping the Queen to go out on next turn."""
    game = position("classic", ["QH 9H", "8D 7C JS"], pile="9S")
    view, legal = game.view(0), game.legal_moves()
    spent = judge(view, legal, play("QH", "S"), seed=1)
    assert spent.label == "blunder"
    assert spent.best == play("9H")
    assert kind_of(view, spent) == "queen_spent"
    drew = judge(view, legal, Move("draw"), seed=1)
    assert drew.label in ("mistake", "blunder")
    assert kind_of(view, drew) == "drew"
    best = judge(view, legal, play("9H"), seed=1)
    assert (best.label, best.loss, best.best) == ("best", 0.0, play("9H"))
    assert kind_of(view, best) == ""


def test_an_illegal_move_or_a_bad_budget_is_refused():
    start, moves = played_round("classic", 2, 1, ["greedy", "greedy"])
    with pytest.raises(IllegalMove):
        review(start, [Move("pass"), *moves], budget=SMALL)
    for budget in (0, -1, "1", float("inf"), True):
        with pytest.raises(ValueError, match="budget"):
            review(start, moves, budget=budget)


def test_labels_follow_the_thresholds_in_points():
    assert [label_of(loss) for loss in (0.0, 1.99, 2.0, 5.99, 6.0, 14.99, 15.0, 80.0)] == [
        "best",
        "best",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_accuracy_is_100_for_best_moves_and_falls_with_the_points_lost():
    assert accuracy([]) is None
    assert accuracy([0.0, 0.0]) == 100.0
    assert accuracy([10.0]) == pytest.approx(36.79, abs=0.01)
    assert 0 < accuracy([0.0, 30.0]) < accuracy([0.0, 3.0]) < 100


def decided(view, legal, played: Move, best: Move, loss: float = 8.0) -> Decision:
    assert played in legal and best in legal
    return Decision(0, view["seat"], played, best, loss, label_of(loss))


def test_the_kinds_of_mistakes_a_coach_names():
    # A Queen kept: drawing with a Queen in hand where the Queen was best.
    game = position("classic", ["QH 8C 9S", "8D"], pile="10D")
    view, legal = game.view(0), game.legal_moves()
    assert kind_of(view, decided(view, legal, Move("draw"), play("QH", "C"))) == "queen_kept"
    # A Queen ordering the suit one is short in (one club, two hearts left).
    game = position("classic", ["QS 8C 9H 10H", "8D 7D 6D"], pile="10D")
    view, legal = game.view(0), game.legal_moves()
    assert kind_of(view, decided(view, legal, play("QS", "C"), play("QS", "H"))) == "short_suit"
    # Not making the next player draw when they are about to go out.
    game = position("classic", ["7H 9H 10C", "8D"], pile="KH")
    view, legal = game.view(0), game.legal_moves()
    assert kind_of(view, decided(view, legal, play("9H"), play("7H"))) == "no_attack"
    # The same when the next player holds many cards: another kind.
    game = position("classic", ["7H 9H 10C", "8D 9D 10D JD AC"], pile="KH")
    view, legal = game.view(0), game.legal_moves()
    assert kind_of(view, decided(view, legal, play("9H"), play("7H"))) == "other"
    assert kind_of(view, decided(view, legal, Move("draw"), play("7H"))) == "drew"
    kinds = {"queen_kept", "queen_spent", "short_suit", "no_attack", "drew", "other"}
    assert set(analysis.KINDS) == kinds


def test_random_play_loses_more_a_decision_than_greedy_play_and_greedy_more_than_the_expert():
    """Rounds of classic where one bot holds every seat, seen by the review: the weaker the
    play, the more points a decision loses. A few rounds at a small budget, seeded:
    bench/review.py measures how clearly, at the default budget over many more."""
    mean = {}
    for name in ("random", "greedy", "expert"):
        lost = []
        for number in range(ROUNDS_A_BOT):
            game = Game.new(PRESETS["classic"], players=2, seed=f"strength:{number}")
            start = game.copy()
            options = {"deals": 24} if name == "expert" else {}
            bots = [make_bot(name, seed=number * 2 + seat, **options) for seat in range(2)]
            moves = []
            while not game.round_over:
                view, legal = game.view(game.to_move), game.legal_moves()
                moves.append(bots[game.to_move].choose(view, legal))
                game.play(moves[-1])
            lost += [decision.loss for decision in review(start, moves, budget=0.02, seed=number)]
        mean[name] = sum(lost) / len(lost)
    assert mean["random"] > 2 * mean["greedy"] > 2 * mean["expert"]


ROUNDS_A_BOT = 3


def test_the_views_before_a_rounds_moves_are_what_each_seat_to_move_saw():
    start, moves = played_round("classic", 3, 4, ["greedy", "random", "greedy"])
    views = analysis.ViewsBefore(start, moves)
    game = start.copy()
    for index, move in enumerate(moves[:12]):
        if index % 3 == 0:
            assert views[index] == game.view(game.to_move)
        game.play(move)
    with pytest.raises(ValueError, match="behind this replay"):
        views[0]
