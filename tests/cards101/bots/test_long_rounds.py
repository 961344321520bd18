"""Rounds that went round in circles end: the bots head for the end of a long round, and the
engine cuts one that still goes on."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards101.bots import make_bot
from cards101.bots.position import LONG_ROUND, ending_moves
from cards101.engine import Game
from cards101.engine.game import MOVE_LIMIT
from cards101.rules import PRESETS, Variant, check_players
from tests.cards101.engine.test_properties import variants
from tests.examples import tried

# Rules and deals under which greedy bots used to play the same cards round and round for
# thousands of moves (found over random rule mixes; random bots did it too).
LOOPING = [
    pytest.param(
        PRESETS["conventions"].replace(six="draw_2_skip", seven_draw=5, restock="shuffle"),
        2,
        501528,
        id="conventions-sevens-draw-5",
    ),
    pytest.param(
        PRESETS["classic"].replace(reset_at_101=True, round_end="last_holder", six="draw_2_skip"),
        3,
        723058,
        id="classic-last-holder",
    ),
]


def play_out(game: Game, bot: str, most_moves: int) -> list[int]:
    """Play the match to its end with one `bot` a seat; the moves of each round."""
    bots = [make_bot(bot, seed=seat) for seat in range(game.players)]
    lengths = [0]
    for _ in range(most_moves):
        if game.match_over:
            return lengths
        if game.round_over:
            game.next_round()
            lengths.append(0)
            continue
        seat = game.to_move
        game.play(bots[seat].choose(game.view(seat), game.legal_moves()))
        lengths[-1] += 1
    raise AssertionError(f"the match did not end in {most_moves} moves")


@pytest.mark.parametrize("bot", ["greedy", "random"])
@pytest.mark.parametrize(("variant", "players", "seed"), LOOPING)
def test_the_rounds_that_went_round_in_circles_end_well_within_the_limit(
    variant, players, seed, bot
):
    game = Game.new(variant, players=players, seed=seed)
    lengths = play_out(game, bot, 60 * MOVE_LIMIT)
    assert max(lengths) < MOVE_LIMIT
    assert not any(done.cut for done in game.result.rounds)
    assert game.result.finished


@tried(0.2)
@given(variant=variants, players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_every_match_of_bots_under_any_rules_ends_within_a_bound(variant, players, seed):
    try:
        check_players(variant, players)
    except ValueError:
        players = 2
    for bot in ("random", "greedy"):
        game = Game.new(variant, players=players, seed=seed)
        lengths = play_out(game, bot, 100 * MOVE_LIMIT)
        assert max(lengths) <= MOVE_LIMIT
        assert game.match_over


def test_in_a_long_round_the_bots_play_a_card_that_makes_nobody_draw():
    game = Game.new(PRESETS["classic"], players=2, seed=3)
    view = game.view(game.to_move) | {"moves": LONG_ROUND + 1}
    legal = game.legal_moves()
    ending = ending_moves(view, legal)
    assert ending and all(move.kind == "play" for move in ending)
    variant = Variant.from_dict(view["variant"])
    sevens = [move for move in legal if move.kind == "play" and move.card.rank == "7"]
    assert variant.seven_draw and not set(sevens) & set(ending)
    for bot in ("greedy", "random"):
        chosen = {make_bot(bot, seed=n).choose(view, legal) for n in range(40)}
        assert chosen & set(ending)
