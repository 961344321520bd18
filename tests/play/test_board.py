"""The board a seat sees, built from the engine's view (play.board): its choices are the
legal moves of that seat and nothing more, and a spectator is offered none."""

from cards101.engine import Game
from cards101.rules import PRESETS
from play.board import board
from play.models import PlaySeat
from play.queries import public_view
from tests.play.test_play import first_seed, turned_up_queen_for

AAOW = PRESETS["aaow"]


def seats(count: int) -> list[PlaySeat]:
    return [PlaySeat(position=position, bot="greedy") for position in range(count)]


def offered(shown) -> list[dict]:
    """Every move the board offers, as the engine writes moves."""
    moves = []
    for choice in (*shown.hand, *shown.turned_up):
        if choice.orders:
            moves += [
                {"kind": "play", "card": choice.face.code, "suit": order.suit}
                for order in choice.orders
            ]
        elif choice.playable:
            moves.append({"kind": "play", "card": choice.face.code})
    moves += [{"kind": kind} for kind in ("draw", "pass") if getattr(shown, f"can_{kind}")]
    return moves


def key(move: dict) -> tuple:
    return (move["kind"], move.get("card", ""), move.get("suit", ""))


def test_the_seat_to_move_is_offered_exactly_its_legal_moves():
    game = Game.new(AAOW, players=3, seed=1)
    around = seats(3)
    shown = board(game.view(game.to_move), around, around[game.to_move])
    legal = [move.to_json() for move in game.legal_moves()]
    assert sorted(map(key, offered(shown))) == sorted(map(key, legal))
    assert shown.my_turn and shown.round == 1
    assert [seat.me for seat in shown.seats] == [p == game.to_move for p in range(3)]
    assert [choice.face.code for choice in shown.hand] == game.view(game.to_move)["hand"]


def test_a_turned_up_queen_is_offered_once_per_suit_it_may_order():
    game = Game.new(AAOW, players=2, seed=first_seed(AAOW, 2, turned_up_queen_for(0)))
    around = seats(2)
    shown = board(game.view(0), around, around[0])
    [queen] = shown.turned_up
    assert queen.face.code == game.view(0)["top"]
    assert {(order.suit, order.symbol) for order in queen.orders} == {
        ("S", "♠"),
        ("H", "♥"),
        ("D", "♦"),
        ("C", "♣"),
    }


def test_a_spectator_sees_the_table_and_is_offered_nothing():
    game = Game.new(AAOW, players=3, seed=1)
    shown = board(public_view(game.view(0)), seats(3), None)
    assert offered(shown) == [] and shown.hand == () and not shown.my_turn
    assert [seat.cards for seat in shown.seats] == game.view(0)["hand_counts"]


def test_a_seat_out_of_the_match_is_offered_fast_forward_only_among_bots_and_stand_ins():
    game = Game.new(PRESETS["classic"], players=3, seed=1)
    view = game.view(0) | {"active": [1, 2]}  # seat 0 lost an earlier round
    people = [PlaySeat(position=0, user_id=1), PlaySeat(position=1, user_id=2)]
    around = [*people, PlaySeat(position=2, bot="greedy")]
    assert not board(view, around, around[0]).fast_forward  # seat 1's person plays on
    people[1].timeouts = 2  # away: the stand-in plays for them
    assert board(view, around, around[0]).fast_forward
    # Nobody is offered it for a round they still play, nor a spectator.
    assert not board(game.view(1), around, around[1]).fast_forward
    assert not board(public_view(view), around, None).fast_forward
