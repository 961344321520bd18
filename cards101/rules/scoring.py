"""Scoring: card penalties, round outcomes, and a whole match's totals, losers and standings."""

import functools
import operator
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from cards101.rules.cards import DECK_SIZES, Card, deck, parse_card, parse_cards
from cards101.rules.errors import RulesError, gettext_noop
from cards101.rules.variants import Variant, check_players

OutcomeKind = Literal["out", "hand", "points"]
OUTCOME_KINDS: tuple[OutcomeKind, ...] = ("out", "hand", "points")
EVENT_KINDS = ("reset_to_0", "reset_to_50", "lost")

NOT_IN_DECK = gettext_noop("%(card)s is not in a %(deck_size)s-card deck")
GIVEN_TWICE = gettext_noop("%(card)s is given twice (%(first)s, %(second)s)")
GIVEN_TWICE_IN_HAND = gettext_noop("%(card)s is given twice in the cards of %(player)s")
OUT_ON_A_SIX = gettext_noop(
    "%(player)s cannot go out on %(card)s: at this table whoever plays a 6 must cover it"
)
OUT_ON_AN_EIGHT = gettext_noop(
    "%(player)s cannot go out on %(card)s: at this table whoever plays an 8 must cover it"
)

_FACE_POINTS = {"J": 2, "Q": 3, "K": 4, "A": 11}
_QUEEN_PENALTY = 20
_BIG_QUEEN_PENALTY = 40
_QUEEN_BONUS = 20
_BIG_QUEEN_BONUS = 40


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended for one player: went out with `value` (a Card), held `value`
    (a tuple of Cards) or was counted `value` points at the table."""

    kind: OutcomeKind
    value: Card | tuple[Card, ...] | int

    def as_dict(self) -> dict[str, str | int]:
        """JSON-safe form that `score_match` accepts back, cards as ASCII codes."""
        match self.value:
            case Card() as card:
                return {self.kind: card.code}
            case tuple() as cards:
                return {self.kind: " ".join(card.code for card in cards)}
            case points:
                return {self.kind: points}


@dataclass(frozen=True, slots=True)
class RoundResult[P: Hashable]:
    """One scored round: outcomes and scores of those who played, everyone's totals after it;
    players are the keys `score_match` was given (names, seats...)."""

    outcomes: dict[P, Outcome]
    scores: dict[P, int]
    totals: dict[P, int]
    events: list[tuple[P, str]]
    # Cut at the move limit of a round in play (the engine's MOVE_LIMIT): scored as it
    # stood, nobody going out under "first out", several holding under "last holder".
    cut: bool = False


@dataclass(frozen=True, slots=True)
class MatchResult[P: Hashable]:
    """A scored match so far; `standings` is best first, tied players share a list."""

    players: tuple[P, ...]
    rounds: tuple[RoundResult[P], ...]
    totals: dict[P, int]
    finished: bool
    standings: list[list[P]]
    lost_in: dict[P, int]
    active: tuple[P, ...]
    variant: Variant

    @property
    def leads_next(self) -> P | None:
        """Who leads the next round under "previous winner", when the sheet can tell."""
        if self.finished or not self.rounds or self.variant.leader != "previous_winner":
            return None
        went_out = [
            player for player, outcome in self.rounds[-1].outcomes.items() if outcome.kind == "out"
        ]
        # With "last holder" several go out and the sheet does not say who was first.
        return went_out[0] if len(went_out) == 1 else None


def card_points(variant: Variant, card: Card) -> int:
    """Penalty of one card held at the end of a round."""
    if card.rank == "9":
        return variant.nine_points
    return _FACE_POINTS.get(card.rank) or int(card.rank)


def _check_in_deck(variant: Variant, card: Card) -> None:
    if card not in _card_values(variant):
        raise RulesError(
            NOT_IN_DECK,
            {"card": card, "deck_size": variant.deck_size},
        )


def _queen_value(variant: Variant, card: Card, small: int, big: int) -> int:
    return big if card.suit == variant.big_queen else small


def _hand_penalty(variant: Variant, cards: tuple[Card, ...]) -> int:
    return _penalty(variant, _card_values(variant), cards)


def _penalty(
    variant: Variant,
    values: Mapping[Card, int],
    cards: tuple[Card, ...],
    by_id: Mapping[int, int] | None = None,
) -> int:
    """The penalty of `cards`; `by_id` (`_value_tables`) finds the points of deck()'s own
    card objects by identity, faster than hashing each card."""
    if variant.queens_only_penalty and cards and all(card.is_queen for card in cards):
        return sum(
            _queen_value(variant, card, _QUEEN_PENALTY, _BIG_QUEEN_PENALTY) for card in cards
        )
    if by_id is not None:
        try:
            return sum([by_id[id(card)] for card in cards])
        except KeyError:
            pass  # a card that is not one of deck()'s objects
    return sum(values[card] for card in cards)


@functools.lru_cache(maxsize=64)
def _card_values(variant: Variant) -> Mapping[Card, int]:
    """Points of every card in the variant's deck; a card missing is not in the deck."""
    return MappingProxyType({card: card_points(variant, card) for card in deck(variant.deck_size)})


@functools.lru_cache(maxsize=64)
def _value_tables(variant: Variant) -> tuple[Mapping[Card, int], Mapping[int, int]]:
    """`_card_values`, and the same by the id() of deck()'s own card objects (made once and
    kept for good, so no other object has their id): a game in play holds only these, and
    an int hashes in C where a Card hashes in Python. One cache, as hashing a Variant
    costs as much as the lookup."""
    values = _card_values(variant)
    by_id = {id(card): values[card] for card in deck(variant.deck_size)}
    return values, MappingProxyType(by_id)


# The ids of deck()'s own card objects, by deck size.
_DECK_IDS = {size: frozenset(map(id, deck(size))) for size in DECK_SIZES}


def score_hand(variant: Variant, cards: Iterable[Card] | str) -> int:
    """Penalty of a hand left at the end of a round (0 for no cards)."""
    hand = _as_cards(cards)
    seen: set[Card] = set()
    for card in hand:
        _check_in_deck(variant, card)
        if card in seen:
            raise RulesError(gettext_noop("%(card)s is given twice"), {"card": card})
        seen.add(card)
    return _hand_penalty(variant, hand)


def out_score(variant: Variant, card: Card) -> int:
    """Score of going out with `card`: 0, less the Queen bonus when `out_bonus` is on."""
    _check_in_deck(variant, card)
    return _out_score(variant, card)


def _out_score(variant: Variant, card: Card) -> int:
    """`out_score` of a card known to be in the deck."""
    if variant.out_bonus and card.is_queen:
        return -_queen_value(variant, card, _QUEEN_BONUS, _BIG_QUEEN_BONUS)
    return 0


def must_cover(variant: Variant, card: Card) -> bool:
    """Whether whoever plays `card` must cover it themselves, and so cannot go out on it."""
    if card.rank == "6":
        return variant.six in ("cover_self", "cover_self_suit")
    return card.rank == "8" and variant.eight == "cover_self_skip"


@functools.lru_cache(maxsize=64)
def max_points(variant: Variant) -> int:
    """The most a hand can be worth: the whole deck, or all four Queens if that is more."""
    cards = deck(variant.deck_size)
    queens = tuple(card for card in cards if card.is_queen)
    return max(_hand_penalty(variant, cards), _hand_penalty(variant, queens))


@functools.lru_cache(maxsize=64)
def possible_points(variant: Variant) -> frozenset[int]:
    """Every penalty a hand of at least one card can count under the variant."""
    values = _card_values(variant)
    # Subset sums as bit sets: bit n is set when some cards count n together.
    mixed = 0  # hands with at least one card that is not a Queen
    queens = 1  # sets of Queens at their card points, the empty set included
    queens_only = 1  # the same at the queens-only penalty
    for card, points in values.items():
        if card.is_queen:
            queens |= queens << points
            mixed |= mixed << points
            penalty = _queen_value(variant, card, _QUEEN_PENALTY, _BIG_QUEEN_PENALTY)
            queens_only |= queens_only << penalty
        else:
            mixed |= (mixed | queens) << points
    # A Queen counts 3, so bit 0 of the Queens' sets is only the empty set: no hand.
    possible = mixed | ((queens_only if variant.queens_only_penalty else queens) & ~1)
    return frozenset(n for n in range(possible.bit_length()) if possible >> n & 1)


@functools.lru_cache(maxsize=1024)
def _most_held(variant: Variant, on_pile: Card, holders: int) -> int:
    """The most `holders` hands can count together when `on_pile` is the top of the pile."""
    values = _card_values(variant)
    plain = sum(points for card, points in values.items() if card != on_pile)
    queens = tuple(card for card in values if card.is_queen and card != on_pile)
    if not variant.queens_only_penalty or not queens:
        return plain
    queens_only = _penalty(variant, values, queens)
    if holders == 1:
        return max(plain, queens_only)
    # One holder keeps every Queen at 20 (40) each, the others share the rest of the deck.
    return plain - sum(values[card] for card in queens) + queens_only


def _as_cards(value: Any) -> tuple[Card, ...]:
    if isinstance(value, str):
        return parse_cards(value)
    if isinstance(value, Card):
        return (value,)
    if isinstance(value, Iterable) and not isinstance(value, Mapping):
        return tuple(item if isinstance(item, Card) else parse_card(item) for item in value)
    raise RulesError(
        gettext_noop("Cards are written like Q♠ 10♥, not %(value)s"),
        {"value": repr(value)},
    )


def _bad_outcome(player: Hashable) -> RulesError:
    return RulesError(
        gettext_noop(
            "Give %(player)s exactly one outcome: went out (with a card), cards left, or points"
        ),
        {"player": player},
        player=player,
    )


def _normalize_outcome(variant: Variant, player: Hashable, raw: Any) -> Outcome:
    """Check one player's outcome as entered and return it with Card objects."""
    if isinstance(raw, Outcome):
        raw = {raw.kind: raw.value}
    if not isinstance(raw, Mapping) or len(raw) != 1:
        raise _bad_outcome(player)
    ((kind, value),) = raw.items()
    if kind == "out":
        return Outcome("out", _out_card(variant, player, value))
    if kind == "hand":
        cards = _as_cards(value)
        if not cards:
            raise RulesError(
                gettext_noop(
                    '%(player)s has no cards left: choose "went out" and the card '
                    "they went out with"
                ),
                {"player": player},
                player=player,
            )
        return Outcome("hand", cards)
    if kind == "points":
        return Outcome("points", _points(variant, player, value))
    raise _bad_outcome(player)


def _normal(variant: Variant, outcome: Outcome) -> bool:
    """Whether `outcome` is already what `_normalize_outcome` makes of it, once its cards
    are known to be Cards (`_distinct_deck_cards`): going out with a card that need not be
    covered, or holding a tuple of cards, as the outcomes of a game in play are."""
    kind = outcome.kind
    value = outcome.value
    if kind == "out":
        return type(value) is Card and not must_cover(variant, value)
    return kind == "hand" and type(value) is tuple and bool(value)


def _out_card(variant: Variant, player: Hashable, value: Any) -> Card:
    cards = _as_cards(value)
    if len(cards) != 1:
        raise RulesError(
            gettext_noop("%(player)s goes out with exactly one card, not %(count)s"),
            {"player": player, "count": len(cards)},
            player=player,
        )
    card = cards[0]
    if must_cover(variant, card):
        raise RulesError(
            OUT_ON_A_SIX if card.rank == "6" else OUT_ON_AN_EIGHT,
            {"player": player, "card": card},
            player=player,
        )
    return card


def _points(variant: Variant, player: Hashable, value: Any) -> int:
    # bool is an int in Python, but True points is a mistake in the form.
    if type(value) is not int:
        raise RulesError(
            gettext_noop("Points for %(player)s must be a whole number, not %(value)s"),
            {"player": player, "value": repr(value)},
            player=player,
        )
    if value < 0:
        raise RulesError(
            gettext_noop(
                "Points for %(player)s cannot be negative (%(points)s): going out "
                'with a Queen is entered as "went out" with that Queen'
            ),
            {"player": player, "points": value},
            player=player,
        )
    if value > max_points(variant):
        raise RulesError(
            gettext_noop(
                "Points for %(player)s (%(points)s) are more than the whole deck is worth (%(max)s)"
            ),
            {"player": player, "points": value, "max": max_points(variant)},
            player=player,
        )
    if value not in possible_points(variant):
        raise RulesError(
            gettext_noop(
                "Points for %(player)s (%(points)s): no hand of a %(deck_size)s-card deck "
                "counts exactly that under these rules"
            ),
            {"player": player, "points": value, "deck_size": variant.deck_size},
            player=player,
        )
    return value


def _check_round_cards[P: Hashable](
    variant: Variant, values: Mapping[Card, int], outcomes: dict[P, Outcome], cut: bool = False
) -> None:
    """Every card is in the deck, in one hand at most and once in it. Under "last holder"
    a card played out can come back through the restock, so out cards may repeat and be
    held, but the last one played stays on the pile (unless the round was `cut`: then the
    last card played is any card); otherwise an out card is on the pile and nowhere else."""
    comes_back = variant.round_end == "last_holder"
    placed: dict[Card, P] = {}  # who gave each card first, in seat order
    held_back: dict[Card, P] = {}  # out cards that came back to a holder's hand
    for player, outcome in outcomes.items():
        match outcome.value:
            case Card() as card:
                cards: tuple[Card, ...] = (card,)
            case tuple() as cards:
                pass
            case _:
                continue
        for card in cards:
            if card not in values:
                raise RulesError(
                    NOT_IN_DECK,
                    {"card": card, "deck_size": variant.deck_size},
                    player=player,
                )
            # setdefault looks the card up once; a card seen before is the rare case.
            count = len(placed)
            first = placed.setdefault(card, player)
            if len(placed) == count:
                _check_seen_again(comes_back, outcomes, held_back, card, first, player)
    if comes_back and not cut:
        _check_one_out_card_on_pile(outcomes, held_back)


def _distinct_deck_cards[P: Hashable](variant: Variant, outcomes: dict[P, Outcome]) -> bool:
    """Whether the cards of `outcomes` are deck()'s own objects for the variant's deck, each
    given once, as in a game in play: then they are all in the deck and no card is given
    twice, which is found by identity rather than by hashing every card."""
    ids: list[int] = []
    for outcome in outcomes.values():
        value = outcome.value
        if type(value) is tuple:
            ids += map(id, value)
        elif type(value) is Card:
            ids.append(id(value))
        elif type(value) is not int:
            return False
    return len(set(ids)) == len(ids) and _DECK_IDS[variant.deck_size].issuperset(ids)


def _check_seen_again[P: Hashable](
    comes_back: bool,
    outcomes: dict[P, Outcome],
    held_back: dict[Card, P],
    card: Card,
    first: P,
    player: P,
) -> None:
    """A card given again is a mistake unless it came back after someone went out with it."""
    if first == player or held_back.get(card) == player:
        raise RulesError(GIVEN_TWICE_IN_HAND, {"card": card, "player": player}, player=player)
    if comes_back:
        went_out = outcomes[player].kind == "out"
        first_went_out = outcomes[first].kind == "out"
        if went_out and first_went_out:
            return  # played out, restocked, played out again
        if went_out or first_went_out:
            # Back in one hand at most.
            holder = first if went_out else player
            first = held_back.setdefault(card, holder)
            if first == holder:
                return
    raise RulesError(GIVEN_TWICE, {"card": card, "first": first, "second": player}, player=player)


def _check_one_out_card_on_pile[P: Hashable](
    outcomes: dict[P, Outcome], held_back: dict[Card, P]
) -> None:
    """The last card played stays on the pile, so some out card is in no hand."""
    went_out = [(player, o.value) for player, o in outcomes.items() if o.kind == "out"]
    if not went_out or any(card not in held_back for _, card in went_out):
        return
    out_player, card = went_out[0]
    holder = held_back[card]  # type: ignore[index]
    if len(went_out) == 1:
        seats = list(outcomes)
        first, second = sorted((out_player, holder), key=seats.index)
        raise RulesError(
            GIVEN_TWICE, {"card": card, "first": first, "second": second}, player=second
        )
    raise RulesError(
        gettext_noop(
            "The last card played stays on the pile, so %(player)s cannot be holding every "
            "card the others went out with (%(cards)s)"
        ),
        {"player": holder, "cards": tuple(dict.fromkeys(card for _, card in went_out))},
        player=holder,
    )


def _check_round_end[P: Hashable](variant: Variant, outcomes: dict[P, Outcome]) -> None:
    """The round ended the way the variant says rounds end."""
    went_out = [player for player, outcome in outcomes.items() if outcome.kind == "out"]
    # "points" counted at the table means the player still held cards.
    holding = [player for player, outcome in outcomes.items() if outcome.kind != "out"]
    if variant.round_end == "first_out" and len(went_out) != 1:
        if not went_out:
            raise RulesError(
                gettext_noop("With 'first out', exactly one player goes out; here nobody did")
            )
        raise RulesError(
            gettext_noop(
                "With 'first out', exactly one player goes out; here %(count)s did (%(players)s)"
            ),
            {"count": len(went_out), "players": tuple(went_out)},
        )
    if variant.round_end == "last_holder" and len(holding) != 1:
        if not holding:
            raise RulesError(
                gettext_noop(
                    "With 'last holder', exactly one player still holds cards at the end; "
                    "here nobody does"
                )
            )
        raise RulesError(
            gettext_noop(
                "With 'last holder', exactly one player still holds cards at the end; "
                "here %(count)s do (%(players)s)"
            ),
            {"count": len(holding), "players": tuple(holding)},
        )


def _check_holders_total[P: Hashable](
    variant: Variant, outcomes: dict[P, Outcome], scores: dict[P, int], round: int
) -> None:
    """Those still holding cards hold no more than the cards off the pile can count."""
    holders = [player for player, outcome in outcomes.items() if outcome.kind != "out"]
    points = sum(scores[player] for player in holders)
    # One card a player went out with is on top of the pile; under "last holder" we do not
    # know which, so the holders may have every other one.
    on_pile = {outcome.value for outcome in outcomes.values() if outcome.kind == "out"}
    if not on_pile:  # a round cut at the move limit, nobody out: nothing to check against
        return
    most = max(_most_held(variant, card, len(holders)) for card in on_pile)  # type: ignore[arg-type]
    if points <= most:
        return
    if len(holders) == 1:
        raise RulesError(
            gettext_noop(
                "%(player)s cannot hold %(points)s points: the cards not on the pile are "
                "worth at most %(max)s"
            ),
            {"player": holders[0], "points": points, "max": most},
            player=holders[0],
            round=round,
        )
    raise RulesError(
        gettext_noop(
            "%(players)s cannot hold %(points)s points between them: the cards not on the "
            "pile are worth at most %(max)s"
        ),
        {"players": tuple(holders), "points": points, "max": most},
        round=round,
    )


def _check_seating[P: Hashable](players: Iterable[P]) -> tuple[P, ...]:
    if isinstance(players, str) or not isinstance(players, Iterable):
        raise RulesError(
            gettext_noop("Players are a list of names, not %(value)s"),
            {"value": repr(players)},
        )
    seated = tuple(players)
    for key in seated:
        if isinstance(key, str):
            if not key.strip():
                raise RulesError(
                    gettext_noop("A player's name must be non-empty text, not %(value)s"),
                    {"value": repr(key)},
                )
        # True == 1, so a bool would stand for seat 1.
        elif key is None or isinstance(key, bool) or not _hashable(key):
            raise RulesError(
                gettext_noop("A player is given by a name or a seat number, not %(value)s"),
                {"value": repr(key)},
            )
    seen: set[P] = set()
    for key in seated:
        if key in seen:
            raise RulesError(
                gettext_noop("%(player)s is seated twice"),
                {"player": key},
                player=key,
            )
        seen.add(key)
    return seated


def _hashable(key: object) -> bool:
    # A tuple is Hashable as a type even when it holds a list, so try it.
    try:
        hash(key)
    except TypeError:
        return False
    return True


def _read_round[P: Hashable](
    variant: Variant,
    seats: frozenset[P],
    active: list[P],
    lost_in: dict[P, int],
    values: Mapping[Card, int],
    raw_round: Any,
    cut: bool = False,
) -> dict[P, Outcome]:
    """Outcomes of one round in seat order, or RulesError (without the round number); a
    round `cut` at the move limit need not have ended the way the variant ends rounds."""
    outcomes = _played_round(variant, active, raw_round)
    if outcomes is not None:
        if not cut:
            _check_round_end(variant, outcomes)
        return outcomes
    if not isinstance(raw_round, Mapping):
        raise RulesError(
            gettext_noop("A round maps each player to an outcome, not %(value)s"),
            {"value": type(raw_round).__name__},
        )
    for key in raw_round:
        if key not in seats or type(key) is bool:
            raise RulesError(
                gettext_noop("%(player)s is not playing in this match"),
                {"player": key},
                player=key,
            )
        if key in lost_in:
            raise RulesError(
                gettext_noop("%(player)s lost in round %(lost)s and no longer plays"),
                {"player": key, "lost": lost_in[key] + 1},
                player=key,
            )
    outcomes = {}
    for player in active:
        if player not in raw_round:
            raise RulesError(
                gettext_noop("No outcome for %(player)s"),
                {"player": player},
                player=player,
            )
        try:
            outcomes[player] = _normalize_outcome(variant, player, raw_round[player])
        except RulesError as error:
            # A parse error names the token; the form shows it by the right player.
            error.player = player
            raise
    _check_round_cards(variant, values, outcomes, cut)
    if not cut:
        _check_round_end(variant, outcomes)
    return outcomes


def _played_round[P: Hashable](
    variant: Variant, active: list[P], raw_round: Any
) -> dict[P, Outcome] | None:
    """The outcomes of a round as a game in play gives them, when every check of
    `_read_round` but the round's end is sure to pass, in one look: an Outcome in normal
    form (`_normal`) for each player still in and no one else, and deck()'s own cards, each
    once (`_distinct_deck_cards`). None for anything else, which `_read_round` checks."""
    if type(raw_round) is not dict or len(raw_round) != len(active):
        return None
    outcomes: dict[P, Outcome] = {}
    for player in active:
        outcome = raw_round.get(player)
        if type(outcome) is not Outcome or not _normal(variant, outcome):
            return None
        outcomes[player] = outcome
    # A bool key is refused even where it equals a seat number (True == 1).
    if bool in map(type, raw_round):
        return None
    return outcomes if _distinct_deck_cards(variant, outcomes) else None


def _score(
    variant: Variant, values: Mapping[Card, int], by_id: Mapping[int, int], outcome: Outcome
) -> int:
    # The cards were checked to be in the deck (`_check_round_cards`).
    match outcome.kind:
        case "out":
            return _out_score(variant, outcome.value)  # type: ignore[arg-type]
        case "hand":
            return _penalty(variant, values, outcome.value, by_id)  # type: ignore[arg-type]
        case _:
            return outcome.value  # type: ignore[return-value]


def rank_players[P: Hashable](
    players: Sequence[P], totals: Mapping[P, int], lost_in: Mapping[P, int]
) -> list[list[P]]:
    """Best first: players still in by lowest total, then losers by later loss, then
    lower total; equal places share a list, in seat order."""
    standings: list[list[P]] = []
    previous = None
    # sorted() is stable, so tied players stay in seat order; each key is made once (in
    # the comprehension: a key function would cost a call per player).
    keyed = [
        (
            (1, -lost_in[player], totals[player]) if player in lost_in else (0, 0, totals[player]),
            player,
        )
        for player in players
    ]
    for place, player in sorted(keyed, key=_first):
        if place == previous:
            standings[-1].append(player)
        else:
            standings.append([player])
            previous = place
    return standings


_first = operator.itemgetter(0)
_index = operator.attrgetter("index")


def score_match[P: Hashable](
    variant: Variant,
    players: Sequence[P],
    rounds: Iterable[Mapping[P, Any]],
    *,
    since: MatchResult[P] | None = None,
    cut: Collection[int] = (),
) -> MatchResult[P]:
    """Score a match round by round; the first rule a round breaks raises RulesError.

    `cut` holds the indices (from 0, counting the rounds of `since`) of rounds a game in
    play cut at its move limit: each is scored as it stood, and need not have ended the
    way the variant ends rounds (nobody out, or several still holding cards).

    Players are any hashable keys (names, seat numbers...), used as given in the result
    and in `RulesError.player`; `RulesError.render(names=...)` shows them to people.
    With `since` (what score_match returned for this match's earlier rounds) `rounds` are
    only the rounds after those, scored from where it stopped: the same result as scoring
    every round again, at the cost of the new rounds alone (a game in play scores each
    round as it ends)."""
    if since is not None and players is since.players and variant is since.variant:
        seated = since.players  # seated and checked when `since` was scored
    else:
        seated = _check_seating(players)
        check_players(variant, len(seated))
    seats = frozenset(seated)
    values, by_id = _value_tables(variant)
    totals = dict.fromkeys(seated, 0)
    active = list(seated)
    lost_in: dict[P, int] = {}
    results: list[RoundResult[P]] = []
    finished = False
    if since is not None:
        if since.players != seated or (since.variant is not variant and since.variant != variant):
            raise RulesError(
                gettext_noop("Earlier rounds can only be continued with the same players and rules")
            )
        totals = dict(since.totals)
        active = list(since.active)
        lost_in = dict(since.lost_in)
        results = list(since.rounds)
        finished = since.finished

    for index, raw_round in enumerate(rounds, start=len(results)):
        if finished:
            raise RulesError(
                gettext_noop("The match ended in round %(number)s; no round can follow it"),
                {"number": index},
                round=index,
            )
        try:
            cut_here = index in cut
            outcomes = _read_round(variant, seats, active, lost_in, values, raw_round, cut_here)
        except RulesError as error:
            error.round = index
            raise

        scores: dict[P, int] = {}
        events: list[tuple[P, str]] = []
        counted = False
        for player, outcome in outcomes.items():
            scores[player] = score = _score(variant, values, by_id, outcome)
            counted = counted or outcome.kind == "points"
            total = totals[player] + score
            if total == 101 and variant.reset_at_101:
                total = 0
                events.append((player, "reset_to_0"))
            if total == 100 and variant.reset_at_100:
                total = 50
                events.append((player, "reset_to_50"))
            if total > variant.lose_over:
                lost_in[player] = index
                events.append((player, "lost"))
            totals[player] = total

        # Only points counted at the table can add up to more than the cards hold.
        if counted:
            _check_holders_total(variant, outcomes, scores, index)
        active = [player for player in active if player not in lost_in]
        if variant.game_end == "first_loser":
            finished = any(kind == "lost" for _, kind in events)
        else:
            finished = len(active) <= 1
        results.append(RoundResult(outcomes, scores, dict(totals), events, cut_here))

    return MatchResult(
        players=seated,
        rounds=tuple(results),
        totals=totals,
        finished=finished,
        standings=rank_players(seated, totals, lost_in),
        lost_in=lost_in,
        active=tuple(active),
        variant=variant,
    )


type PlayedRoundScorer = Callable[..., MatchResult[Any]]


@functools.lru_cache(maxsize=64)
def played_round_scorer(variant: Variant) -> PlayedRoundScorer:
    """`score(since, outcomes, cut=False)`: `score_match(variant, since.players,
    [outcomes], since=since)` for a round a game in play has just finished (with
    `cut=[len(since.rounds)]` when `cut`), at a fraction of the cost.

    It trusts what a game in play gives and so checks nothing: `since` was scored under
    `variant` and is not finished, `outcomes` has an Outcome for each player in
    `since.active`, in that order, going out with a card that need not be covered or
    holding a non-empty tuple of cards, the round ending as the variant says (`_read_round`
    checks all this for score_match). Points come from tables by Card.index; a card that is
    not in the deck is left to score_match, which refuses it."""
    values = _card_values(variant)
    own = deck(variant.deck_size)
    points = {card.index: values[card] for card in own}
    out_points = {card.index: _out_score(variant, card) for card in own}
    # Under queens_only_penalty, a hand of Queens alone counts these instead.
    queen_points = (
        {
            card.index: _queen_value(variant, card, _QUEEN_PENALTY, _BIG_QUEEN_PENALTY)
            for card in own
            if card.is_queen
        }
        if variant.queens_only_penalty
        else {}
    )
    queens = queen_points.keys()
    reset_at_101 = variant.reset_at_101
    reset_at_100 = variant.reset_at_100
    lose_over = variant.lose_over
    first_loser = variant.game_end == "first_loser"

    def score[P: Hashable](
        since: MatchResult[P], outcomes: dict[P, Outcome], cut: bool = False
    ) -> MatchResult[P]:
        index = len(since.rounds)
        totals = dict(since.totals)
        lost_in = dict(since.lost_in)
        scores: dict[P, int] = {}
        events: list[tuple[P, str]] = []
        lost = False
        try:
            for player, outcome in outcomes.items():
                value = outcome.value
                if outcome.kind == "out":
                    score = out_points[value.index]  # type: ignore[union-attr]
                else:
                    cards = list(map(_index, value))  # type: ignore[arg-type]
                    if queens and queens >= set(cards):
                        score = sum(map(queen_points.__getitem__, cards))
                    else:
                        score = sum(map(points.__getitem__, cards))
                scores[player] = score
                # As in score_match.
                total = totals[player] + score
                if total == 101 and reset_at_101:
                    total = 0
                    events.append((player, "reset_to_0"))
                if total == 100 and reset_at_100:
                    total = 50
                    events.append((player, "reset_to_50"))
                if total > lose_over:
                    lost_in[player] = index
                    events.append((player, "lost"))
                    lost = True
                totals[player] = total
        except KeyError:  # a card not in the deck
            return score_match(
                variant, since.players, [outcomes], since=since, cut=[index] if cut else ()
            )
        active = since.active
        if lost:
            active = tuple(player for player in active if player not in lost_in)
        finished = lost if first_loser else len(active) <= 1
        players = since.players
        return MatchResult(
            players=players,
            rounds=(*since.rounds, RoundResult(outcomes, scores, dict(totals), events, cut)),
            totals=totals,
            finished=finished,
            standings=rank_players(players, totals, lost_in),
            lost_in=lost_in,
            active=active,
            variant=since.variant,
        )

    return score
