"""Scoring: card penalties, round outcomes, and a whole match's totals, losers and standings."""

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from games.rules.cards import Card, deck, parse_card, parse_cards
from games.rules.errors import RulesError, gettext_noop
from games.rules.variants import Variant, check_players

OutcomeKind = Literal["out", "hand", "points"]
OUTCOME_KINDS: tuple[OutcomeKind, ...] = ("out", "hand", "points")
EVENT_KINDS = ("reset_to_0", "reset_to_50", "lost")

NOT_IN_DECK = gettext_noop("%(card)s is not in a %(deck_size)s-card deck")

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
class RoundResult:
    """One scored round: outcomes and scores of those who played, everyone's totals after it."""

    outcomes: dict[str, Outcome]
    scores: dict[str, int]
    totals: dict[str, int]
    events: list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A scored match so far; `standings` is best first, tied players share a list."""

    players: tuple[str, ...]
    rounds: tuple[RoundResult, ...]
    totals: dict[str, int]
    finished: bool
    standings: list[list[str]]
    lost_in: dict[str, int]
    active: tuple[str, ...]
    variant: Variant

    @property
    def leads_next(self) -> str | None:
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


def _penalty(variant: Variant, values: Mapping[Card, int], cards: tuple[Card, ...]) -> int:
    if variant.queens_only_penalty and cards and all(card.is_queen for card in cards):
        return sum(
            _queen_value(variant, card, _QUEEN_PENALTY, _BIG_QUEEN_PENALTY) for card in cards
        )
    return sum(values[card] for card in cards)


@functools.lru_cache(maxsize=64)
def _card_values(variant: Variant) -> Mapping[Card, int]:
    """Points of every card in the variant's deck; a card missing is not in the deck."""
    return MappingProxyType({card: card_points(variant, card) for card in deck(variant.deck_size)})


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
    if variant.out_bonus and card.is_queen:
        return -_queen_value(variant, card, _QUEEN_BONUS, _BIG_QUEEN_BONUS)
    return 0


@functools.lru_cache(maxsize=64)
def max_points(variant: Variant) -> int:
    """The most a hand can be worth: the whole deck, or all four Queens if that is more."""
    cards = deck(variant.deck_size)
    queens = tuple(card for card in cards if card.is_queen)
    return max(_hand_penalty(variant, cards), _hand_penalty(variant, queens))


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


def _bad_outcome(player: str) -> RulesError:
    return RulesError(
        gettext_noop(
            "Give %(player)s exactly one outcome: went out (with a card), cards left, or points"
        ),
        {"player": player},
        player=player,
    )


def _normalize_outcome(variant: Variant, player: str, raw: Any) -> Outcome:
    """Check one player's outcome as entered and return it with Card objects."""
    if isinstance(raw, Outcome):
        raw = {raw.kind: raw.value}
    if not isinstance(raw, Mapping) or len(raw) != 1:
        raise _bad_outcome(player)
    ((kind, value),) = raw.items()
    if kind == "out":
        cards = _as_cards(value)
        if len(cards) != 1:
            raise RulesError(
                gettext_noop("%(player)s goes out with exactly one card, not %(count)s"),
                {"player": player, "count": len(cards)},
                player=player,
            )
        return Outcome("out", cards[0])
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
                    "Points for %(player)s (%(points)s) are more than the whole deck "
                    "is worth (%(max)s)"
                ),
                {"player": player, "points": value, "max": max_points(variant)},
                player=player,
            )
        return Outcome("points", value)
    raise _bad_outcome(player)


def _check_round_cards(
    variant: Variant, values: Mapping[Card, int], outcomes: dict[str, Outcome]
) -> None:
    """Every card is in the deck and given once across the whole round."""
    holder: dict[Card, str] = {}
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
            first = holder.get(card)
            if first == player:
                raise RulesError(
                    gettext_noop("%(card)s is given twice in the cards of %(player)s"),
                    {"card": card, "player": player},
                    player=player,
                )
            if first is not None:
                raise RulesError(
                    gettext_noop("%(card)s is given twice (%(first)s, %(second)s)"),
                    {"card": card, "first": first, "second": player},
                    player=player,
                )
            holder[card] = player


def _check_round_end(variant: Variant, outcomes: dict[str, Outcome]) -> None:
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
            {"count": len(went_out), "players": ", ".join(went_out)},
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
            {"count": len(holding), "players": ", ".join(holding)},
        )


def _check_seating(players: Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Iterable):
        raise RulesError(
            gettext_noop("Players are a list of names, not %(value)s"),
            {"value": repr(players)},
        )
    seated = tuple(players)
    for name in seated:
        if not isinstance(name, str) or not name.strip():
            raise RulesError(
                gettext_noop("A player's name must be non-empty text, not %(value)s"),
                {"value": repr(name)},
            )
    seen: set[str] = set()
    for name in seated:
        if name in seen:
            raise RulesError(
                gettext_noop("%(player)s is seated twice"),
                {"player": name},
                player=name,
            )
        seen.add(name)
    return seated


def _read_round(
    variant: Variant,
    seated: tuple[str, ...],
    active: list[str],
    lost_in: dict[str, int],
    values: Mapping[Card, int],
    raw_round: Any,
) -> dict[str, Outcome]:
    """Outcomes of one round in seat order, or RulesError (without the round number)."""
    if not isinstance(raw_round, Mapping):
        raise RulesError(
            gettext_noop("A round maps each player to an outcome, not %(value)s"),
            {"value": type(raw_round).__name__},
        )
    for name in raw_round:
        if name not in seated:
            raise RulesError(
                gettext_noop("%(player)s is not playing in this match"),
                {"player": str(name)},
                player=str(name),
            )
        if name in lost_in:
            raise RulesError(
                gettext_noop("%(player)s lost in round %(lost)s and no longer plays"),
                {"player": name, "lost": lost_in[name] + 1},
                player=name,
            )
    outcomes: dict[str, Outcome] = {}
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
    _check_round_cards(variant, values, outcomes)
    _check_round_end(variant, outcomes)
    return outcomes


def _score(variant: Variant, values: Mapping[Card, int], outcome: Outcome) -> int:
    match outcome.kind:
        case "out":
            return out_score(variant, outcome.value)  # type: ignore[arg-type]
        case "hand":
            return _penalty(variant, values, outcome.value)  # type: ignore[arg-type]
        case _:
            return outcome.value  # type: ignore[return-value]


def rank_players(
    players: Sequence[str], totals: Mapping[str, int], lost_in: Mapping[str, int]
) -> list[list[str]]:
    """Best first: players still in by lowest total, then losers by later loss, then
    lower total; equal places share a list, in seat order."""

    def key(player: str) -> tuple[int, int, int]:
        if player not in lost_in:
            return (0, 0, totals[player])
        return (1, -lost_in[player], totals[player])

    standings: list[list[str]] = []
    previous = None
    # sorted() is stable, so tied players stay in seat order.
    for player in sorted(players, key=key):
        if key(player) == previous:
            standings[-1].append(player)
        else:
            standings.append([player])
            previous = key(player)
    return standings


def score_match(
    variant: Variant, players: Sequence[str], rounds: Iterable[Mapping[str, Any]]
) -> MatchResult:
    """Score a match round by round; the first rule a round breaks raises RulesError."""
    seated = _check_seating(players)
    check_players(variant, len(seated))
    values = _card_values(variant)
    totals = {player: 0 for player in seated}
    active = list(seated)
    lost_in: dict[str, int] = {}
    results: list[RoundResult] = []
    finished = False

    for index, raw_round in enumerate(rounds):
        if finished:
            raise RulesError(
                gettext_noop("The match ended in round %(number)s; no round can follow it"),
                {"number": index},
                round=index,
            )
        try:
            outcomes = _read_round(variant, seated, active, lost_in, values, raw_round)
        except RulesError as error:
            error.round = index
            raise

        scores: dict[str, int] = {}
        events: list[tuple[str, str]] = []
        for player, outcome in outcomes.items():
            scores[player] = score = _score(variant, values, outcome)
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

        active = [player for player in active if player not in lost_in]
        if variant.game_end == "first_loser":
            finished = any(kind == "lost" for _, kind in events)
        else:
            finished = len(active) <= 1
        results.append(RoundResult(outcomes, scores, dict(totals), events))

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
