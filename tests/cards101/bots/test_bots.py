"""Every bot plays whole matches from its seat's view alone, and never sees another hand."""

import copy
import json
import subprocess
import sys
import time
from pathlib import Path
from random import Random

import pytest

from cards101.bots import BOT_NAMES, make_bot
from cards101.engine import Game, Move
from cards101.rules import PRESETS
from tests.cards101.bots.matches import TABLES, decisions, random_policy


def as_received(game: Game, seat: int) -> tuple[dict, list[Move]]:
    """What a bot is given: the seat's view as JSON would carry it, and the legal moves
    rebuilt from that view (nothing that leads back to the game)."""
    view = json.loads(json.dumps(game.view(seat)))
    return view, [Move.from_json(move) for move in view["legal"]]


def another_world(game: Game, seat: int, rng: Random) -> Game:
    """The same game as `seat` sees it, with every card it cannot see dealt again: the
    other hands and the stock hold the same number of cards, in another order."""
    cards = game.cards_in_play()
    hidden = [card for other, hand in enumerate(cards["hands"]) if other != seat for card in hand]
    hidden += cards["stock"]
    rng.shuffle(hidden)
    hands = []
    for other, hand in enumerate(cards["hands"]):
        if other == seat:
            hands.append(list(hand))
        else:
            hands.append([hidden.pop() for _ in hand])
    return Game.from_view(game.view(seat), hands, hidden, seed=rng.randrange(1000))


def bot_options(name: str) -> dict:
    # A fixed number of deals instead of a time budget, so that the expert's choices do not
    # depend on the speed of the machine.
    return {"deals": 6} if name == "expert" else {}


def test_make_bot_knows_three_strengths():
    assert [make_bot(name).name for name in BOT_NAMES] == ["random", "greedy", "expert"]


def test_make_bot_refuses_an_unknown_strength():
    with pytest.raises(ValueError, match="There is no bot 'perfect'"):
        make_bot("perfect")


@pytest.mark.parametrize("budget", [0, -1, "fast"])
def test_the_expert_refuses_a_budget_that_is_not_a_positive_time(budget):
    with pytest.raises(ValueError, match="budget"):
        make_bot("expert", budget=budget)


@pytest.mark.parametrize("name", ["random", "greedy"])
@pytest.mark.parametrize(("table", "variant", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_a_bot_plays_whole_matches_from_its_view_alone(name, table, variant, players):
    bots = [make_bot(name, seed=seat) for seat in range(players)]
    game = Game.new(variant, players=players, seed=21)
    moves = 0
    while not game.match_over:
        if game.round_over:
            game.next_round()
        seat = game.to_move
        view, legal = as_received(game, seat)
        move = bots[seat].choose(view, legal)
        assert move in game.legal_moves()
        game.play(move)
        moves += 1
    assert game.result.finished and moves > 0


@pytest.mark.parametrize(("table", "variant", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_the_expert_plays_legal_moves_from_its_view_alone(table, variant, players):
    bots = [make_bot("expert", seed=seat, deals=3) for seat in range(players)]
    game = Game.new(variant, players=players, seed=22)
    # Bounded: a round where cards keep coming back (last holder) can run for thousands of
    # moves, each an expert's search.
    for _move in range(120):
        if game.round_over:
            break
        seat = game.to_move
        view, legal = as_received(game, seat)
        move = bots[seat].choose(view, legal)
        assert move in game.legal_moves()
        game.play(move)


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize(
    ("table", "variant", "players"),
    [TABLES[0], TABLES[2], TABLES[4], TABLES[6]],
    ids=[TABLES[i][0] for i in (0, 2, 4, 6)],
)
def test_a_bot_chooses_the_same_whatever_the_cards_it_cannot_see(name, table, variant, players):
    rng = Random(5)
    bot = make_bot(name, seed=3, **bot_options(name))
    step, most = (3, 12) if name == "expert" else (1, 40)
    checked = 0
    # A seed where no position checked has its hidden cards dealt again in the same order.
    games = decisions(variant, players, random_policy(rng), seed=9, matches=3)
    for number, game in enumerate(games):
        seat = game.to_move
        if number % step or len(game.legal_moves()) == 1:
            continue
        other = another_world(game, seat, rng)
        assert other.cards_in_play() != game.cards_in_play()
        view, legal = as_received(game, seat)
        other_view, other_legal = as_received(other, seat)
        assert other_view == view
        twin = copy.deepcopy(bot)
        assert bot.choose(view, legal) == twin.choose(other_view, other_legal)
        checked += 1
        if checked == most:
            break
    assert checked == most


def test_the_random_bot_picks_every_legal_move_in_time():
    game = Game.new(PRESETS["classic"], players=2, seed=4)
    view, legal = as_received(game, game.to_move)
    bot = make_bot("random", seed=1)
    assert {bot.choose(view, legal) for _ in range(200)} == set(legal)


def test_the_random_bot_repeats_itself_for_a_seed():
    game = Game.new(PRESETS["classic"], players=2, seed=4)
    view, legal = as_received(game, game.to_move)

    def picks(seed):
        bot = make_bot("random", seed=seed)
        return [bot.choose(view, legal) for _ in range(20)]

    assert picks(9) == picks(9)
    assert picks(9) != picks(10)


def test_the_expert_thinks_within_its_budget():
    game = Game.new(PRESETS["aaow"], players=2, seed=6)
    bot = make_bot("expert", seed=1, budget=0.05)
    slowest = 0.0
    for _ in range(12):
        if game.round_over:
            break
        view, legal = as_received(game, game.to_move)
        start = time.perf_counter()
        move = bot.choose(view, legal)
        slowest = max(slowest, time.perf_counter() - start)
        game.play(move)
    # The budget, plus the few deals tried however short it is, plus a busy machine.
    assert slowest < 0.5


ROOT = Path(__file__).resolve().parents[3]
EXPERT_RUN = """
from cards101.bots import make_bot
from cards101.engine import Game
from cards101.rules import PRESETS
game = Game.new(PRESETS["aaow"], players=3, seed=5)
bots = [make_bot("expert", seed=seat, deals=6) for seat in range(3)]
moves = []
while not game.round_over and len(moves) < 40:
    seat = game.to_move
    move = bots[seat].choose(game.view(seat), game.legal_moves())
    moves.append(str(move))
    game.play(move)
print(moves)
"""


def test_the_expert_chooses_the_same_in_every_process_for_a_seed():
    # Sets of cards iterate in an order that follows each process's string hashing.
    runs = {
        subprocess.run(
            [sys.executable, "-c", EXPERT_RUN],
            cwd=ROOT,
            env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": str(hash_seed)},
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
        for hash_seed in (1, 2, 3)
    }
    assert len(runs) == 1 and runs.pop().startswith("['")
