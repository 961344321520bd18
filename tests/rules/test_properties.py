"""Property-based checks: random legal matches agree with an independent re-count."""

from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import (
    Card,
    Variant,
    card_points,
    deck,
    format_card,
    parse_card,
    parse_cards,
    score_hand,
    score_match,
)

SEATS = ["Ann", "Bob", "Cat", "Dan"]
# No example database: these tests must not leave files behind in the repository.
RANDOM_MATCHES = settings(max_examples=300, deadline=None, database=None)
RANDOM_HANDS = settings(max_examples=200, deadline=None, database=None)


def option_values(name: str) -> st.SearchStrategy[Any]:
    choices = Variant.option_choices(name)
    if choices is not None:
        return st.sampled_from(choices)
    low, high = Variant.option_range(name)  # type: ignore[misc]
    if name == "lose_over":
        # Low limits make losses, and so eliminations and match ends, common.
        return st.one_of(st.integers(50, 150), st.integers(low, high))
    return st.integers(low, high)


variants = st.fixed_dictionaries(
    {name: option_values(name) for name in Variant.option_names()}
).map(Variant.from_dict)


# --- an independent re-count, written from RULES.md without the library's helpers ---


def recount_card(variant: Variant, card: Card) -> int:
    faces = {"J": 2, "Q": 3, "K": 4, "A": 11, "9": variant.nine_points}
    return faces[card.rank] if card.rank in faces else int(card.rank)


def recount(variant: Variant, kind: str, value: Any) -> int:
    if kind == "points":
        return value
    if kind == "out":
        if variant.out_bonus and value.rank == "Q":
            return -40 if value.suit == variant.big_queen else -20
        return 0
    if variant.queens_only_penalty and all(card.rank == "Q" for card in value):
        return sum(40 if card.suit == variant.big_queen else 20 for card in value)
    return sum(recount_card(variant, card) for card in value)


@dataclass
class Sheet:
    """A score sheet being written, with the totals a careful scorer would keep."""

    variant: Variant
    players: list[str]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    history: list[dict[str, int]] = field(default_factory=list)
    scores: list[dict[str, int]] = field(default_factory=list)
    events: list[list[tuple[str, str]]] = field(default_factory=list)
    lost: set[str] = field(default_factory=set)
    finished: bool = False

    def __post_init__(self) -> None:
        self.totals = dict.fromkeys(self.players, 0)

    @property
    def active(self) -> list[str]:
        return [player for player in self.players if player not in self.lost]

    def add(self, outcomes: dict[str, tuple[str, Any]]) -> None:
        v = self.variant
        self.rounds.append({p: {kind: value} for p, (kind, value) in outcomes.items()})
        scores, events = {}, []
        for player, (kind, value) in outcomes.items():
            scores[player] = recount(v, kind, value)
            total = self.totals[player] + scores[player]
            if v.reset_at_101 and total == 101:
                total = 0
                events.append((player, "reset_to_0"))
            if v.reset_at_100 and total == 100:
                total = 50
                events.append((player, "reset_to_50"))
            if total > v.lose_over:
                self.lost.add(player)
                events.append((player, "lost"))
            self.totals[player] = total
        self.scores.append(scores)
        self.events.append(events)
        self.history.append(dict(self.totals))
        if v.game_end == "first_loser":
            self.finished = any(kind == "lost" for _, kind in events)
        else:
            self.finished = len(self.active) <= 1


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    variant = draw(variants)
    sheet = Sheet(variant, SEATS[: draw(st.integers(2, 4))])
    for _ in range(draw(st.integers(0, 15))):
        if sheet.finished:
            break
        active = sheet.active
        cards = list(draw(st.permutations(deck(variant.deck_size))))
        if variant.round_end == "first_out":
            out = {draw(st.sampled_from(active))}
        else:
            holder = draw(st.sampled_from(active))
            out = {player for player in active if player != holder}
        outcomes: dict[str, tuple[str, Any]] = {}
        for player in active:
            if player in out:
                outcomes[player] = ("out", cards.pop())
            elif draw(st.booleans()):
                size = draw(st.integers(1, variant.hand_size + 4))
                outcomes[player] = ("hand", tuple(cards.pop() for _ in range(size)))
            else:
                total = sheet.totals[player]
                # Aim at exactly 100 and 101 now and then, where the resets happen.
                near = [n for n in (100 - total, 101 - total) if 0 <= n <= 200]
                points = draw(
                    st.sampled_from(near) | st.integers(0, 60) if near else st.integers(0, 60)
                )
                outcomes[player] = ("points", points)
        sheet.add(outcomes)
    return sheet


@RANDOM_MATCHES
@given(sheets())
def test_random_matches_agree_with_an_independent_recount(sheet: Sheet) -> None:
    result = score_match(sheet.variant, sheet.players, sheet.rounds)
    assert [r.scores for r in result.rounds] == sheet.scores
    assert [r.totals for r in result.rounds] == sheet.history
    assert [r.events for r in result.rounds] == sheet.events
    assert result.totals == sheet.totals
    assert result.finished == sheet.finished
    assert set(result.lost_in) == sheet.lost
    assert list(result.active) == sheet.active


@RANDOM_MATCHES
@given(sheets())
def test_running_totals_events_and_standings_are_consistent(sheet: Sheet) -> None:
    v = sheet.variant
    result = score_match(v, sheet.players, sheet.rounds)
    if result.rounds:
        assert result.rounds[-1].totals == result.totals
    before = dict.fromkeys(sheet.players, 0)
    for index, played in enumerate(result.rounds):
        for player, kind in played.events:
            raw = before[player] + played.scores[player]
            if kind == "reset_to_0":
                assert v.reset_at_101 and raw == 101
            elif kind == "reset_to_50":
                assert v.reset_at_100 and raw == 100
            else:
                assert played.totals[player] > v.lose_over
                assert result.lost_in[player] == index
        for player in played.scores:
            raw = before[player] + played.scores[player]
            kinds = [kind for who, kind in played.events if who == player]
            if raw != 101 and raw != 100 and raw <= v.lose_over:
                assert kinds == []
                assert played.totals[player] == raw
        before = played.totals
    flat = [player for tie in result.standings for player in tie]
    assert sorted(flat) == sorted(sheet.players)
    assert all(tie for tie in result.standings)
    if result.finished and v.game_end == "first_loser":
        assert any(kind == "lost" for _, kind in result.rounds[-1].events)
    if result.finished and v.game_end == "last_survivor":
        assert len(result.active) <= 1
    if result.finished and result.active:
        assert result.standings[0][0] in result.active


hands = st.integers(0, 52).flatmap(
    lambda size: st.permutations(deck(52)).map(lambda cards: tuple(cards[:size]))
)


@RANDOM_HANDS
@given(variants.map(lambda v: v.replace(deck_size=52)), hands)
def test_score_hand_is_never_negative_and_is_the_card_points_sum_without_queens_only(
    variant: Variant, hand: tuple[Card, ...]
) -> None:
    points = score_hand(variant, hand)
    assert points >= 0
    if not variant.queens_only_penalty:
        assert points == sum(card_points(variant, card) for card in hand)


@RANDOM_HANDS
@given(hands)
def test_notation_round_trips_in_every_written_form(hand: tuple[Card, ...]) -> None:
    assert parse_cards(" ".join(str(card) for card in hand)) == hand
    assert parse_cards(", ".join(format_card(card, "ru") for card in hand)) == hand
    assert parse_cards(" ".join(card.code.lower() for card in hand)) == hand
    assert all(Card.from_code(card.code) == card for card in hand)
    assert all(parse_card(format_card(card, "ru").lower()) == card for card in hand)
