"""A new match: players, the deal, the dealer and leader, and the three openings."""

from collections.abc import Callable

import pytest

from cards101.engine import Game, IllegalMove, Move
from cards101.rules import PRESETS, Card, RulesError, Variant
from tests.cards101.engine.positions import DRAW, legal

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]


def opening_card(game: Game) -> Card:
    return Card.from_code(game.view(0)["log"][0]["card"])


def first_game(variant: Variant, players: int, wanted: Callable[[Game], bool]) -> Game:
    """The first seeded game whose deal is what the test needs: the deal is random, and
    happens inside Game.new, so this finds one rather than building it."""
    for seed in range(2000):
        game = Game.new(variant, players=players, seed=seed)
        if wanted(game):
            return game
    raise AssertionError("no seed deals that")


@pytest.mark.parametrize("players", [0, 1, 5, "3", None])
def test_a_match_needs_two_to_four_players(players):
    with pytest.raises(ValueError, match="A match needs 2 to 4 players"):
        Game.new(AAOW, players=players, seed=1)


def test_a_game_needs_a_variant():
    with pytest.raises(RulesError, match="played under a Variant"):
        Game.new("aaow", players=2)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(PRESETS))
def test_every_seat_is_dealt_its_hand_and_the_rest_is_the_stock(name, players):
    variant = PRESETS[name]
    # A seed whose turned-up card (aaow) makes nobody draw, at every table.
    game = Game.new(variant, players=players, seed=13)
    view = game.view(0)
    counts = view["hand_counts"]
    leader = view["leader"]
    turned = 1 if variant.opening == "dealer_card" else 0
    assert counts[leader] + turned == variant.hand_size
    assert all(count == variant.hand_size for seat, count in enumerate(counts) if seat != leader)
    assert view["pile"] == turned
    assert view["stock"] == 36 - players * variant.hand_size
    assert view["round"] == 0
    assert view["leader"] == (view["dealer"] + 1) % players


def test_a_seed_deals_the_same_match_and_another_seed_another():
    assert Game.new(AAOW, players=3, seed=7).to_json() == Game.new(AAOW, 3, 7).to_json()
    assert Game.new(AAOW, 3, 7).to_json()["hands"] != Game.new(AAOW, 3, 8).to_json()["hands"]


def test_the_first_dealer_is_random():
    dealers = {Game.new(CLASSIC, players=4, seed=seed).view(0)["dealer"] for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_opening_with_any_card_lets_the_leader_lead_any_card_of_the_hand():
    game = Game.new(CLASSIC, players=3, seed=3)
    view = game.view(game.to_move)
    assert game.to_move == view["leader"]
    assert view["top"] is None
    held = set(view["hand"])
    assert {move["card"] for move in view["legal"]} == held
    queens = [code for code in held if code.startswith("Q")]
    assert len(view["legal"]) == len(held) + 3 * len(queens)
    with pytest.raises(IllegalMove, match="Lead a card"):
        game.play(DRAW)


def test_opening_with_the_last_dealt_card_allows_only_that_card():
    variant = CLASSIC.replace(opening="last_dealt")
    for seed in range(5):
        game = Game.new(variant, players=3, seed=seed)
        last_dealt = game.cards_in_play()["hands"][game.to_move][-1]
        assert {move.card for move in game.legal_moves()} == {last_dealt}
    other = next(card for card in game.cards_in_play()["hands"][game.to_move] if card != last_dealt)
    with pytest.raises(IllegalMove, match="the first card is the last one dealt to you"):
        game.play(Move("play", other, "S" if other.is_queen else None))


def test_a_plain_dealer_card_is_the_leaders_play_and_the_next_player_moves():
    game = first_game(AAOW, 3, lambda g: opening_card(g).rank in ("9", "10", "J"))
    view = game.view(0)
    assert view["top"] == view["log"][0]["card"]
    assert view["log"][0]["seat"] == view["leader"]
    assert game.to_move == (view["leader"] + 1) % 3


def test_an_ace_turned_up_skips_the_player_after_the_leader():
    game = first_game(AAOW, 3, lambda g: opening_card(g).rank == "A")
    leader = game.view(0)["leader"]
    assert game.to_move == (leader + 2) % 3
    assert game.view(0)["log"][1] == {"seat": (leader + 1) % 3, "kind": "skip"}


def test_a_seven_turned_up_makes_the_player_after_the_leader_draw():
    game = first_game(AAOW, 3, lambda g: opening_card(g).rank == "7")
    leader = game.view(0)["leader"]
    assert game.view(0)["hand_counts"][(leader + 1) % 3] == 5
    assert game.to_move == (leader + 2) % 3


def test_with_two_players_a_skip_card_turned_up_gives_the_leader_another_play():
    game = first_game(AAOW, 2, lambda g: opening_card(g).rank == "A")
    assert game.to_move == game.view(0)["leader"]


def test_an_eight_turned_up_must_be_covered_by_the_leader():
    game = first_game(AAOW, 3, lambda g: opening_card(g).rank == "8")
    view = game.view(game.to_move)
    assert game.to_move == view["leader"]
    assert view["must_cover"] is True
    assert "pass" not in legal(game)


def test_a_queen_turned_up_lets_the_leader_order_a_suit():
    game = first_game(AAOW, 3, lambda g: opening_card(g).rank == "Q")
    queen = opening_card(game)
    view = game.view(game.to_move)
    assert game.to_move == view["leader"]
    assert view["top"] == queen.code
    assert view["opening_queen"] is True
    assert legal(game) == {f"{queen.code}>{suit}" for suit in "SHDC"}
    with pytest.raises(IllegalMove, match=f"Order a suit with the turned-up {queen} first"):
        game.play(DRAW)
    leader = game.to_move
    game.play(game.legal_moves()[2])  # diamonds
    view = game.view(0)
    assert view["ordered_suit"] == "D"
    assert view["log"][-1] == {"seat": leader, "kind": "order", "card": queen.code, "suit": "D"}
    assert game.to_move == (leader + 1) % 3
    assert view["pile"] == 1
