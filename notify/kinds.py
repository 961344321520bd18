"""The catalogue of what notify tells: one class per notification, in one place, each with

- its `kind` (the switch a person turns on or off per channel; the defaults per kind are
  `DEFAULTS` below),
- its typed payload (its fields: what is kept in `Notification.payload`, tagged by `what`),
- its event key (`KEY`: its name and the fields that make one event one; `key()`, `prefix()`
  and `key_in_sql()` are all built from it, so the key's format is written once),
- its words (`message()`: the title, the text and the page it links to, in the active
  language; each channel lays them out, an e-mail's subject and body, Telegram's bold title).

A sealed family (lichess's notification classes; Tabbycat's table of generators): `read()`
turns a stored notification back into its class, and a payload of no class known is the test
message's words, never an error."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import ClassVar

import msgspec
from django.db.models import CharField, OuterRef, Value
from django.db.models.functions import Cast, Concat
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from cards101.rules import parse_card
from games.labels import started
from notify.models import Channel, Kind
from play.spoken import ORDERED_SUITS, card_in_a_sentence


@dataclass(frozen=True)
class Message:
    title: str
    text: str
    path: str


class Told(msgspec.Struct, frozen=True, tag_field="what", kw_only=True):
    """What one notification tells (its fields are its payload)."""

    kind: ClassVar[str]
    # The event key: its name, then the fields (attributes) that tell one event from another.
    KEY: ClassVar[tuple[str, ...]]

    path: str = ""

    def key(self) -> str:
        return ":".join([self.KEY[0], *(str(getattr(self, name)) for name in self.KEY[1:])])

    @classmethod
    def prefix(cls, *values: object) -> str:
        """The start of the keys of this class's events whose first fields are `values` (all
        of them: the key itself)."""
        start = ":".join([cls.KEY[0], *map(str, values)])
        return start if len(values) == len(cls.KEY) - 1 else start + ":"

    @classmethod
    def key_in_sql(cls, **fields: str) -> Concat | Value:
        """The key as a database expression, each field read from the outer query's column
        `fields[name]` (for "told already?" subqueries)."""
        parts: list = [Value(cls.KEY[0])]
        for name in cls.KEY[1:]:
            parts += [Value(":"), Cast(OuterRef(fields[name]), CharField())]
        return Concat(*parts, output_field=CharField()) if len(parts) > 1 else parts[0]

    @classmethod
    def fields_of(cls, key: str) -> dict[str, str]:
        """The key's fields by name (as text), or {} for another class's key."""
        name, *values = key.split(":")
        if name != cls.KEY[0] or len(values) != len(cls.KEY) - 1:
            return {}
        return dict(zip(cls.KEY[1:], values, strict=True))

    def payload(self) -> dict:
        return msgspec.to_builtins(self)

    def link(self) -> str:
        return self.path or reverse("notify:settings")

    def message(self) -> Message:
        raise NotImplementedError


def _table_name(name: str, started_at: str | None) -> str:
    if name:
        return name
    if started_at:
        return _("Table of %(started)s") % {
            "started": started(datetime.datetime.fromisoformat(started_at))
        }
    return _("New table")


# --- your move --------------------------------------------------------------------------------


class YourMove(Told, frozen=True, kw_only=True, tag="move"):
    """A move waits for someone who is not looking at a live table."""

    kind: ClassVar[str] = Kind.YOUR_MOVE
    KEY: ClassVar[tuple[str, ...]] = ("move", "table_id", "moves_made")

    table_id: int = msgspec.field(name="table")
    moves_made: int = 0
    name: str = ""
    started: str | None = None

    def message(self) -> Message:
        table = _table_name(self.name, self.started)
        return Message(
            _("Your move: %(table)s") % {"table": table},
            _("The others at %(table)s wait for your move: open the table to play.")
            % {"table": table},
            self.link(),
        )


# --- your table --------------------------------------------------------------------------------


class Seated(Told, frozen=True, kw_only=True, tag="seated"):
    """A tournament's round is seated: the person's table, seat and the others at it."""

    kind: ClassVar[str] = Kind.YOUR_TABLE
    KEY: ClassVar[tuple[str, ...]] = ("seated", "round_id", "match_id", "position")

    round_id: int = 0
    match_id: int = 0
    position: int = 0
    tournament: str
    round: int
    final: bool = False
    table: int
    seat: int
    # They sat down together: each may read the others' names (games.audience).
    others: list[str] = []

    def message(self) -> Message:
        words = {
            "tournament": self.tournament,
            "round": self.round,
            "table": self.table,
            "seat": self.seat,
            "others": ", ".join(self.others) or "—",
        }
        if self.final:
            title = _("%(tournament)s, the final: table %(table)s") % words
        else:
            title = _("%(tournament)s, round %(round)s: table %(table)s") % words
        return Message(
            title,
            _(
                "You play at table %(table)s, seat %(seat)s, in round %(round)s of "
                "%(tournament)s. At your table: %(others)s."
            )
            % words,
            self.link(),
        )


class ClockStarted(Told, frozen=True, kw_only=True, tag="clock"):
    """A tournament round's clock started."""

    kind: ClassVar[str] = Kind.YOUR_TABLE
    KEY: ClassVar[tuple[str, ...]] = ("clock", "round_id", "stamp")

    round_id: int = 0
    stamp: int = 0
    tournament: str
    round: int
    minutes: int

    def message(self) -> Message:
        words = {"tournament": self.tournament, "round": self.round}
        return Message(
            _("%(tournament)s: the clock of round %(round)s started") % words,
            ngettext(
                "The clock of round %(round)s of %(tournament)s started: %(minutes)s minute.",
                "The clock of round %(round)s of %(tournament)s started: %(minutes)s minutes.",
                self.minutes,
            )
            % {**words, "minutes": self.minutes},
            self.link(),
        )


# --- a round to confirm ----------------------------------------------------------------------


class ToConfirm(Told, frozen=True, kw_only=True, tag="confirm"):
    """A round entered by another at the person's table waits for their confirmation: named
    by its night, round and table at a tournament, by the match's start elsewhere. Not sent
    once the round was confirmed or changed (queries.no_longer_wanted)."""

    kind: ClassVar[str] = Kind.TO_CONFIRM
    KEY: ClassVar[tuple[str, ...]] = ("confirm", "round_id", "version")

    round_id: int
    version: int
    round: int
    started: str
    tournament: str | None = None
    tournament_round: int | None = None
    final: bool = False
    table: int | None = None

    def message(self) -> Message:
        words = {"round": self.round}
        if self.table is not None:
            at = {
                "tournament": self.tournament,
                "tournament_round": self.tournament_round,
                "table": self.table,
            }
            if self.final:
                where = _("%(tournament)s, the final, table %(table)s") % at
            else:
                where = _("%(tournament)s, round %(tournament_round)s, table %(table)s") % at
        else:
            moment = datetime.datetime.fromisoformat(self.started)
            where = _("Match of %(started)s") % {"started": started(moment)}
        words["where"] = where
        return Message(
            _("Confirm round %(round)s: %(where)s") % words,
            _(
                "Round %(round)s of the score sheet at %(where)s waits for your confirmation: "
                "confirm it, or enter it as you saw it."
            )
            % words,
            self.link(),
        )


# --- claims ------------------------------------------------------------------------------------


class ClaimWaiting(Told, frozen=True, kw_only=True, tag="claim_waiting"):
    """A claim to be a guest waits for the person's decision."""

    kind: ClassVar[str] = Kind.TO_DECIDE
    KEY: ClassVar[tuple[str, ...]] = ("claim", "claim_id")

    claim_id: int = 0
    guest: str
    account: str

    def message(self) -> Message:
        return Message(
            _("A claim waits for your decision"),
            _("%(account)s asks to be %(guest)s.") % {"guest": self.guest, "account": self.account},
            self.link(),
        )


class ClaimDecided(Told, frozen=True, kw_only=True, tag="claim_decided"):
    """The person's claim was decided."""

    kind: ClassVar[str] = Kind.TO_DECIDE
    KEY: ClassVar[tuple[str, ...]] = ("claim_decided", "claim_id")

    claim_id: int = 0
    guest: str
    approved: bool

    def message(self) -> Message:
        words = {"guest": self.guest}
        if self.approved:
            return Message(
                _("Your claim was approved"),
                _("%(guest)s's games are yours now.") % words,
                self.link(),
            )
        return Message(
            _("Your claim was refused"),
            _("Your claim to be %(guest)s was refused.") % words,
            self.link(),
        )


# --- reminders ---------------------------------------------------------------------------------


class TournamentDay(Told, frozen=True, kw_only=True, tag="tournament_day"):
    """A tournament the person registered for is played today. Not sent once they were
    checked in (queries.no_longer_wanted)."""

    kind: ClassVar[str] = Kind.REMINDER
    KEY: ClassVar[tuple[str, ...]] = ("day", "tournament_id")

    tournament_id: int = 0
    tournament: str
    place: str = ""

    def message(self) -> Message:
        words = {"tournament": self.tournament}
        return Message(
            _("Today: %(tournament)s") % words,
            _("%(tournament)s, which you registered for, is played today.") % words,
            self.link(),
        )


class Deadline(Told, frozen=True, kw_only=True, tag="deadline"):
    """A correspondence move's time runs low."""

    kind: ClassVar[str] = Kind.REMINDER
    KEY: ClassVar[tuple[str, ...]] = ("deadline", "table_id", "stamp")

    table_id: int = msgspec.field(name="table")
    name: str = ""
    deadline: str

    @property
    def stamp(self) -> int:
        return int(datetime.datetime.fromisoformat(self.deadline).timestamp())

    def message(self) -> Message:
        deadline = localtime(datetime.datetime.fromisoformat(self.deadline))
        words = {
            "table": _table_name(self.name, None),
            "deadline": date_format(deadline, "j E, H:i"),
        }
        return Message(
            _("Your time runs out: %(table)s") % words,
            _("Make your move at %(table)s by %(deadline)s.") % words,
            self.link(),
        )


class StandIn(Told, frozen=True, kw_only=True, tag="stand_in"):
    """The site moved for a person whose time ran out at a correspondence table (`away`: it
    goes on moving for them until they come back)."""

    kind: ClassVar[str] = Kind.REMINDER
    KEY: ClassVar[tuple[str, ...]] = ("stand_in", "table_id", "number")

    table_id: int = msgspec.field(name="table")
    number: int = 0
    name: str = ""
    started: str | None = None
    move: dict
    away: bool = False

    def message(self) -> Message:
        words = {"table": _table_name(self.name, self.started), "move": _move_made(self.move)}
        text = _("Your time for a move at %(table)s ran out, so the site moved for you: %(move)s.")
        if self.away:
            text += " " + _("It moves for you until you come back to the table.")
        return Message(_("The site moved for you: %(table)s") % words, text % words, self.link())


def _move_made(move: dict) -> str:
    """What the site did for a person, in words ("it played the eight of hearts")."""
    if move["kind"] == "draw":
        return pgettext("the site's move for someone", "it drew a card")
    if move["kind"] != "play":
        return pgettext("the site's move for someone", "it passed")
    words = {"card": card_in_a_sentence(parse_card(move["card"]))}
    if move.get("suit"):
        words["suit"] = ORDERED_SUITS[move["suit"]]
        return (
            pgettext("the site's move for someone", "it played %(card)s and ordered %(suit)s")
            % words
        )
    return pgettext("the site's move for someone", "it played %(card)s") % words


# --- the test message --------------------------------------------------------------------------


class TestMessage(Told, frozen=True, kw_only=True, tag="test"):
    """Asked for on the Notifications page: goes to every channel the person is linked on."""

    kind: ClassVar[str] = Kind.TEST
    KEY: ClassVar[tuple[str, ...]] = ("test", "number", "at")

    number: int = 0
    at: float = 0

    def message(self) -> Message:
        return Message(
            _("Test message"),
            _("This is a test message from 101: this channel works."),
            reverse("notify:settings"),
        )


CATALOGUE: tuple[type[Told], ...] = (
    YourMove,
    Seated,
    ClockStarted,
    ToConfirm,
    ClaimWaiting,
    ClaimDecided,
    TournamentDay,
    Deadline,
    StandIn,
    TestMessage,
)
_ANY = YourMove | Seated | ClockStarted | ToConfirm | ClaimWaiting | ClaimDecided
_ANY = _ANY | TournamentDay | Deadline | StandIn | TestMessage

# The channels each kind goes to for someone who set nothing: everything but the test
# message (a club without Telegram reads its rounds to confirm by e-mail too); once linked,
# Telegram and push the same. A person switches off what they do not want.
DEFAULTS: dict[str, tuple[str, ...]] = {
    channel: (Kind.YOUR_MOVE, Kind.YOUR_TABLE, Kind.TO_CONFIRM, Kind.TO_DECIDE, Kind.REMINDER)
    for channel in Channel
}
# The kinds a person switches (the test message goes to every linked channel, asked for).
SWITCHED = [kind for kind in Kind if kind != Kind.TEST]


def read(notification) -> Told:
    """The notification's class and payload, as it was told (a payload of no class known,
    from a version of the site before it: the test message)."""
    try:
        return msgspec.convert(notification.payload, _ANY)
    except msgspec.ValidationError:
        return TestMessage()
