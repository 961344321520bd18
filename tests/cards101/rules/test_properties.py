"""Property-based checks: random legal matches agree with an independent re-count, and
scoring does not depend on what the players are called."""

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from random import Random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards101.rules import (
    PRESETS,
    Card,
    MatchResult,
    Outcome,
    RulesError,
    Variant,
    card_points,
    deck,
    format_card,
    max_points,
    parse_card,
    parse_cards,
    played_round_scorer,
    possible_points,
    score_hand,
    score_match,
)
from cards101.rules.errors import PLAYER_LIST_PARAMS, PLAYER_PARAMS
from tests.examples import tried

SEATS = ["Ann", "Bob", "Cat", "Dan"]
RANDOM_MATCHES = tried(3)
RANDOM_HANDS = tried(2)
RENAMINGS = tried(1.5)


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


def covers_itself(variant: Variant, card: Card) -> bool:
    """RULES.md: nobody goes out on a card they must cover themselves."""
    if card.rank == "6":
        return variant.six in ("cover_self", "cover_self_suit")
    return card.rank == "8" and variant.eight == "cover_self_skip"


def reachable(variant: Variant, cards: list[Card], limit: int) -> set[int]:
    """Penalties up to `limit` that some hand of at least one of `cards` counts."""
    with_others: set[int] = set()  # hands holding a card that is not a Queen
    queens_plain = {0}  # sets of Queens (the empty one too) at 3 each
    queens_alone: set[int] = set()  # non-empty sets of Queens as a hand of only Queens
    for card in cards:
        if card.rank == "Q":
            alone = 40 if card.suit == variant.big_queen else 20
            queens_alone |= {n + alone for n in queens_alone | {0}}
            queens_plain |= {n + 3 for n in queens_plain}
        else:
            points = recount_card(variant, card)
            with_others |= {n + points for n in with_others | {0}}
    mixed = {a + b for a in with_others for b in queens_plain}
    if not variant.queens_only_penalty:
        queens_alone = queens_plain - {0}
    return {n for n in mixed | queens_alone if n <= limit}


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


def cards_counting(variant: Variant, cards: list[Card], target: int) -> list[Card] | None:
    """Some of `cards` that count exactly `target` together (largest first), or None."""
    hand, left = [], target
    for card in sorted(cards, key=lambda card: -recount_card(variant, card)):
        points = recount_card(variant, card)
        if 0 < points <= left:
            hand.append(card)
            left -= points
    return hand if hand and recount(variant, "hand", hand) == target else None


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    variant = draw(variants)
    sheet = Sheet(variant, SEATS[: draw(st.integers(2, 4))])
    for _ in range(draw(st.integers(0, 15))):
        if sheet.finished:
            break
        sheet.add(draw(legal_rounds(sheet)))
    return sheet


@st.composite
def legal_rounds(draw: st.DrawFn, sheet: Sheet, points: bool = True) -> dict[str, tuple[str, Any]]:
    """A round that can happen: physically consistent cards, points some hand makes (or,
    without `points`, every holder's cards, as a game in play gives them)."""
    variant, active = sheet.variant, sheet.active
    # A seeded shuffle: one draw instead of one per card keeps the examples quick.
    pool = list(deck(variant.deck_size))
    Random(draw(st.integers(0, 2**32))).shuffle(pool)
    if variant.round_end == "first_out":
        out = [draw(st.sampled_from(active))]
    else:
        holder = draw(st.sampled_from(active))
        out = [player for player in active if player != holder]
    outcomes: dict[str, tuple[str, Any]] = {}
    out_cards: list[Card] = []
    for player in out:
        # Under "last holder" a card played out can come back and be played out again.
        if out_cards and variant.round_end == "last_holder" and draw(st.booleans()):
            card = draw(st.sampled_from(out_cards))
        else:
            card = next(card for card in pool if not covers_itself(variant, card))
            pool.remove(card)
        out_cards.append(card)
        outcomes[player] = ("out", card)
    # The last card played stays on the pile; the others may have come back to a hand.
    on_pile = draw(st.sampled_from(out_cards))
    returned = sorted({card for card in out_cards if card != on_pile})
    holders = [player for player in active if player not in out]
    for index, player in enumerate(holders):
        left_for_others = len(holders) - index - 1
        size = draw(st.integers(1, variant.hand_size + 4))
        hand = [pool.pop() for _ in range(min(size, len(pool) - left_for_others))]
        if returned:
            hand += draw(st.lists(st.sampled_from(returned), unique=True))
        if not hand:
            hand = [pool.pop()]
        counted = recount(variant, "hand", hand)
        if not points:
            if left_for_others == 0 and draw(st.booleans()):
                # Aim at exactly 100 and 101 now and then, where the resets happen.
                target = draw(st.sampled_from((100, 101))) - sheet.totals[player]
                hand = cards_counting(variant, pool + hand, target) or hand
            outcomes[player] = ("hand", tuple(hand))
        elif draw(st.booleans()):
            outcomes[player] = ("hand", tuple(hand))
        elif left_for_others == 0:
            # Aim at exactly 100 and 101 now and then, where the resets happen.
            total = sheet.totals[player]
            near = [n for n in (100 - total, 101 - total) if 0 <= n <= 200]
            near = sorted(set(near) & reachable(variant, pool + hand, 200))
            outcomes[player] = ("points", draw(st.sampled_from([counted, *near])))
        else:
            outcomes[player] = ("points", counted)
    return {player: outcomes[player] for player in active}


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


@RANDOM_MATCHES
@given(sheets(), st.data())
def test_scoring_from_earlier_rounds_on_is_scoring_every_round(
    sheet: Sheet, data: st.DataObject
) -> None:
    split = data.draw(st.integers(0, len(sheet.rounds)))
    earlier = score_match(sheet.variant, sheet.players, sheet.rounds[:split])
    continued = score_match(sheet.variant, sheet.players, sheet.rounds[split:], since=earlier)
    assert continued == score_match(sheet.variant, sheet.players, sheet.rounds)
    # The earlier result is left as it was.
    assert earlier == score_match(sheet.variant, sheet.players, sheet.rounds[:split])


@st.composite
def played_sheets(draw: st.DrawFn) -> Sheet:
    """A match as a game in play scores it: a preset or random rules, 2 to 4 players, cards
    held rather than points, deck()'s own cards."""
    variant = draw(st.one_of(st.sampled_from(tuple(PRESETS.values())), variants))
    sheet = Sheet(variant, SEATS[: draw(st.integers(2, 4))])
    for _ in range(draw(st.integers(1, 40))):
        if sheet.finished:
            break
        sheet.add(draw(legal_rounds(sheet, points=False)))
    return sheet


@RANDOM_MATCHES
@given(played_sheets())
def test_the_played_round_scorer_scores_as_score_match_does(sheet: Sheet) -> None:
    score = played_round_scorer(sheet.variant)
    players = tuple(sheet.players)
    result = score_match(sheet.variant, players, [])
    for number, played in enumerate(sheet.rounds, start=1):
        # As the engine gives a round: Outcome objects, in the order of the players still in.
        outcomes = {
            player: Outcome(kind, value)
            for player, outcome in played.items()
            for kind, value in outcome.items()
        }
        result = score(result, outcomes)
        expected = score_match(sheet.variant, players, sheet.rounds[:number])
        assert result == expected
        assert repr(result) == repr(expected)  # dicts in the same order too
    assert result.finished == sheet.finished


def test_the_played_round_scorer_takes_equal_cards_and_leaves_others_to_score_match() -> None:
    variant = PRESETS["classic"]
    players = ("Ann", "Bob")
    earlier = score_match(variant, players, [{"Ann": {"hand": "AS"}, "Bob": {"out": "10S"}}])
    score = played_round_scorer(variant)
    # Parsed cards equal deck()'s own but are other objects.
    outcomes = {
        "Ann": Outcome("out", parse_card("9S")),
        "Bob": Outcome("hand", parse_cards("QS QH")),
    }
    result = score(earlier, outcomes)
    assert result == score_match(variant, players, [outcomes], since=earlier)
    assert result.totals == {"Ann": 11, "Bob": 60}
    # A card not in a 36-card deck: score_match's error.
    outcomes = {"Ann": Outcome("out", parse_card("9S")), "Bob": Outcome("hand", parse_cards("2S"))}
    with pytest.raises(RulesError, match="is not in a"):
        score(earlier, outcomes)


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


@RANDOM_HANDS
@given(variants)
def test_possible_points_are_the_penalties_some_hand_of_the_deck_counts(variant: Variant) -> None:
    cards = list(deck(variant.deck_size))
    assert possible_points(variant) == reachable(variant, cards, max_points(variant))


# --- identity by key: what the players are called does not change the score -------------

# Any hashable key but a bool (True == 1) or None; text keys are not blank.
player_keys = st.one_of(
    st.integers(),
    st.text(min_size=1).filter(str.strip),
    st.tuples(st.integers(0, 3), st.text(max_size=3)),
    st.frozensets(st.integers(), max_size=2),
)
STRANGER = "Zed"


def renamings(players: list[str]) -> st.SearchStrategy[dict[str, Hashable]]:
    """Injective renamings of the seats (and of a stranger): to seat numbers, to other
    names, to any other keys."""
    old = [*players, STRANGER]
    new_keys = st.one_of(
        st.just(list(range(len(old)))),
        st.permutations(range(len(old))).map(list),
        st.lists(
            st.text(min_size=1).filter(str.strip), min_size=len(old), max_size=len(old), unique=True
        ),
        st.lists(player_keys, min_size=len(old), max_size=len(old), unique=True),
    )
    return new_keys.map(lambda keys: dict(zip(old, keys, strict=True)))


def renamed_rounds(
    rounds: list[dict[Any, Any]], rename: dict[Any, Hashable]
) -> list[dict[Any, Any]]:
    return [{rename[player]: outcome for player, outcome in raw.items()} for raw in rounds]


def assert_renamed(result: MatchResult, renamed: MatchResult, rename: dict[Any, Hashable]) -> None:
    def keys(players: Iterable[Any]) -> list[Hashable]:
        return [rename[player] for player in players]

    def by_key(values: dict[Any, Any]) -> list[tuple[Hashable, Any]]:
        # Compared as lists: the order (seat order) must survive the renaming too.
        return [(rename[player], value) for player, value in values.items()]

    assert list(renamed.players) == keys(result.players)
    assert len(renamed.rounds) == len(result.rounds)
    for before, after in zip(result.rounds, renamed.rounds, strict=True):
        assert list(after.outcomes.items()) == by_key(before.outcomes)
        assert list(after.scores.items()) == by_key(before.scores)
        assert list(after.totals.items()) == by_key(before.totals)
        assert after.events == [(rename[player], kind) for player, kind in before.events]
    assert list(renamed.totals.items()) == by_key(result.totals)
    assert renamed.standings == [keys(tie) for tie in result.standings]
    assert list(renamed.lost_in.items()) == by_key(result.lost_in)
    assert list(renamed.active) == keys(result.active)
    assert renamed.finished == result.finished
    leads = result.leads_next
    assert renamed.leads_next == (None if leads is None else rename[leads])


def scored(variant: Variant, players: list[Any], rounds: list[Any]) -> MatchResult | RulesError:
    try:
        return score_match(variant, players, rounds)
    except RulesError as error:
        return error


def assert_same_error(error: RulesError, renamed: RulesError, rename: dict[Any, Hashable]) -> None:
    assert (renamed.template, renamed.round) == (error.template, error.round)
    assert renamed.player == (None if error.player is None else rename[error.player])
    expected = dict(error.params)
    for param in PLAYER_PARAMS & expected.keys():
        expected[param] = rename[expected[param]]
    for param in PLAYER_LIST_PARAMS & expected.keys():
        expected[param] = tuple(rename[player] for player in expected[param])
    assert renamed.params == expected
    # The old keys were the names people read.
    assert renamed.render(names={new: old for old, new in rename.items()}) == str(error)


@RENAMINGS
@given(st.data())
def test_scoring_is_the_same_whatever_the_players_are_called(data: st.DataObject) -> None:
    sheet = data.draw(sheets())
    rename = data.draw(renamings(sheet.players))
    players = [rename[player] for player in sheet.players]
    result = score_match(sheet.variant, sheet.players, sheet.rounds)
    renamed = score_match(sheet.variant, players, renamed_rounds(sheet.rounds, rename))
    assert_renamed(result, renamed, rename)
    # Renaming twice (names to seats, seats to tuples) is one renaming too.
    seats = {player: seat for seat, player in enumerate([*sheet.players, STRANGER])}
    tuples = {seat: (seat, "seat") for seat in seats.values()}
    by_seat = score_match(
        sheet.variant, list(range(len(players))), renamed_rounds(sheet.rounds, seats)
    )
    by_tuple = score_match(
        sheet.variant,
        [tuples[seat] for seat in by_seat.players],
        renamed_rounds(sheet.rounds, {p: tuples[s] for p, s in seats.items()}),
    )
    assert_renamed(result, by_seat, seats)
    assert_renamed(by_seat, by_tuple, tuples)


@st.composite
def spoiled(draw: st.DrawFn, sheet: Sheet) -> list[dict[str, Any]]:
    """The sheet with one round spoiled in one of the ways a scorer can get it wrong."""
    rounds = [dict(raw) for raw in sheet.rounds]
    index = draw(st.integers(0, len(rounds) - 1))
    raw = rounds[index]
    players = list(raw)
    player = draw(st.sampled_from(players))
    out_cards = [outcome["out"] for outcome in raw.values() if "out" in outcome]
    holders = [p for p in players if "out" not in raw[p]]
    match draw(st.integers(0, 8)):
        case 0:  # an outcome left out
            del raw[player]
        case 1:  # someone who is not at the table
            raw[STRANGER] = {"points": 5}
        case 2:  # out on a card that must be covered (where the table covers it)
            raw[player] = {"out": draw(st.sampled_from(parse_cards("6♠ 8♥")))}
        case 3:  # points no hand makes
            raw[player] = {"points": 1}
        case 4:  # every out card held too (the last one played is on the pile)
            held = (*sorted(set(out_cards)), *parse_cards("A♥ A♦"))
            raw[draw(st.sampled_from(holders))] = {"hand": held}
        case 5:  # one card twice in a hand
            raw[player] = {"hand": parse_cards("K♣ K♣")}
        case 6:  # more points than the deck holds between the holders
            for holder in holders:
                raw[holder] = {"points": 200}
        case 7:  # everyone out
            for other in players:
                raw[other] = {"out": out_cards[0]}
        case _:  # a card that is not a card
            raw[player] = {"hand": "Qx 10h"}
    return rounds


@RENAMINGS
@given(st.data())
def test_a_bad_round_gives_the_same_error_whatever_the_players_are_called(
    data: st.DataObject,
) -> None:
    sheet = data.draw(sheets().filter(lambda sheet: sheet.rounds))
    rounds = data.draw(spoiled(sheet))
    rename = data.draw(renamings(sheet.players))
    players = [rename[player] for player in sheet.players]
    result = scored(sheet.variant, sheet.players, rounds)
    renamed = scored(sheet.variant, players, renamed_rounds(rounds, rename))
    if isinstance(result, RulesError):
        assert isinstance(renamed, RulesError)
        assert_same_error(result, renamed, rename)
    else:
        # Some spoilings are legal rounds after all (a 6 where nobody covers it).
        assert isinstance(renamed, MatchResult)
        assert_renamed(result, renamed, rename)
