"""The expert keeps to its time however long the round: its search stops at a deadline (told
by a fake clock here, so nothing depends on the machine's speed), a playout never runs past
PLAYOUT_MOVES, and rounds that went round in circles under last_holder are played through."""

import functools

import pytest

from cards101.bots import expert, make_bot
from cards101.bots.greedy import best_move
from cards101.bots.position import Position
from cards101.engine import Game
from cards101.engine.game import MOVE_LIMIT
from cards101.rules import PRESETS

# Greedy players in every seat (the players of the expert's playouts) play the same cards
# round and round under these rules: the first round of seed 1 is still going at the move
# limit, the hands grown to a dozen cards.
CIRCLES = PRESETS["classic"].replace(round_end="last_holder", six="draw_2_skip")
SEED = 1


class FakeClock:
    """A clock that moves on `step` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


class NoClock:
    def __call__(self) -> float:
        raise AssertionError("the clock was read")


@functools.cache
def _saved_round_in_circles(moves: int) -> dict:
    game = Game.new(CIRCLES, players=3, seed=SEED)
    while game.view(0)["moves"] < moves or len(game.legal_moves()) == 1:
        game.play(best_move(Position.of_game(game), game.legal_moves()))
    assert not game.round_over
    return game.to_json()


def round_in_circles(moves: int) -> Game:
    """The looping round after `moves` moves or a few more, at a decision (more than one
    legal move)."""
    return Game.from_json(_saved_round_in_circles(moves))


def test_the_rules_here_make_greedy_players_go_round_in_circles():
    game = round_in_circles(MOVE_LIMIT - 60)
    log = game.view(0)["log"]
    assert max(len(hand) for hand in game.hands) >= 10
    assert sum(event["kind"] == "restock" for event in log) >= 10


def test_a_playout_is_cut_after_playout_moves_and_scored_as_it_stands():
    game = round_in_circles(0)
    started = game.view(0)["moves"]
    assert expert._play_out(game)
    assert game.round_over and game.cut
    assert game.view(0)["moves"] == started + expert.PLAYOUT_MOVES
    assert game.view(0)["log"][-1] == {"kind": "cut", "count": started + expert.PLAYOUT_MOVES}
    # Scored: every hand still held counts.
    assert all(score is not None for score in game.view(0)["scores"])


def test_a_playout_near_the_move_limit_ends_at_the_engines_limit():
    game = round_in_circles(MOVE_LIMIT - 60)
    assert expert._play_out(game)
    assert game.round_over and game.cut
    assert game.view(0)["moves"] == MOVE_LIMIT


def test_a_playout_stops_before_the_first_move_after_the_clock_passed_the_stop():
    game = round_in_circles(0)
    started = game.view(0)["moves"]
    clock = FakeClock(step=0.001)
    assert not expert._play_out(game, stop=0.0305, clock=clock)
    # Read before each move: 30 moves made at 0.001 ... 0.030, the 31st read is past it.
    assert clock.reads == 31
    assert game.view(0)["moves"] == started + 30
    assert not game.round_over


@pytest.mark.parametrize("moves", [0, 400, MOVE_LIMIT - 60])
def test_the_search_ends_at_the_budget_and_grace_in_a_long_last_holder_round(moves, monkeypatch):
    game = round_in_circles(moves)
    seat = game.to_move
    view, legal = game.view(seat), game.legal_moves()
    clock = FakeClock(step=0.002)  # each read 2 ms: a playout move as with huge hands
    played_at = []
    of_game = Position.of_game

    def playout_move(game: Game) -> Position:
        played_at.append(clock.now)
        return of_game(game)

    # Position.of_game is read once for every move of a playout, nowhere else.
    monkeypatch.setattr(expert.Position, "of_game", playout_move)
    bot = make_bot("expert", seed=2, clock=clock)
    move = bot.choose(view, legal)
    assert move in legal
    stop = 0.002 + expert.BUDGET + expert.GRACE  # the first read is the start
    assert played_at and max(played_at) <= stop
    # After the stop: the read that finds it, the loop's own, nothing else but the choice.
    assert clock.now <= stop + 3 * clock.step


def test_the_expert_plays_greedys_move_when_not_one_deal_fits_in_its_time():
    game = round_in_circles(400)
    view, legal = game.view(game.to_move), game.legal_moves()
    bot = make_bot("expert", seed=2, clock=FakeClock(step=1.0))
    assert bot.choose(view, legal) == best_move(Position.of_view(view), legal)
    assert bot.deals == 0


def test_the_expert_stops_starting_deals_at_the_budget_once_it_has_tried_a_few():
    game = Game.new(PRESETS["aaow"], players=3, seed=4)
    while len(game.legal_moves()) < 3:
        game.play(game.legal_moves()[0])
    view, legal = game.view(game.to_move), game.legal_moves()
    # 0.1 ms a read (one a playout move): a deal of this short round takes a few ms.
    clock = FakeClock(step=0.0001)
    bot = make_bot("expert", seed=2, clock=clock)
    bot.choose(view, legal)
    assert expert.MIN_DEALS <= bot.deals < expert.MAX_DEALS
    # Stopped by the budget, not by the grace after it.
    assert expert.BUDGET < clock.now < expert.BUDGET + expert.GRACE / 2


def test_with_a_number_of_deals_the_expert_never_reads_the_clock_even_in_a_long_round():
    game = round_in_circles(MOVE_LIMIT - 60)
    view, legal = game.view(game.to_move), game.legal_moves()
    choices = {make_bot("expert", seed=3, deals=2, clock=NoClock()).choose(view, legal)}
    choices.add(make_bot("expert", seed=3, deals=2, clock=NoClock()).choose(view, legal))
    assert len(choices) == 1 and choices <= set(legal)


def test_a_copy_of_the_deal_for_each_move_is_the_same_as_building_it_again():
    # The expert builds a deal's game once and copies it for every move it tries.
    game = round_in_circles(400)
    seat = game.to_move
    view = game.view(seat)
    cards = game.cards_in_play()
    built = Game.from_view(view, cards["hands"], cards["stock"], seed=9)
    copied = built.copy()
    for move in game.legal_moves():
        again = Game.from_view(view, cards["hands"], cards["stock"], seed=9)
        tried = copied.copy()
        again.play(move)
        tried.play(move)
        assert expert._play_out(again) and expert._play_out(tried)
        assert tried.to_json() == again.to_json()
