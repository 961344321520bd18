"""Property-based checks: random legal play of whole matches under random options ends, keeps
every card, scores each round as score_match does, and survives saving at any point."""

import json
from collections.abc import Callable
from random import Random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards101.engine import Game, Move
from cards101.rules import PRESETS, Variant, check_players, deck, score_match
from tests.examples import tried

# No example database: these tests must not leave files behind in the repository.
MATCHES = CARDS = RESTORES = tried(0.6)

# A round could in principle go on for ever (cards come back through the restock; under
# draw_when_able players may keep drawing); the engine cuts it after its MOVE_LIMIT moves.
# Random play ends matches well before this bound, so reaching it means a loop, not bad luck.
MOVE_LIMIT = 200_000


def cut_rounds(game: Game) -> list[int]:
    """The indices of the rounds the engine cut at its move limit."""
    return [index for index, done in enumerate(game.result.rounds) if done.cut]


def option_values(name: str) -> st.SearchStrategy[Any]:
    choices = Variant.option_choices(name)
    if choices is not None:
        return st.sampled_from(choices)
    low, high = Variant.option_range(name)  # type: ignore[misc]
    if name == "lose_over":
        # Low limits end matches in a few rounds, so that many matches fit in the time.
        return st.integers(50, 150)
    return st.integers(low, high)


variants = st.fixed_dictionaries(
    {name: option_values(name) for name in Variant.option_names()}
).map(Variant.from_dict)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Variant, int, int]:
    """A variant, a number of players it can deal to, and a seed."""
    variant = draw(variants)
    players = draw(st.integers(2, 4))
    try:
        check_players(variant, players)
    except ValueError:
        players = 2  # any variant deals 2 hands
    return variant, players, draw(st.integers(0, 2**32 - 1))


def play_randomly(
    game: Game,
    rng: Random,
    moves: int,
    after_move: Callable[[Game], None] = lambda game: None,
    after_round: Callable[[Game], None] = lambda game: None,
) -> int:
    """Up to `moves` random legal moves, dealing each next round; the moves made."""
    made = 0
    while made < moves and not game.match_over:
        if game.round_over:
            game.next_round()
            continue
        legal = game.legal_moves()
        assert legal, "a seat to move always has a move"
        game.play(rng.choice(legal))
        made += 1
        after_move(game)
        if game.round_over:
            after_round(game)
    return made


@MATCHES
@given(tables())
def test_random_matches_end_and_each_round_is_scored_as_score_match_scores_it(table):
    variant, players, seed = table
    game = Game.new(variant, players=players, seed=seed)
    rounds: list[dict[int, dict[str, str]]] = []

    def check_round(game: Game) -> None:
        outcomes = game.round_outcomes
        where = game.cards_in_play()
        went_out = {
            event["seat"]: event["card"] for event in game.view(0)["log"] if event["kind"] == "out"
        }
        for seat, outcome in outcomes.items():
            if seat in went_out:
                assert outcome == {"out": went_out[seat]}
            else:
                assert outcome == {
                    "hand": " ".join(card.code for card in sorted(where["hands"][seat]))
                }
        rounds.append(outcomes)
        assert game.result == score_match(
            variant, tuple(range(players)), rounds, cut=cut_rounds(game)
        )

    made = play_randomly(game, Random(seed), MOVE_LIMIT, after_round=check_round)
    assert game.match_over, f"no end after {made} moves"
    assert game.result.finished
    assert len(rounds) == len(game.result.rounds)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_matches_of_each_preset_are_scored_as_score_match_scores_them(preset, players):
    # The engine scores each round with played_round_scorer; the rounds over again with
    # score_match give the same result, orders of dicts included.
    variant = PRESETS[preset]
    for seed in range(15):
        game = Game.new(variant, players=players, seed=seed)
        play_randomly(game, Random(seed), MOVE_LIMIT)
        rounds = [game_round.outcomes for game_round in game.result.rounds]
        expected = score_match(variant, tuple(range(players)), rounds, cut=cut_rounds(game))
        assert game.result == expected
        assert repr(game.result) == repr(expected)


@CARDS
@given(tables())
def test_random_play_never_loses_or_duplicates_a_card(table):
    variant, players, seed = table
    game = Game.new(variant, players=players, seed=seed)
    full_deck = set(deck(variant.deck_size))

    def check_cards(game: Game) -> None:
        where = game.cards_in_play()
        cards = [card for hand in where["hands"] for card in hand] + where["stock"] + where["pile"]
        assert len(cards) == len(full_deck)
        assert set(cards) == full_deck
        if not game.round_over:
            # An empty hand to move is one that must draw to cover its last card.
            assert where["hands"][game.to_move] or game.legal_moves() == [Move("draw")]

    check_cards(game)
    play_randomly(game, Random(seed), 1_500, after_move=check_cards)


@RESTORES
@given(tables(), st.integers(0, 600))
def test_a_game_saved_at_any_point_continues_exactly_as_the_original(table, saved_at):
    variant, players, seed = table
    game = Game.new(variant, players=players, seed=seed)
    play_randomly(game, Random(seed), saved_at)
    restored = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert restored.to_json() == game.to_json()
    assert [restored.view(seat) for seat in range(players)] == [
        game.view(seat) for seat in range(players)
    ]
    # Both go on with the same moves, through round ends and shuffled restocks.
    original_moves, restored_moves = Random(seed + 1), Random(seed + 1)
    for _ in range(400):
        if game.match_over:
            break
        if game.round_over:
            game.next_round()
            restored.next_round()
            continue
        assert restored.legal_moves() == game.legal_moves()
        game.play(original_moves.choice(game.legal_moves()))
        restored.play(restored_moves.choice(restored.legal_moves()))
    assert restored.to_json() == game.to_json()
    assert restored.match_over == game.match_over


@RESTORES
@given(tables(), st.integers(0, 300), st.integers(0, 3))
def test_a_game_rebuilt_from_any_view_with_the_true_cards_is_the_same_game(table, moves, seat):
    variant, players, seed = table
    game = Game.new(variant, players=players, seed=seed)
    play_randomly(game, Random(seed), moves)
    if game.round_over:
        if game.match_over:
            return
        game.next_round()
    seat %= players
    where = game.cards_in_play()
    rebuilt = Game.from_view(game.view(seat), where["hands"], where["stock"], seed=seed)
    assert rebuilt.view(seat) == game.view(seat)
    assert rebuilt.cards_in_play() == where
    assert rebuilt.legal_moves() == game.legal_moves()
    assert rebuilt.to_move == game.to_move


@RESTORES
@given(tables(), st.integers(0, 600))
def test_a_copy_at_any_point_plays_on_as_the_original_and_changes_nothing_in_it(table, copied_at):
    variant, players, seed = table
    game = Game.new(variant, players=players, seed=seed)
    play_randomly(game, Random(seed), copied_at)
    saved = game.to_json()
    copy = game.copy()
    assert copy.to_json() == saved
    # The copy plays on, through round ends and shuffled restocks: the original is untouched.
    play_randomly(copy, Random(seed + 1), 400)
    assert game.to_json() == saved
    # The original then makes the same moves from the same random state: the same game.
    play_randomly(game, Random(seed + 1), 400)
    assert game.to_json() == copy.to_json()
