"""What a seat sees (and nothing more), and a game rebuilt from one seat's view."""

import json
import random

import pytest

from cards101.engine import Game
from cards101.rules import PRESETS
from tests.cards101.engine.positions import cards, play, position

AAOW, CLASSIC, CONVENTIONS = PRESETS["aaow"], PRESETS["classic"], PRESETS["conventions"]
KEYS = {
    "seat", "players", "to_move", "round", "dealer", "leader", "hand", "hand_counts", "stock",
    "pile", "top", "ordered_suit", "must_cover", "owed_draws", "went_out", "active", "totals",
    "round_over", "match_over", "log", "legal",
}  # fmt: skip


def strings(value: object) -> set[str]:
    """Every text anywhere in a JSON value, keys included."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {text for item in value.values() for text in strings(item)}
    if isinstance(value, list):
        return {text for item in value for text in strings(item)}
    return set()


def test_a_view_is_plain_json_with_the_agreed_keys():
    game = Game.new(AAOW, players=3, seed=7)
    for seat in range(3):
        view = game.view(seat)
        assert set(view) >= KEYS
        assert "hands" not in view and "scores" not in view
        assert json.loads(json.dumps(view)) == view


def test_a_view_shows_the_seats_hand_in_order_and_only_counts_of_the_rest():
    game = position(AAOW, ["JC 9S QH 6H", "9C 10C", "KH JH"], pile="10S", stock="7D 8D")
    view = game.view(0)
    assert view["hand"] == ["9S", "6H", "QH", "JC"]
    assert view["hand_counts"] == [4, 2, 2]
    assert view["stock"] == 36 - 9
    assert (view["pile"], view["top"], view["pile_cards"]) == (1, "10S", ["10S"])


def test_only_the_seat_to_move_sees_legal_moves():
    game = position(AAOW, ["9S JC", "9C 10C"], pile="10S")
    assert game.view(0)["legal"] == [{"kind": "play", "card": "9S"}]
    assert game.view(1)["legal"] == []


def test_a_seat_sees_the_same_whatever_the_cards_it_cannot_see():
    # Two deals that differ only in seat 1's hand and the stock.
    one = position(AAOW, ["KS 9H", "9C 10C", "JH"], pile="9S", stock="6D 7D 8D 10D JD")
    two = position(AAOW, ["KS 9H", "6C 7C", "JH"], pile="9S", stock="6H 7H 8H 10H AD")
    assert one.view(0) == two.view(0)
    assert one.view(2) == two.view(2)
    one.play(play("KS"))
    two.play(play("KS"))  # seat 1 draws five cards and skips
    assert one.view(0) == two.view(0)
    assert one.view(2) == two.view(2)
    assert one.view(1) != two.view(1)
    assert one.view(1)["log"][1]["cards"] == ["6D", "7D", "8D", "10D", "JD"]
    assert "cards" not in one.view(0)["log"][1]


def test_no_view_holds_a_card_of_another_hand_or_of_the_stock():
    for seed in range(12):
        rng = random.Random(seed)
        variant = rng.choice(list(PRESETS.values()))
        game = Game.new(variant, players=rng.randint(2, 4), seed=seed)
        played: set[str] = set()  # cards that have been face up on the pile
        for _ in range(150):
            if game.round_over:
                break
            where = game.cards_in_play()
            played |= {event["card"] for event in game.view(0)["log"] if "card" in event}
            for seat in range(game.players):
                hidden = {card.code for card in where["stock"]}
                hidden |= {
                    card.code for s, hand in enumerate(where["hands"]) if s != seat for card in hand
                }
                view = game.view(seat)
                assert strings(view) & hidden <= played, (seed, seat)
                assert (
                    strings({k: v for k, v in view.items() if k not in ("log", "pile_cards")})
                    & hidden
                    == set()
                )
                for event in view["log"]:
                    assert event["kind"] != "draw" or event["seat"] == seat or "cards" not in event
            game.play(rng.choice(game.legal_moves()))


def test_at_the_end_of_a_round_everyone_sees_every_hand_and_the_scores():
    game = position(CLASSIC, ["9S", "9C 10C", "KH JH"], pile="10S")
    game.play(play("9S"))
    view = game.view(1)
    assert view["hands"] == [[], ["9C", "10C"], ["JH", "KH"]]
    assert view["scores"] == [0, 10, 6]
    assert view["totals"] == [0, 0, 0]
    assert view["totals_after"] == [0, 10, 6]
    assert view["round_over"] is True and view["to_move"] is None


def hidden_cards(game: Game) -> tuple[list[list], list]:
    where = game.cards_in_play()
    return where["hands"], where["stock"]


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_game_rebuilt_from_a_view_with_the_true_cards_is_the_same_game(name):
    game = Game.new(PRESETS[name], players=3, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if game.round_over:
            break
        for seat in range(3):
            hands, stock = hidden_cards(game)
            rebuilt = Game.from_view(game.view(seat), hands, stock, seed=1)
            assert rebuilt.view(seat) == game.view(seat)
            assert rebuilt.legal_moves() == game.legal_moves()
            assert rebuilt.cards_in_play() == game.cards_in_play()
        move = rng.choice(game.legal_moves())
        game.play(move)
        rebuilt.play(move)
        if "restock" not in str(game.view(0)["log"]):
            assert rebuilt.cards_in_play() == game.cards_in_play()


def test_a_game_rebuilt_from_a_view_can_be_played_to_the_end_of_the_match():
    game = Game.new(AAOW, players=4, seed=9)
    hands, stock = hidden_cards(game)
    rng = random.Random(1)
    stock = list(stock)
    rng.shuffle(stock)  # a guess at the order of the stock
    rebuilt = Game.from_view(game.view(2), hands, stock, seed=3)
    while not rebuilt.match_over:
        if rebuilt.round_over:
            rebuilt.next_round()
        else:
            rebuilt.play(rng.choice(rebuilt.legal_moves()))
    assert rebuilt.result.finished


def test_a_view_cannot_be_filled_in_with_cards_that_do_not_fit_it():
    game = position(AAOW, ["9S JC", "9C 10C"], pile="10S")
    view = game.view(0)
    hands, stock = hidden_cards(game)
    with pytest.raises(ValueError, match="sizes the view shows"):
        Game.from_view(view, [hands[0], hands[1][:1]], stock + hands[1][1:])
    with pytest.raises(ValueError, match="is not the hand of the view"):
        Game.from_view(view, [hands[1], hands[0]], stock)
    with pytest.raises(ValueError, match="not exactly the deck"):
        Game.from_view(view, hands, stock[:-1] + cards("10S"))
    with pytest.raises(ValueError, match="lists of cards"):
        Game.from_view(view, hands, ["9D"] * len(stock))
