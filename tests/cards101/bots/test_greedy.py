"""The greedy bot's heuristic, one position at a time."""

from cards101.bots import make_bot
from cards101.bots.greedy import LONG_ROUND
from cards101.engine import Game
from cards101.rules import PRESETS
from tests.cards101.engine.positions import play, position


def greedy_move(game: Game) -> str:
    """The greedy bot's choice at the seat to move, as "QS>H", "10H", "draw" or "pass"."""
    move = make_bot("greedy").choose(game.view(game.to_move), game.legal_moves())
    if move.kind != "play":
        return move.kind
    return move.card.code + (f">{move.suit}" if move.suit else "")


def test_it_chains_skip_cards_that_keep_the_turn_to_go_out_with_a_queen():
    # Two players: A♠ then A♥ skip the other, so the turn stays, and Q♥ goes out (-20);
    # playing the Queen at once would leave both Aces (22 points).
    game = position("aaow", ["AS AH QH", "10C 10D JC JD"], pile="9S")
    assert greedy_move(game) == "AS"


def test_it_gets_rid_of_the_heaviest_card_that_fits():
    game = position("aaow", ["JH 10H KH 9C", "10C 10D JC JD"], pile="9H")
    assert greedy_move(game) == "10H"


def test_it_keeps_a_queen_to_go_out_with():
    game = position("aaow", ["QD JH", "10C 10D JC JD"], pile="9H")
    assert greedy_move(game) == "JH"


def test_it_keeps_the_big_queen_for_last():
    game = position("aaow", ["QS QD", "10C 10D JC JD"], pile="9C")
    assert greedy_move(game).startswith("QD")


def test_it_orders_the_suit_it_holds_most():
    game = position("aaow", ["QD 10H JH 9S", "10C 10D JC JD"], pile="KC")
    assert greedy_move(game) == "QD>H"


def test_it_aims_at_exactly_101_when_that_resets():
    # At 80, keeping 10♥ and A♣ (21 points) makes 101, which resets to 0; keeping J♥ and
    # A♣ would make 93.
    rounds = [[{"points": 80}, {"out": "9D"}]]
    game = position("aaow", ["10H JH AC", "10C 10D JC JD"], pile="9H", rounds=rounds)
    assert greedy_move(game) == "JH"
    no_reset = position(
        PRESETS["aaow"].replace(reset_at_101=False, lose_over=150),
        ["10H JH AC", "10C 10D JC JD"],
        pile="9H",
        rounds=rounds,
    )
    assert greedy_move(no_reset) == "10H"


def test_it_steers_clear_of_a_hand_that_would_lose_the_match():
    # It would rather keep its Queen (playing 9♥), but at 97 the Queen and J♥ (5 points)
    # would lose the match if the round ended now; J♥ and 9♥ (2) would not.
    no_reset = PRESETS["aaow"].replace(reset_at_101=False)
    hands = ["QD JH 9H", "10S 10D JC JD"]
    at_50 = position(no_reset, hands, pile="9C", rounds=[[{"points": 50}, {"out": "9D"}]])
    assert greedy_move(at_50) == "9H"
    at_97 = position(no_reset, hands, pile="9C", rounds=[[{"points": 97}, {"out": "9D"}]])
    assert greedy_move(at_97) == "QD>H"


def test_it_makes_the_next_player_draw():
    # Three players: 7♠ makes the next draw one card and skip; 10♠ weighs more but helps
    # no one.
    game = position("aaow", ["7S 10S KH", "10C 10D JC JD", "JH KC KD 10H"], pile="9S")
    assert greedy_move(game) == "7S"


def test_it_plans_through_covering_its_eights():
    # aaow: whoever plays an 8 covers it, then the other player skips. On 8♥, 8♣ covers and
    # J♣ covers that, and the skip brings the turn back; 10♥ would end the turn with two
    # cards that fit nothing.
    game = position("aaow", ["8H 8C 10H JC", "10S 10D JS JD"], pile="9H")
    game.play(play("8H"))
    assert game.to_move == 0
    assert greedy_move(game) == "8C"


def test_greedy_players_do_not_go_round_in_circles():
    # Seed 19 deals a sixth round in which three greedy players, always choosing the same in
    # the same position, came back to the same cards everywhere every three moves, for ever
    # (found by simulating). Once a round has gone on that long, greedy now and then plays
    # another legal move.
    variant = PRESETS["classic"].replace(hand_size=8)
    game = Game.new(variant, players=3, seed=19)
    bots = [make_bot("greedy", seed=seat) for seat in range(3)]
    longest = 0
    while not game.match_over:
        if game.round_over:
            game.next_round()
        moves = 0
        while not game.round_over:
            seat = game.to_move
            game.play(bots[seat].choose(game.view(seat), game.legal_moves()))
            moves += 1
            assert moves < 3_000, f"round {game.round + 1} has not ended"
        longest = max(longest, len(game.view(0)["log"]))
    assert game.result.finished
    assert longest > LONG_ROUND  # the round that used to go round in circles
