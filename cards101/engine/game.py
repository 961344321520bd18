"""A game of 101 in play: the deal, turns, special cards, covering, and rounds until the match ends.

docs/rules.md is the spec. Where it is silent, this is our reading (tests/cards101/engine/ checks
each):

- Dealer and leader. The first dealer is drawn at random and the deal rotates clockwise over
  the seats still in the match; cards go one at a time, starting left of the dealer. The
  first round's leader is the seat after that random dealer. Later the leader is the first
  player who went out in the previous round (`previous_winner`; the next seat still in the
  match if that player lost) or the seat after the dealer (`clockwise`).
- `dealer_card`: the leader's last dealt card is turned up from their hand as their first
  play, so they start with one card fewer. A turned Queen waits on the pile while the leader
  orders a suit: the leader's only moves are that Queen with each suit.
- A card that makes the next player draw and skip does it inside `play()`. Skips do not
  stack: an 8 covered with an Ace skips the next player once.
- Eight (`cover_self_skip`): the skip falls when the turn leaves the player who covered,
  together with the covering card's own effect; it still falls if the duty ends with a pass.
- Six (`cover_self_suit`): a Queen covers too; with no card of the 6's suit the player draws
  one card and the turn passes at once (whatever `after_draw` says), the 6 staying on top.
- One draw per turn outside covering. After that draw under `after_draw=may_play` the player
  may play any card that fits or pass; when nothing fits the turn passes by itself (a pass
  would be the only move, and a move is a decision). A `pass` move exists when nothing fits
  and nothing is left to draw, and when a cover duty ends that way.
- Under `last_holder`, a player going out who leaves a single holder ends the round at once,
  and draws still owed are not taken (as under `first_out`); `owed_draws` shows them.
- A hand never ends up empty without going out: whoever plays a card to cover has just put a
  second card on the pile, so there is always something to draw.
- A round that goes nowhere is cut. Cards come back through the restock, and under
  `draw_when_able` players may keep drawing, so a round can in principle go on for ever;
  after MOVE_LIMIT moves (decisions: a play, a draw, a pass) in one round, far more than
  any round that is going somewhere takes, it ends as it stands: whoever went out keeps
  that, everyone still holding cards counts their hand, nobody else goes out (`cut` is set,
  and the log ends with a "cut" event). The next round is led as after any round; under
  `previous_winner` with nobody out, by the seat after the new dealer.
"""

import functools
import math
import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from cards101.engine.moves import (
    DRAW,
    NOT_A_MOVE,
    OWN_CARDS,
    PASS,
    PLAYS,
    PLAYS_ON,
    PLAYS_OWED,
    IllegalMove,
    Move,
)
from cards101.rules import (
    DECK_SIZES,
    RANKS,
    SUITS,
    Card,
    MatchResult,
    Outcome,
    RoundResult,
    RulesError,
    Variant,
    check_players,
    deck,
    gettext_noop,
    must_cover,
    played_round_scorer,
    score_match,
)

# What a seat owes after playing a card it must cover: any card that fits, or its suit.
COVER_ANY = "any"
COVER_SUIT = "suit"
FORMAT = 1  # the version of to_json's shape
# The moves in a round after which it is cut and scored as it stands (see the docstring):
# rounds that go somewhere take a few dozen, rarely a few hundred.
MOVE_LIMIT = 1000

ORDERED = {
    "S": gettext_noop("Play a spade or a Queen: a spade was ordered"),
    "H": gettext_noop("Play a heart or a Queen: a heart was ordered"),
    "D": gettext_noop("Play a diamond or a Queen: a diamond was ordered"),
    "C": gettext_noop("Play a club or a Queen: a club was ordered"),
}
MUST_COVER = gettext_noop("You must cover your %(card)s first")
LEAD_FIRST = gettext_noop("Lead a card: the round has just begun")

type Effect = tuple[bool, int, str | None, bool]
type Event = tuple[Any, ...]


@functools.lru_cache(maxsize=64)
def card_effects(variant: Variant) -> Mapping[int, Effect]:
    """For every card of the deck, by the id() of the engine's own object (see PLAYS_BY_ID):
    (the next player skips, cards they draw first, the cover the player owes, whether the
    next player skips once it is covered)."""
    return {id(card): _effect(variant, card) for card in deck(variant.deck_size)}


@functools.lru_cache(maxsize=64)
def _effects_by_index(variant: Variant) -> tuple[Effect, ...]:
    """`card_effects` by Card.index (a slot read, where id() is a call): what the engine
    looks up at every card played."""
    effects = [(False, 0, None, False)] * len(RANKS) * len(SUITS)
    for card in deck(variant.deck_size):
        effects[card.index] = _effect(variant, card)
    return tuple(effects)


def _effect(variant: Variant, card: Card) -> Effect:
    if must_cover(variant, card):
        if card.rank == "8":
            return (False, 0, COVER_ANY, True)
        return (False, 0, COVER_SUIT if variant.six == "cover_self_suit" else COVER_ANY, False)
    if card.rank == "A":
        return (variant.ace_skips, 0, None, False)
    draw = 0
    if card.rank == "6" and variant.six == "draw_2_skip":
        draw = 2
    elif card.rank == "7":
        draw = variant.seven_of_spades_draw if card.suit == "S" else variant.seven_draw
    elif card.rank == "K" and card.suit == "S":
        draw = variant.king_of_spades_draw
    # A draw of 0 makes the card plain: no skip either.
    return (draw > 0, draw, None, False)


class Game:
    """A match being played: build it with `new`, `from_json` or `from_view`."""

    __slots__ = (
        "_effects",
        "_holding",
        "_lead",
        "_legal",
        "_limit",
        "_log",
        "_moves",
        "_next",
        "_plays",
        "_plays_on",
        "_plays_owed",
        "_result",
        "_rng",
        "_score_round",
        "_seats",
        "_totals_before",
        "active",
        "cover",
        "cut",
        "dealer",
        "drew",
        "hands",
        "leader",
        "opening_queen",
        "ordered_suit",
        "owed_draws",
        "pile",
        "players",
        "round",
        "round_over",
        "skip_pending",
        "stock",
        "to_move",
        "variant",
        "went_out",
    )

    def __init__(self, variant: Variant, players: int, rng: random.Random) -> None:
        # Private: a half-built game; the class methods finish it.
        self.variant = variant
        self.players = players
        self._rng = rng
        self._seats = tuple(range(players))
        self._effects = _effects_by_index(variant)
        self._result: MatchResult[int] = score_match(variant, self._seats, [])
        self._score_round = played_round_scorer(variant)
        self._plays = PLAYS[variant.deck_size]
        self._plays_on = PLAYS_ON[variant.deck_size]
        self._plays_owed = PLAYS_OWED[variant.deck_size]
        self._legal: list[Move] | None = None
        self._limit = MOVE_LIMIT
        self._moves = 0
        self.cut = False

    # --- building -------------------------------------------------------------------------

    @classmethod
    def new(cls, variant: Variant, players: int = 2, seed: int | str = 0) -> Self:
        """A match dealt and opened; 2–4 players (else ValueError), shuffled from `seed`."""
        if not isinstance(variant, Variant):
            raise RulesError(
                gettext_noop("A game is played under a Variant, not %(value)s"),
                {"value": type(variant).__name__},
            )
        check_players(variant, players)
        if not isinstance(seed, int | str):
            raise ValueError(f"a seed is a number or text, not {type(seed).__name__}")
        game = cls(variant, players, random.Random(seed))
        dealer = game._rng.randrange(players)
        game._start_round(dealer, game._next_in(dealer, game._seats))
        return game

    def _start_round(self, dealer: int, leader: int) -> None:
        active = self._result.active
        n = self.players
        self.active = active
        self.dealer = dealer
        self.leader = leader
        self.round = len(self._result.rounds)
        self._totals_before = [self._result.totals[seat] for seat in self._seats]
        cards = list(deck(self.variant.deck_size))
        _shuffle(self._rng, cards)
        hands: list[list[Card]] = [[] for _ in self._seats]
        # One card at a time from the top (the end of the list), from the dealer's left
        # round to the dealer: the k-th seat in that order gets the k-th card from the top,
        # then every len(order)-th card after it.
        order = [(dealer + step) % n for step in range(1, n + 1)]
        order = [seat for seat in order if seat in active]
        dealt = self.variant.hand_size * len(order)
        from_top = cards[: -dealt - 1 : -1]
        for k, seat in enumerate(order):
            hands[seat] = from_top[k :: len(order)]
        del cards[-dealt:]
        self.hands = hands
        self.stock = cards  # the end of the list is the top: the next card drawn
        self.pile: list[Card] = []
        self._set_holding([seat in active for seat in self._seats])
        self.ordered_suit: str | None = None
        self.cover: str | None = None
        self.skip_pending = False
        self.drew = False
        self.opening_queen = False
        self._lead: Card | None = None
        self.went_out: list[tuple[int, Card]] = []
        self.owed_draws = 0
        self.round_over = False
        self.cut = False
        self._moves = 0
        self._log: list[Event] = []
        self._legal = None
        self.to_move: int | None = leader
        opening = self.variant.opening
        if opening == "dealer_card":
            card = hands[leader].pop()
            self.pile.append(card)
            self._log.append(("opening", leader, card))
            if card.is_queen:
                self.opening_queen = True
            else:
                self._take_effect(leader, card)
        elif opening == "last_dealt":
            self._lead = hands[leader][-1]

    # --- the public state -----------------------------------------------------------------

    @property
    def result(self) -> MatchResult[int]:
        """`score_match` over every finished round, the current one included once it ends."""
        return self._result

    @property
    def match_over(self) -> bool:
        return self._result.finished

    @property
    def round_outcomes(self) -> dict[int, dict[str, str]] | None:
        """The finished round as `score_match` takes it (seat -> {"out": code} or
        {"hand": codes}); None while the round is being played."""
        if not self.round_over:
            return None
        return {
            seat: outcome.as_dict() for seat, outcome in self._result.rounds[-1].outcomes.items()
        }

    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make; [] once the round is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[:]

    def cards_in_play(self) -> dict[str, list[Card]]:
        """Where every card is: hands in seat order, the stock in drawing order, the pile
        from the bottom up. Together they are always exactly the deck."""
        return {
            "hands": [list(hand) for hand in self.hands],
            "stock": self.stock[::-1],
            "pile": list(self.pile),
        }

    # --- moves ----------------------------------------------------------------------------

    def play(self, move: Move, seat: int | None = None) -> None:
        """Make `move` for the seat to move (checked against `seat` when given); a move the
        rules do not allow raises IllegalMove and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        # A move taken from legal_moves() is found by identity (comparing moves field by
        # field costs more than the rest of a turn); any other is looked up by value and
        # replaced by the engine's own, whose card is the engine's own card.
        for own in legal:
            if own is move:
                break
        else:
            if move not in legal:
                raise self._refusal(move, seat)
            move = legal[legal.index(move)]
        if seat is not None and seat != self.to_move:
            raise self._refusal(move, seat)
        moves = self._moves + 1
        if moves >= self._limit:
            self._play_last(move, moves)
            return
        self._moves = moves
        self._legal = None
        me: int = self.to_move  # type: ignore[assignment]
        kind = move.kind
        if kind == "play":
            if self.opening_queen:
                self._order_opening(me, move)
                return
            # Inline, as the rest of a turn: a call costs as much as a few lines of it.
            card: Card = move.card  # type: ignore[assignment]
            hand = self.hands[me]
            # By identity: list.remove would compare the cards before it one by one (and
            # a count is cheaper than enumerate's tuples).
            index = 0
            for held in hand:
                if held is card:
                    del hand[index]
                    break
                index += 1  # noqa: SIM113 - cheaper than enumerate here
            self.pile.append(card)
            self.ordered_suit = suit = move.suit
            self._lead = None
            self.drew = False
            self._log.append(("play", me, card, suit))
            # _take_effect(me, card), inline (the seat to move is `me` already).
            skip, draw, cover, skips_once_covered = self._effects[card.index]
            if cover is not None:
                self.cover = cover
                if skips_once_covered:
                    self.skip_pending = True
                return
            self.cover = None
            if not hand:
                self._go_out(me, card)
                if self.round_over:
                    self.owed_draws = draw
                    return
            if skip or self.skip_pending:
                self._pass_turn(me, skip, draw)
            else:
                self.to_move = self._next[me]
        elif kind == "draw":
            self._draw(me)
        else:
            self._log.append(("pass", me))
            self._pass_turn(me, False, 0)

    def _play_last(self, move: Move, moves: int) -> None:
        """The move that reaches the limit of moves in a round: made, then the round is
        cut if it goes on."""
        self._limit = math.inf  # so that play() makes this move as any other
        try:
            self.play(move)
        finally:
            self._limit = MOVE_LIMIT
        self._moves = moves
        if not self.round_over:
            self.cut_round()

    def cut_round(self) -> None:
        """End the round now as the move limit ends it: scored as it stands (`cut` is set,
        the log ends with a "cut" event). For a bot that stops a simulated round early;
        refused (IllegalMove) once the round is over."""
        if self.round_over:
            raise IllegalMove(gettext_noop("The round is over: deal the next one"))
        self._log.append(("cut", self._moves))
        self.cut = True
        self._end_round()

    def next_round(self) -> None:
        """Deal the next round; refused (IllegalMove) mid-round and after the match."""
        if not self.round_over:
            raise IllegalMove(gettext_noop("The round is still being played"))
        if self.match_over:
            raise IllegalMove(gettext_noop("The match is over: no round follows it"))
        active = self._result.active
        dealer = self._next_in(self.dealer, active)
        if self.variant.leader == "previous_winner" and self.went_out:
            winner = self.went_out[0][0]
            leader = winner if winner in active else self._next_in(winner, active)
        else:
            leader = self._next_in(dealer, active)
        self._start_round(dealer, leader)

    def _compute_legal(self) -> list[Move]:
        if self.round_over:
            return []
        pile = self.pile
        if self.opening_queen:
            return list(self._plays[pile[-1].index])
        hand = self.hands[self.to_move]  # type: ignore[index]
        if not pile:
            leads = hand if self._lead is None else (self._lead,)
            return [move for card in leads for move in self._plays[card.index]]
        cover = self.cover
        if cover == COVER_SUIT:
            fits = self._plays_owed[pile[-1].suit]
        elif self.ordered_suit is not None:
            fits = self._plays_owed[self.ordered_suit]
        else:
            fits = self._plays_on[pile[-1].index]
        # The plays of each card that fits, in the hand's order; () for one that does not.
        # (A loop of += is cheaper here than a comprehension with a nested for.)
        moves: list[Move] = []
        for card in hand:
            moves += fits[card.index]
        if self.drew:
            moves.append(PASS)
            return moves
        if moves:
            # Covering comes first: whoever can cover may not draw instead.
            if cover is None and self.variant.draw_when_able and (self.stock or len(pile) > 1):
                moves.append(DRAW)
            return moves
        return [DRAW if self.stock or len(pile) > 1 else PASS]

    def _order_opening(self, me: int, move: Move) -> None:
        self.opening_queen = False
        self.ordered_suit = move.suit
        self._log.append(("order", me, move.card, move.suit))
        self._pass_turn(me, False, 0)

    def _take_effect(self, me: int, card: Card) -> None:
        """What a card just played (or turned up) does; the turn passes unless it must be
        covered."""
        skip, draw, cover, skips_once_covered = self._effects[card.index]
        if cover is not None:
            self.cover = cover
            if skips_once_covered:
                self.skip_pending = True
            self.to_move = me
            return
        self.cover = None
        if not self.hands[me]:
            self._go_out(me, card)
            if self.round_over:
                self.owed_draws = draw
                return
        if skip or self.skip_pending:
            self._pass_turn(me, skip, draw)
        else:  # _pass_turn's plain case, inline
            self.drew = False
            self.to_move = self._next[me]

    def _draw(self, me: int) -> None:
        stock = self.stock
        if stock:  # _draw_cards(me, 1) when no restock is needed, inline
            card = stock.pop()
            self.hands[me].append(card)
            self._log.append(("draw", me, 1, (card,)))
        else:
            self._draw_cards(me, 1)
        cover = self.cover
        if cover == COVER_ANY:
            return  # draw until a card covers
        if cover == COVER_SUIT or self.variant.after_draw == "pass":
            self._log.append(("pass", me))
            if self.skip_pending:
                self._pass_turn(me, False, 0)
            else:  # _pass_turn's plain case, inline: a draw is every other move or so
                self.cover = None
                self.drew = False
                self.to_move = self._next[me]
            return
        self.drew = True
        if self.variant.draw_when_able:
            legal = self._compute_legal()
        else:
            # _compute_legal(), knowing that nothing fitted before the draw (else it was not
            # allowed) and that nothing is owed: only the card drawn (the hand's last) can.
            suit = self.ordered_suit
            fits = (
                self._plays_owed[suit] if suit is not None else self._plays_on[self.pile[-1].index]
            )
            legal = [*fits[self.hands[me][-1].index], PASS]
        if len(legal) == 1:  # only the pass: nothing fits, so the turn passes by itself
            self._log.append(("pass", me))
            self._pass_turn(me, False, 0)
        else:
            self._legal = legal

    def _pass_turn(self, me: int, skip: bool, draw: int) -> None:
        """The turn leaves `me`; a skip (the card's own or an 8's) passes over the next
        player once, after they draw what they owe."""
        after = self._next[me]
        if skip or self.skip_pending:
            self.skip_pending = False
            if draw:
                self._draw_cards(after, draw)
            self._log.append(("skip", after))
            after = self._next[after]
        self.cover = None
        self.drew = False
        self.to_move = after

    def _draw_cards(self, seat: int, count: int) -> None:
        """Up to `count` cards from the stock, restocking when it runs out; a draw that
        nothing is left for is not made."""
        hand = self.hands[seat]
        taken: list[Card] = []
        while count:
            stock = self.stock
            if not stock:
                if taken:
                    self._log.append(("draw", seat, len(taken), tuple(taken)))
                    taken = []
                if not self._restock():
                    break
                stock = self.stock
            card = stock.pop()
            hand.append(card)
            taken.append(card)
            count -= 1
        if taken:
            self._log.append(("draw", seat, len(taken), tuple(taken)))

    def _restock(self) -> bool:
        pile = self.pile
        if len(pile) < 2:
            return False
        top = pile.pop()
        if self.variant.restock == "shuffle":
            _shuffle(self._rng, pile)
        else:
            # Turned face down: the first card played in the pile is the first drawn.
            pile.reverse()
        self.stock = pile
        self.pile = [top]
        self._log.append(("restock", len(pile)))
        return True

    def _go_out(self, me: int, card: Card) -> None:
        self._holding[me] = False
        self._set_holding(self._holding)
        self.went_out.append((me, card))
        self._log.append(("out", me, card))
        if self.variant.round_end == "first_out" or sum(self._holding) <= 1:
            self._end_round()

    def _end_round(self) -> None:
        self.round_over = True
        self.to_move = None
        self.cover = None
        self.drew = False
        self.skip_pending = False
        out = dict(self.went_out)
        outcomes: dict[int, Outcome] = {}
        for seat in self.active:
            if seat in out:
                outcomes[seat] = Outcome("out", out[seat])
            else:
                outcomes[seat] = Outcome("hand", _in_deck_order(self.hands[seat]))
        # score_match(variant, seats, [outcomes], since=result), without the checks that an
        # engine's own round cannot fail: the same as scoring every round again.
        self._result = self._score_round(self._result, outcomes, self.cut)

    def _set_holding(self, holding: list[bool]) -> None:
        """Who still holds cards this round, and so who plays after whom: the turn passes
        at every move, players go out a few times a round."""
        self._holding = holding
        n = self.players
        following = []
        for seat in self._seats:
            after = (seat + 1) % n
            while not holding[after] and after != seat:
                after = (after + 1) % n
            following.append(after)
        self._next = following

    def _next_in(self, seat: int, seats: Sequence[int]) -> int:
        """The next seat clockwise after `seat` that is in `seats`."""
        for step in range(1, self.players + 1):
            following = (seat + step) % self.players
            if following in seats:
                return following
        raise AssertionError("no seat is left")  # pragma: no cover - a match has players

    # --- why a move is refused ------------------------------------------------------------

    def _covers(self) -> bool:
        return any(move.kind == "play" for move in self._legal or ())

    def _refusal(self, move: Any, seat: int | None) -> IllegalMove:
        if self.round_over:
            if self.match_over:
                return IllegalMove(gettext_noop("The match is over"))
            return IllegalMove(gettext_noop("The round is over: deal the next one"))
        if seat is not None and seat != self.to_move:
            return IllegalMove(gettext_noop("It is %(player)s's turn"), {"player": self.to_move})
        if not isinstance(move, Move):
            return IllegalMove(NOT_A_MOVE, {"value": repr(move)})
        top = self.pile[-1] if self.pile else None
        if self.opening_queen:
            return IllegalMove(
                gettext_noop("Order a suit with the turned-up %(card)s first"), {"card": top}
            )
        if move.kind == "play":
            return self._refused_play(move, top)
        if self.cover is not None and self._covers():
            return IllegalMove(MUST_COVER, {"card": top})
        if top is None:
            return IllegalMove(LEAD_FIRST)
        if move.kind == "draw":
            if self.drew:
                return IllegalMove(gettext_noop("You have drawn already: play a card or pass"))
            if not self.stock and len(self.pile) < 2:
                return IllegalMove(gettext_noop("There is nothing left to draw: pass"))
            return IllegalMove(
                gettext_noop(
                    "A card of yours fits: play it (at this table you may not draw instead)"
                )
            )
        if self.cover is not None:
            return IllegalMove(
                gettext_noop("Draw until you can cover your %(card)s"), {"card": top}
            )
        if self._covers():
            return IllegalMove(gettext_noop("A card of yours fits: play it or draw"))
        return IllegalMove(gettext_noop("Draw a card first: you may pass when nothing fits"))

    def _refused_play(self, move: Move, top: Card | None) -> IllegalMove:
        card: Card = move.card  # type: ignore[assignment]
        if card not in self.hands[self.to_move]:  # type: ignore[index]
            return IllegalMove(gettext_noop("%(card)s is not in your hand"), {"card": card})
        if card.is_queen and move.suit is None:
            return IllegalMove(gettext_noop("Choose the suit that %(card)s orders"), {"card": card})
        if not card.is_queen and move.suit is not None:
            return IllegalMove(gettext_noop("Only a Queen orders a suit"))
        if self._lead is not None:
            return IllegalMove(
                gettext_noop("Lead %(card)s: the first card is the last one dealt to you"),
                {"card": self._lead},
            )
        if self.cover == COVER_SUIT:
            return IllegalMove(
                gettext_noop("Cover your %(card)s with a card of its suit or a Queen"),
                {"card": top},
            )
        if self.ordered_suit is not None:
            return IllegalMove(ORDERED[self.ordered_suit])
        if self.cover == COVER_ANY:
            return IllegalMove(
                gettext_noop("Cover your %(card)s with a card of its suit or rank, or a Queen"),
                {"card": top},
            )
        return IllegalMove(
            gettext_noop(
                "%(card)s does not go on %(top)s: play a card of its suit or rank, or a Queen"
            ),
            {"card": card, "top": top},
        )

    # --- what a seat sees -----------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """What `seat` may see and nothing more, ready for JSON, cards as codes ("QS").

        The agreed keys (seat, players, to_move, round, dealer, leader, hand,
        hand_counts, stock, pile, top, ordered_suit, must_cover, owed_draws, went_out,
        active, totals, round_over, match_over, log, legal; at round end hands and
        scores), and what else is public and a simulating bot needs (`from_view`):
        variant (its options), past_rounds (each finished round before this one, an
        outcome or None per seat), pile_cards (bottom to top: every one was played face
        up), cover (what the seat to move owes: "any" card that fits, its "suit", or
        None), skip_next (an 8 skips the next player when the turn passes), drew (the seat
        to move has drawn this turn) and opening_queen (the turned-up Queen awaits its
        order); at round end also totals_after, events ([seat, "reset_to_0" | "reset_to_50"
        | "lost"]) and, once the match is over, standings. Scores are per seat, None for a
        seat that sat the round out. The stock is a count: never its cards or their order.
        Also moves (made in this round, toward MOVE_LIMIT), cut (the round was cut at the
        limit) and cut_rounds (the indices of past rounds that were).

        The log holds this round's events in order: {"seat", "kind": "play", "card",
        "suit"}, {"seat", "kind": "draw", "count", "cards" (only in the view of the seat
        that drew)}, {"seat", "kind": "pass"}, {"seat", "kind": "skip"}, {"seat", "kind":
        "out", "card"}, {"kind": "restock", "count"} (between the two parts of a draw that
        ran out of stock), {"seat", "kind": "opening", "card"} (a `dealer_card` turned up),
        {"seat", "kind": "order", "card", "suit"} (the suit a turned-up Queen orders) and
        {"kind": "cut", "count"} (the round cut after `count` moves, the last event).
        """
        if type(seat) is not int or not 0 <= seat < self.players:
            raise ValueError(f"There is no seat {seat!r} at a table of {self.players}")
        over = self.round_over
        result = self._result
        top = self.pile[-1] if self.pile else None
        view: dict[str, Any] = {
            "seat": seat,
            "players": self.players,
            "to_move": self.to_move,
            "round": self.round,
            "dealer": self.dealer,
            "leader": self.leader,
            "hand": _codes(sorted(self.hands[seat])),
            "hand_counts": [len(hand) for hand in self.hands],
            "stock": len(self.stock),
            "pile": len(self.pile),
            "top": top.code if top is not None else None,
            "ordered_suit": self.ordered_suit,
            "must_cover": self.cover is not None and seat == self.to_move,
            "owed_draws": self.owed_draws,
            "went_out": [out for out, _ in self.went_out],
            "active": list(result.active if over else self.active),
            "totals": list(self._totals_before),
            "round_over": over,
            "match_over": result.finished,
            "log": [_event_json(event, seat) for event in self._log],
            "legal": [move.to_json() for move in self.legal_moves()]
            if seat == self.to_move
            else [],
            "variant": self.variant.as_dict(),
            "past_rounds": [self._outcome_list(done) for done in result.rounds[: self.round]],
            "pile_cards": _codes(self.pile),
            "cover": self.cover,
            "skip_next": self.skip_pending,
            "drew": self.drew,
            "opening_queen": self.opening_queen,
            "moves": self._moves,
            "cut": self.cut,
            "cut_rounds": self._cut_rounds(self.round),
        }
        if over:
            last = result.rounds[-1]
            view["hands"] = [_codes(sorted(hand)) for hand in self.hands]
            view["scores"] = [last.scores.get(player) for player in self._seats]
            view["totals_after"] = [result.totals[player] for player in self._seats]
            view["events"] = [[player, kind] for player, kind in last.events]
            if result.finished:
                view["standings"] = result.standings
        return view

    def _cut_rounds(self, count: int) -> list[int]:
        """The indices of the first `count` finished rounds that were cut."""
        return [index for index, done in enumerate(self._result.rounds[:count]) if done.cut]

    def _outcome_list(self, scored: RoundResult[int]) -> list[dict[str, str | int] | None]:
        """A scored round as JSON: each seat's outcome as score_match takes it, or None."""
        outcomes = scored.outcomes
        return [outcomes[seat].as_dict() if seat in outcomes else None for seat in self._seats]

    # --- saving and restoring -------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Everything, random state included, as plain JSON: `from_json` continues it
        exactly. It holds every hidden card: never send it to a player."""
        version, internal, gauss = self._rng.getstate()
        return {
            "format": FORMAT,
            "variant": self.variant.as_dict(),
            "players": self.players,
            "random": [version, list(internal), gauss],
            "rounds": [self._outcome_list(done) for done in self._result.rounds],
            "cut_rounds": self._cut_rounds(len(self._result.rounds)),
            "moves": self._moves,
            "round": self.round,
            "dealer": self.dealer,
            "leader": self.leader,
            "active": list(self.active),
            "hands": [_codes(hand) for hand in self.hands],
            "stock": _codes(self.stock[::-1]),
            "pile": _codes(self.pile),
            "to_move": self.to_move,
            "ordered_suit": self.ordered_suit,
            "cover": self.cover,
            "skip_pending": self.skip_pending,
            "drew": self.drew,
            "opening_queen": self.opening_queen,
            "lead": self._lead.code if self._lead is not None else None,
            "went_out": [[out, card.code] for out, card in self.went_out],
            "owed_draws": self.owed_draws,
            "round_over": self.round_over,
            "log": [_event_json(event, None) for event in self._log],
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """The game saved by `to_json`; anything else raises ValueError."""
        try:
            return cls._load(data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise ValueError(f"This is not a saved game: {error}") from None

    @classmethod
    def _load(cls, data: Mapping[str, Any]) -> Self:
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ValueError("unknown format")
        variant = Variant.from_dict(data["variant"])
        players = data["players"]
        check_players(variant, players)
        version, internal, gauss = data["random"]
        rng = random.Random()
        rng.setstate((version, tuple(internal), gauss))
        game = cls(variant, players, rng)
        # Saved before rounds could be cut: none was.
        game._set_rounds(data["rounds"], data["round_over"], data.get("cut_rounds", []))
        game._moves = _count(data.get("moves", 0))
        game.dealer = _seat(data["dealer"], players)
        game.leader = _seat(data["leader"], players)
        game.active = tuple(_seat(seat, players) for seat in data["active"])
        own = OWN_CARDS[variant.deck_size]
        game.hands = [[own[card] for card in _cards(hand)] for hand in data["hands"]]
        game.stock = [own[card] for card in _cards(data["stock"])[::-1]]
        game.pile = [own[card] for card in _cards(data["pile"])]
        game.went_out = [
            (_seat(seat, players), own[_card(code)]) for seat, code in data["went_out"]
        ]
        lead = data["lead"]
        game._lead = own[_card(lead)] if lead is not None else None
        game._set_turn(data, skip_pending=data["skip_pending"])
        game._log = [_event_from_json(event) for event in data["log"]]
        game._check_cards()
        return game

    @classmethod
    def from_view(
        cls,
        view: Mapping[str, Any],
        hands: Sequence[Sequence[Card]],
        stock: Sequence[Card],
        seed: int | str = 0,
    ) -> Self:
        """A whole game as `view`'s seat sees it, the cards it cannot see filled in by the
        caller (a determinization, for a bot that simulates): `hands` has every seat's
        cards (the viewer's own must be its hand, a seat out of the round has none; under
        `last_dealt` the last card of the leader's hand is the one they must lead), `stock`
        the cards left to draw, the first to be drawn first. Later shuffles and deals come
        from `seed`. The cards must be exactly the deck less the pile, in the counts the
        view shows; anything else raises ValueError."""
        if view["round_over"]:
            raise ValueError("The round is over: there is nothing left to play in it")
        variant = Variant.from_dict(view["variant"])
        players = view["players"]
        game = cls(variant, players, random.Random(seed))
        game._set_rounds(view["past_rounds"], False, view.get("cut_rounds", []))
        game._moves = _count(view.get("moves", 0))
        game.dealer, game.leader = view["dealer"], view["leader"]
        game.active = tuple(view["active"])
        own = OWN_CARDS[variant.deck_size]
        try:
            game.hands = [[own[card] for card in hand] for hand in hands]
            game.stock = [own[card] for card in reversed(stock)]
        except (KeyError, TypeError):
            raise ValueError("The hands and the stock are lists of cards") from None
        game.pile = [own[card] for card in _cards(view["pile_cards"])]
        game._log = [_event_from_json(event) for event in view["log"]]
        game.went_out = [(event[1], own[event[2]]) for event in game._log if event[0] == "out"]
        game._lead = None
        if not game.pile and variant.opening == "last_dealt":
            if view["seat"] == view["leader"]:
                game._lead = own[_card(view["legal"][0]["card"])]
            else:
                game._lead = game.hands[view["leader"]][-1]
        game._set_turn(view, skip_pending=view["skip_next"])
        seat = view["seat"]
        if len(hands) != players or [len(hand) for hand in hands] != view["hand_counts"]:
            raise ValueError("The hands do not have the sizes the view shows")
        if sorted(game.hands[seat]) != _cards(view["hand"]):
            raise ValueError(f"Seat {seat}'s hand is not the hand of the view")
        if len(stock) != view["stock"]:
            raise ValueError("The stock does not have the size the view shows")
        game._check_cards()
        return game

    def copy(self) -> Self:
        """An independent copy, random state included: it plays on exactly as this game
        would, and neither changes the other. For a bot that tries several moves in one
        deal: far cheaper than `from_view` (which reads the whole log again) or `to_json`."""
        other = object.__new__(type(self))
        for name in _SHARED_SLOTS:
            setattr(other, name, getattr(self, name))
        other.hands = [list(hand) for hand in self.hands]
        other.stock = list(self.stock)
        other.pile = list(self.pile)
        other.went_out = list(self.went_out)
        other._log = list(self._log)  # its events are tuples: shared
        other._holding = list(self._holding)
        other._next = list(self._next)
        other._totals_before = list(self._totals_before)
        other._legal = None if self._legal is None else list(self._legal)
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        other._rng = rng
        return other

    def _set_rounds(
        self, rounds: Sequence[Sequence[Any]], round_over: bool, cut: Sequence[int]
    ) -> None:
        outcomes = [
            {seat: outcome for seat, outcome in enumerate(done) if outcome is not None}
            for done in rounds
        ]
        if any(type(index) is not int for index in cut):
            raise ValueError("cut rounds are given by their indices")
        self._result = result = score_match(self.variant, self._seats, outcomes, cut=cut)
        self.cut = round_over and bool(result.rounds) and result.rounds[-1].cut
        self.round = len(outcomes) - 1 if round_over else len(outcomes)
        if not round_over:
            self._totals_before = [result.totals[seat] for seat in self._seats]
        elif len(result.rounds) > 1:
            self._totals_before = [result.rounds[-2].totals[seat] for seat in self._seats]
        else:
            self._totals_before = [0] * self.players

    def _set_turn(self, data: Mapping[str, Any], *, skip_pending: bool) -> None:
        """Whose turn it is and what they owe, from a saved game or a view."""
        self.round_over = data["round_over"] is True
        self.to_move = None if self.round_over else _seat(data["to_move"], self.players)
        suit = data["ordered_suit"]
        if suit is not None and suit not in SUITS:
            raise ValueError(f"{suit!r} is not a suit")
        self.ordered_suit = suit
        if data["cover"] not in (None, COVER_ANY, COVER_SUIT):
            raise ValueError(f"{data['cover']!r} is not a cover")
        self.cover = data["cover"]
        self.skip_pending = skip_pending is True
        self.drew = data["drew"] is True
        self.opening_queen = data["opening_queen"] is True
        self.owed_draws = int(data["owed_draws"])
        out = {seat for seat, _ in self.went_out}
        self._set_holding([seat in self.active and seat not in out for seat in self._seats])
        if self.to_move is not None and not self._holding[self.to_move]:
            raise ValueError(f"seat {self.to_move} is to move but holds no cards in this round")
        self._legal = None

    def _check_cards(self) -> None:
        cards = [card for hand in self.hands for card in hand] + self.stock + self.pile
        if len(self.hands) != self.players or sorted(cards) != list(deck(self.variant.deck_size)):
            raise ValueError("The cards in play are not exactly the deck")


# What `Game.copy` may share between the copies: values never changed in place (numbers,
# tuples, the variant, the scored match, tables); every other slot is copied there.
_COPIED_SLOTS = frozenset(
    {"hands", "stock", "pile", "went_out", "_log", "_holding", "_next", "_totals_before"}
    | {"_legal", "_rng"}
)
_SHARED_SLOTS = tuple(name for name in Game.__slots__ if name not in _COPIED_SLOTS)

_FACTORIALS = [math.factorial(n) for n in range(max(DECK_SIZES) + 1)]


def _shuffle(rng: random.Random, cards: list[Card]) -> None:
    """Shuffle `cards` in place, every order equally likely, from `rng` alone (so a seed
    and a saved random state give the same shuffle): one random number below n! read as
    the swaps of a Fisher-Yates shuffle, a single draw from `rng` where random.shuffle
    makes one per card, in Python."""
    n = len(cards)
    code = rng.randrange(_FACTORIALS[n])
    for i in range(n - 1, 0, -1):
        code, j = divmod(code, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def _in_deck_order(cards: list[Card]) -> tuple[Card, ...]:
    """Cards sorted in deck order, by Card.index: faster than comparing Cards, or than a
    key function written in Python."""
    return tuple(sorted(cards, key=_INDEX))


_INDEX = operator.attrgetter("index")


def _card(code: Any) -> Card:
    return Card.from_code(code)


def _codes(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]


def _cards(codes: Sequence[str]) -> list[Card]:
    if isinstance(codes, str):
        raise ValueError("cards are a list of codes")
    return [_card(code) for code in codes]


def _count(value: Any) -> int:
    if type(value) is not int or not 0 <= value <= MOVE_LIMIT:
        raise ValueError(f"{value!r} is not a number of moves")
    return value


def _seat(value: Any, players: int) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise ValueError(f"{value!r} is not a seat")
    return value


def _event_json(event: Event, seat: int | None) -> dict[str, Any]:
    """A log entry as JSON; the cards of a draw only for the seat that drew them (all of
    them when `seat` is None, for saving)."""
    kind = event[0]
    if kind in ("play", "order"):
        return {"seat": event[1], "kind": kind, "card": event[2].code, "suit": event[3]}
    if kind == "draw":
        data = {"seat": event[1], "kind": kind, "count": event[2]}
        if event[3] is not None and (seat is None or seat == event[1]):
            data["cards"] = _codes(event[3])
        return data
    if kind in ("out", "opening"):
        return {"seat": event[1], "kind": kind, "card": event[2].code}
    if kind in ("restock", "cut"):
        return {"kind": kind, "count": event[1]}
    return {"seat": event[1], "kind": kind}


def _event_from_json(data: Mapping[str, Any]) -> Event:
    kind = data["kind"]
    if kind in ("play", "order"):
        return (kind, data["seat"], _card(data["card"]), data["suit"])
    if kind == "draw":
        cards = data.get("cards")
        return (kind, data["seat"], data["count"], None if cards is None else tuple(_cards(cards)))
    if kind in ("out", "opening"):
        return (kind, data["seat"], _card(data["card"]))
    if kind in ("restock", "cut"):
        return (kind, data["count"])
    if kind in ("pass", "skip"):
        return (kind, data["seat"])
    raise ValueError(f"{kind!r} is not an event")
