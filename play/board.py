"""What the board shows a seat, typed: built in one place from the engine's view of the game
(`cards101.engine.Game.view`, less what a spectator may not see), so that the template reads
attributes and no other module knows the view's keys."""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from cards101.rules import parse_card
from games.labels import card_name, card_notation
from games.models import Entry
from play import correspondence, spoken

if TYPE_CHECKING:
    from play.models import PlaySeat, PlayTable

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# A move clock at or under this many seconds is marked, so that the person notices it.
LOW_SECONDS = 10
# Lines of the round's log shown open on the board; the rest of the round is one tap away (a
# phone shows the table and the last few moves without scrolling).
LOG_SHOWN = 5


@dataclass(frozen=True)
class Face:
    """A card as the page shows it: its code ("QS"), notation, suit and name for a title."""

    code: str
    label: str
    suit: str
    title: str

    @classmethod
    def of(cls, code: str) -> Face:
        card = parse_card(code)
        return cls(code=code, label=card_notation(card), suit=card.suit, title=card_name(card))


@dataclass(frozen=True)
class Order:
    """A suit a Queen may order: the value posted, the symbol on its button and the suit's
    name, which a screen reader says ("Order hearts")."""

    suit: str
    symbol: str

    @property
    def name(self) -> str:
        return str(spoken.ORDERED_SUITS[self.suit])


@dataclass(frozen=True)
class MoveShown:
    """A move as the pages show it (a review's move played and better move): a card, with the
    suit a Queen orders, or a draw, or a pass; `templates/play/_move.html` draws it."""

    kind: str  # "play", "draw" or "pass"
    face: Face | None
    order: Order | None

    @classmethod
    def of(cls, move: dict[str, Any]) -> MoveShown:
        """From a move as kept (`Move.to_json()`)."""
        card, suit = move.get("card"), move.get("suit")
        return cls(
            kind=move["kind"],
            face=Face.of(card) if card else None,
            order=Order(suit, SUIT_SYMBOLS[suit]) if suit else None,
        )

    def __str__(self) -> str:
        if self.face is None:
            return pgettext("a move", "draw") if self.kind == "draw" else pgettext("a move", "pass")
        if self.order is None:
            return self.face.label
        return f"{self.face.label} → {self.order.symbol}"


@dataclass(frozen=True)
class Line:
    """An event of the round's log: as the page writes it ("Boris plays 7♣") and as a screen
    reader says it ("Boris plays the seven of clubs")."""

    text: str
    spoken: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Choice:
    """A card the seat may be asked about: played as it is (`playable` without `orders`), or
    a Queen played once per suit it may order (a button per suit)."""

    face: Face
    playable: bool
    orders: tuple[Order, ...]


@dataclass(frozen=True)
class SeatView:
    """A seat around the table as every seat sees it."""

    seat: PlaySeat
    me: bool
    cards: int
    # At the end of a round, the totals with that round counted.
    total: int
    # At the end of a round, its points (None for a seat that sat it out) and what the new
    # total did: "reset_to_0", "reset_to_50", "lost" or "" (Entry.Event); none before.
    score: int | None
    event: str
    to_move: bool
    out: bool
    active: bool
    # Every hand is shown at the end of a round; none before.
    hand: tuple[Face, ...]

    @property
    def event_label(self) -> str:
        return str(Entry.Event(self.event).label) if self.event else ""

    @property
    def hand_names(self) -> str:
        """The hand shown at a round's end, card by card by name, for a screen reader."""
        return ", ".join(face.title for face in self.hand)


@dataclass(frozen=True)
class Board:
    """The board of a dealt table, as one seat (or a spectator, `mine` None) sees it."""

    round: int  # 1-based, as people count
    stock: int
    pile: int
    top: Face | None
    ordered: str | None  # the symbol of the suit a Queen ordered
    ordered_name: str | None  # and its name, as a screen reader says it
    round_over: bool
    match_over: bool
    cut: bool
    moves: int
    my_turn: bool
    must_cover: bool
    hand: tuple[Choice, ...]
    # A play of a card not in the hand: the Queen a `dealer_card` opening turned up lies on
    # the pile, and its leader's only moves are that Queen with each suit.
    turned_up: tuple[Choice, ...]
    can_draw: bool
    can_pass: bool
    seats: tuple[SeatView, ...]
    log: tuple[Line, ...]  # every event of the round, the last first
    # The seat is out of this round and only bots and stand-ins are left to play it.
    fast_forward: bool
    # How the page names this board when it asks for the next one (spoken.seen), and what
    # happened since the board it showed before, for its live region (spoken.news).
    seen: str = ""
    news: str = ""

    @property
    def log_latest(self) -> tuple[Line, ...]:
        return self.log[:LOG_SHOWN]

    @property
    def log_earlier(self) -> tuple[Line, ...]:
        return self.log[LOG_SHOWN:]

    @property
    def to_move(self) -> SeatView | None:
        return next((seat for seat in self.seats if seat.to_move), None)


def board(
    view: dict[str, Any],
    seats: Sequence[PlaySeat],
    mine: PlaySeat | None,
    since: tuple[int, int] | None = None,
    stand_ins: Iterable[tuple[int, int, int]] = (),
) -> Board:
    """The board from the engine's view of `mine`'s seat (a spectator's view when None);
    `since`, the board the page showed before (spoken.parse_seen), for what to announce;
    `stand_ins`, the moves of the round the site made for a person (queries.stand_ins), which
    its log says."""
    legal = view.get("legal", [])
    plays: dict[str, list[str]] = {}
    for move in legal:
        if move["kind"] == "play":
            plays.setdefault(move["card"], []).append(move.get("suit"))
    hand_codes = view.get("hand", [])

    def choice(code: str) -> Choice:
        orders = tuple(Order(suit, SUIT_SYMBOLS[suit]) for suit in plays.get(code, []) if suit)
        return Choice(face=Face.of(code), playable=code in plays, orders=orders)

    kinds = {move["kind"] for move in legal}
    totals = view.get("totals_after", view["totals"])
    scores = view.get("scores") or [None] * len(seats)
    events = _events(view)
    names = {seat.position: str(seat) for seat in seats}
    position = mine.position if mine is not None else None
    ordered = view.get("ordered_suit")
    log = view.get("log", [])
    site = spoken.by_site(log, stand_ins)
    return Board(
        round=view["round"] + 1,
        stock=view["stock"],
        pile=view["pile"],
        top=Face.of(view["top"]) if view.get("top") else None,
        ordered=SUIT_SYMBOLS.get(ordered or ""),
        ordered_name=str(spoken.ORDERED_SUITS[ordered]) if ordered else None,
        round_over=view["round_over"],
        match_over=view["match_over"],
        cut=view.get("cut", False),
        moves=view.get("moves", 0),
        my_turn=mine is not None and view["to_move"] == mine.position,
        must_cover=view["must_cover"],
        hand=tuple(choice(code) for code in hand_codes),
        turned_up=tuple(choice(code) for code in plays if code not in hand_codes),
        can_draw="draw" in kinds,
        can_pass="pass" in kinds,
        seats=tuple(
            SeatView(
                seat=seat,
                me=seat == mine,
                cards=view["hand_counts"][seat.position],
                total=totals[seat.position],
                score=scores[seat.position],
                event=events.get(seat.position, ""),
                to_move=view["to_move"] == seat.position and not view["round_over"],
                out=seat.position in view["went_out"],
                active=seat.position in view["active"],
                hand=tuple(Face.of(code) for code in view["hands"][seat.position])
                if "hands" in view
                else (),
            )
            for seat in seats
        ),
        log=tuple(
            Line(
                describe(event, names, index in site),
                spoken.say(event, names, position, index in site),
            )
            for index, event in enumerate(log)
        )[::-1],
        fast_forward=fast_forward_offered(view, seats, mine),
        seen=spoken.seen(view),
        news=spoken.news(view, names, position, since, site),
    )


def fast_forward_offered(
    view: dict[str, Any], seats: Sequence[PlaySeat], mine: PlaySeat | None
) -> bool:
    """Whether `mine` may have the server play the rest of the round at once: its person is out
    of the round (gone out, or out of the match) and nobody left to move in it is a person
    who plays (only bots, and stand-ins for people away or gone), so nobody waits on a turn."""
    if mine is None or view["round_over"] or view["match_over"]:
        return False
    still_in = set(view["active"]) - set(view["went_out"])
    if mine.position in still_in:
        return False
    return all(seat.bot or seat.is_away for seat in seats if seat.position in still_in)


@dataclass(frozen=True)
class Clock:
    """The time the person to move has left when the table has a timer: the seconds as the
    page shows them, and for the script that counts them down the deadline and the server's
    time when it rendered (epoch milliseconds: a phone whose clock is off still counts right)."""

    seconds: int
    deadline_ms: int
    now_ms: int
    # At a correspondence table: the time left in words and the deadline (nothing counts
    # hours and days down on the page).
    left: str = ""
    deadline: datetime.datetime | None = None

    @property
    def low(self) -> bool:
        return self.seconds <= LOW_SECONDS

    @property
    def low_seconds(self) -> int:
        return LOW_SECONDS


def clock(table: PlayTable, shown: Board, now: datetime.datetime) -> Clock | None:
    """The move clock of the person to move, if the table has a timer (none for a bot, or for
    a seat the stand-in plays: the server moves for it soon, whatever the timer)."""
    if not table.move_seconds or table.server_moves_at is None or shown.round_over:
        return None
    to_move = next((p.seat for p in shown.seats if p.to_move), None)
    if to_move is None or to_move.bot or to_move.is_away:
        return None
    left = (table.server_moves_at - now).total_seconds()
    return Clock(
        seconds=max(0, math.ceil(left)),
        deadline_ms=int(table.server_moves_at.timestamp() * 1000),
        now_ms=int(now.timestamp() * 1000),
        left=correspondence.time_left(table.server_moves_at - now)
        if table.by_correspondence
        else "",
        deadline=table.server_moves_at,
    )


def _events(view: dict[str, Any]) -> dict[int, str]:
    """What the round did to each seat's total, at the end of a round: reset to 0 or 50, or
    lost (one at most: a total that was reset is under the limit)."""
    return {position: kind for position, kind in view.get("events", [])}


def describe(event: dict[str, Any], names: dict[int, str], site: bool = False) -> str:
    """One event of the round in words; `site`: the site made it for the seat's person (the
    stand-in)."""
    if site:
        return spoken.made_by_site(describe(event, names))
    name = names.get(event.get("seat"), "")
    match event.get("kind"):
        case "play":
            text = _("%(name)s plays %(card)s") % {
                "name": name,
                "card": card_notation(parse_card(event["card"])),
            }
            if event.get("suit"):
                text += " " + _("and orders %(suit)s") % {"suit": SUIT_SYMBOLS[event["suit"]]}
            return text
        case "draw":
            return _("%(name)s draws %(count)s") % {"name": name, "count": event.get("count", 1)}
        case "pass":
            return _("%(name)s passes") % {"name": name}
        case "skip":
            return _("%(name)s skips a turn") % {"name": name}
        case "out":
            return _("%(name)s goes out") % {"name": name}
        case "restock" | "cut":
            return spoken.of_the_table(event)
        case "opening":
            return _("The first card: %(card)s") % {
                "card": card_notation(parse_card(event["card"]))
            }
        case "order":
            return _("%(name)s orders %(suit)s on the turned-up %(card)s") % {
                "name": name,
                "suit": SUIT_SYMBOLS[event["suit"]],
                "card": card_notation(parse_card(event["card"])),
            }
    return ""
