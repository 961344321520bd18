"""What a seat can tell about the cards it cannot see, and the deals it samples from that."""

from random import Random

import pytest

from cards101.bots.inference import Knowledge, Slot
from cards101.bots.position import fits
from cards101.engine import Game
from cards101.rules import PRESETS, Card
from tests.cards101.bots.matches import TABLES, decisions, first_fit, random_policy
from tests.cards101.engine.positions import DRAW, position


def can_hold(slots: list[Slot], cards: list[Card], knowledge: Knowledge) -> bool:
    """Whether the slots can take these cards, one each, every slot a card it allows."""
    if len(slots) != len(cards):
        return False
    holder: dict[int, int] = {}  # card index -> slot index

    def place(slot: int, tried: set[int]) -> bool:
        for index, card in enumerate(cards):
            if index in tried or not slots[slot].allows(card, knowledge.seen):
                continue
            tried.add(index)
            if index not in holder or place(holder[index], tried):
                holder[index] = slot
                return True
        return False

    return all(place(slot, set()) for slot in range(len(slots)))


def check_truth_fits(game: Game, knowledge: Knowledge) -> None:
    """The real deal is one of those the knowledge allows."""
    cards = game.cards_in_play()
    for seat, entries in enumerate(knowledge.hands):
        real = list(cards["hands"][seat])
        if seat == knowledge.seat:
            assert sorted(entries) == sorted(real)
            continue
        known = [entry for entry in entries if isinstance(entry, Card)]
        assert all(card in real for card in known), f"seat {seat} does not hold {known}"
        unknown = [card for card in real if card not in known]
        slots = [entry for entry in entries if isinstance(entry, Slot)]
        assert can_hold(slots, unknown, knowledge), f"seat {seat}'s {unknown} broke a slot"
    assert len(knowledge.stock) == len(cards["stock"])
    for entry, card in zip(knowledge.stock, cards["stock"], strict=True):
        if isinstance(entry, Card):
            assert entry == card
        else:
            assert entry.allows(card, knowledge.seen)


@pytest.mark.parametrize(("name", "variant", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_the_log_is_followed_to_what_the_view_shows(name, variant, players):
    rng = Random(7)
    for game in decisions(variant, players, random_policy(rng), seed=3, matches=2):
        seat = game.to_move
        knowledge = Knowledge.of_view(game.view(seat))
        assert knowledge.consistent, f"lost track in {game.view(seat)['log']}"
        # Random players may hold back a card that fits: only the cards are checked here.
        cards = game.cards_in_play()
        for other, entries in enumerate(knowledge.hands):
            known = [entry for entry in entries if isinstance(entry, Card)]
            assert len(entries) == len(cards["hands"][other])
            assert all(card in cards["hands"][other] for card in known)


@pytest.mark.parametrize(("name", "variant", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_the_real_deal_always_fits_what_a_seat_inferred(name, variant, players):
    # Players who play whenever a card fits: their draws and passes say what they lack.
    for game in decisions(variant, players, first_fit, seed=5, matches=2):
        for seat in range(players):
            if game.view(seat)["hand"] or seat == game.to_move:
                check_truth_fits(game, Knowledge.of_view(game.view(seat)))


@pytest.mark.parametrize(("name", "variant", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_a_sampled_deal_builds_a_game_that_looks_the_same_to_the_seat(name, variant, players):
    rng = Random(11)
    for number, game in enumerate(decisions(variant, players, first_fit, seed=9)):
        if number % 3:
            continue
        seat = game.to_move
        view = game.view(seat)
        hands, stock = Knowledge.of_view(view).sample(rng)
        sampled = Game.from_view(view, hands, stock, seed=1)
        # The same but for the order of the seat's own cards (the hand it was dealt).
        assert sampled.view(seat) | {"legal": None} == view | {"legal": None}
        assert sorted(sampled.legal_moves()) == sorted(game.legal_moves())


def test_a_seat_that_drew_because_nothing_fitted_has_no_card_that_fitted():
    # Seat 0 led 9♥; seat 1 holds no heart, no 9 and no Queen, so it draws 8♣, which does
    # not fit either, and the turn passes.
    game = position(
        "aaow",
        ["10S 10C KD", "JS JC 10D KC"],
        pile="9H",
        stock="8C",
        to_move=1,
        log=[{"seat": 0, "kind": "opening", "card": "9H"}],
    )
    game.play(DRAW)
    assert game.to_move == 0
    knowledge = Knowledge.of_view(game.view(0))
    assert knowledge.consistent
    rng = Random(1)
    for _ in range(50):
        hands, _stock = knowledge.sample(rng)
        assert len(hands[1]) == 5
        assert not [card for card in hands[1] if card.suit == "H" or card.rank in ("9", "Q")]


def drawn_after_a_restock(variant, seed):
    """(game, seat, cards) for each decision after a seat drew from a pile restocked in
    this round: the cards it drew that it still holds."""
    rng = Random(seed)
    for game in decisions(variant, 2, random_policy(rng), seed=seed, matches=3):
        log = game.view(0)["log"]
        kinds = [event["kind"] for event in log]
        if "restock" not in kinds:
            continue
        after = kinds.index("restock")
        draws = [i for i, kind in enumerate(kinds) if kind == "draw" and i > after]
        if not draws:
            continue
        drawer = log[draws[-1]]["seat"]
        drawn = game.view(drawer)["log"][draws[-1]]["cards"]
        held = {card.code for card in game.cards_in_play()["hands"][drawer]}
        if set(drawn) & held:
            yield game, drawer, sorted(set(drawn) & held)


def test_a_pile_turned_over_tells_the_others_which_cards_a_player_draws():
    found = 0
    for game, drawer, codes in drawn_after_a_restock(PRESETS["aaow"], seed=4):
        viewer = 1 - drawer
        knowledge = Knowledge.of_view(game.view(viewer))
        known = {entry.code for entry in knowledge.hands[drawer] if isinstance(entry, Card)}
        assert set(codes) <= known
        found += 1
    assert found


def test_cards_from_a_shuffled_pile_are_only_dealt_where_they_can_be():
    variant = PRESETS["aaow"].replace(restock="shuffle")
    found = 0
    for game, drawer, codes in drawn_after_a_restock(variant, seed=4):
        viewer = 1 - drawer
        knowledge = Knowledge.of_view(game.view(viewer))
        slots = [entry for entry in knowledge.hands[drawer] if isinstance(entry, Slot)]
        # Each card drawn there is one of that pile's, not a card never seen.
        cards = {Card.from_code(code) for code in codes}
        among = set().union(*(slot.among for slot in slots))
        assert cards <= among
        assert cards <= knowledge.seen
        found += 1
    assert found


@pytest.mark.parametrize(("name", "variant", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_fits_says_what_the_engine_lets_the_seat_play(name, variant, players):
    rng = Random(13)
    for game in decisions(variant, players, random_policy(rng), seed=2):
        view = game.view(game.to_move)
        if view["opening_queen"] or view["pile"] == 0:
            continue  # an order or a lead, not a card on a top card
        top = Card.from_code(view["top"])
        expected = {
            Card.from_code(code)
            for code in view["hand"]
            if fits(Card.from_code(code), top, view["ordered_suit"], view["cover"])
        }
        assert {move.card for move in game.legal_moves() if move.kind == "play"} == expected
