"""What a notification says, in the language active when it is rendered (the sender renders
it in the person's): a title (an e-mail's subject), the words, and the path it links to."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from cards101.rules import parse_card
from games.labels import started
from notify.links import absolute
from notify.models import Kind, Notification
from play.spoken import ORDERED_SUITS, card_in_a_sentence


@dataclass(frozen=True)
class Message:
    title: str
    text: str
    path: str


def _table_name(payload: dict) -> str:
    if payload.get("name"):
        return payload["name"]
    if payload.get("started"):
        moment = datetime.datetime.fromisoformat(payload["started"])
        return _("Table of %(started)s") % {"started": started(moment)}
    return _("New table")


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


def _to_confirm(payload: dict, path: str) -> Message:
    """A round to confirm: at a night's table, named by the night, its round and the table;
    elsewhere by the match's start."""
    words = {"round": payload["round"]}
    if "table" in payload:
        words |= {
            "tournament": payload["tournament"],
            "tournament_round": payload["tournament_round"],
            "table": payload["table"],
        }
        if payload.get("final"):
            where = _("%(tournament)s, the final, table %(table)s") % words
        else:
            where = _("%(tournament)s, round %(tournament_round)s, table %(table)s") % words
    else:
        moment = datetime.datetime.fromisoformat(payload["started"])
        where = _("Match of %(started)s") % {"started": started(moment)}
    words["where"] = where
    return Message(
        _("Confirm round %(round)s: %(where)s") % words,
        _(
            "Round %(round)s of the score sheet at %(where)s waits for your confirmation: "
            "confirm it, or enter it as you saw it."
        )
        % words,
        path,
    )


def render(notification: Notification) -> Message:
    """The notification's message in the active language."""
    payload, kind = notification.payload, notification.kind
    path = payload.get("path") or reverse("notify:settings")
    what = payload.get("what", "")
    if kind == Kind.YOUR_MOVE:
        table = _table_name(payload)
        return Message(
            _("Your move: %(table)s") % {"table": table},
            _("The others at %(table)s wait for your move: open the table to play.")
            % {"table": table},
            path,
        )
    if kind == Kind.YOUR_TABLE and what == "clock":
        words = {"tournament": payload["tournament"], "round": payload["round"]}
        return Message(
            _("%(tournament)s: the clock of round %(round)s started") % words,
            ngettext(
                "The clock of round %(round)s of %(tournament)s started: %(minutes)s minute.",
                "The clock of round %(round)s of %(tournament)s started: %(minutes)s minutes.",
                payload["minutes"],
            )
            % {**words, "minutes": payload["minutes"]},
            path,
        )
    if kind == Kind.YOUR_TABLE:
        words = {
            "tournament": payload["tournament"],
            "round": payload["round"],
            "table": payload["table"],
            "seat": payload["seat"],
            "others": ", ".join(payload.get("others", [])) or "—",
        }
        if payload.get("final"):
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
            path,
        )
    if kind == Kind.TO_CONFIRM:
        return _to_confirm(payload, path)
    if kind == Kind.TO_DECIDE and what == "claim_decided":
        words = {"guest": payload["guest"]}
        if payload.get("approved"):
            return Message(
                _("Your claim was approved"),
                _("%(guest)s's games are yours now.") % words,
                path,
            )
        return Message(
            _("Your claim was refused"),
            _("Your claim to be %(guest)s was refused.") % words,
            path,
        )
    if kind == Kind.TO_DECIDE:
        words = {"guest": payload["guest"], "account": payload["account"]}
        return Message(
            _("A claim waits for your decision"),
            _("%(account)s asks to be %(guest)s.") % words,
            path,
        )
    if kind == Kind.REMINDER and what == "stand_in":
        words = {"table": _table_name(payload), "move": _move_made(payload["move"])}
        text = _("Your time for a move at %(table)s ran out, so the site moved for you: %(move)s.")
        if payload.get("away"):
            text += " " + _("It moves for you until you come back to the table.")
        return Message(_("The site moved for you: %(table)s") % words, text % words, path)
    if kind == Kind.REMINDER and what == "deadline":
        deadline = localtime(datetime.datetime.fromisoformat(payload["deadline"]))
        words = {"table": _table_name(payload), "deadline": date_format(deadline, "j E, H:i")}
        return Message(
            _("Your time runs out: %(table)s") % words,
            _("Make your move at %(table)s by %(deadline)s.") % words,
            path,
        )
    if kind == Kind.REMINDER:
        words = {"tournament": payload["tournament"]}
        return Message(
            _("Today: %(tournament)s") % words,
            _("%(tournament)s, which you registered for, is played today.") % words,
            path,
        )
    return Message(
        _("Test message"),
        _("This is a test message from 101: this channel works."),
        reverse("notify:settings"),
    )


def render_group(notifications: list[Notification]) -> Message:
    """Several notifications kept for one person (their quiet hours), in one message: each
    title with its own link; the message's own link is theirs if they share one."""
    if len(notifications) == 1:
        return render(notifications[0])
    rendered = [render(notification) for notification in notifications]
    count = len(notifications)
    paths = {message.path for message in rendered}
    return Message(
        ngettext("%(count)s notification", "%(count)s notifications", count) % {"count": count},
        "\n".join(f"• {message.title}\n  {absolute(message.path)}" for message in rendered),
        paths.pop() if len(paths) == 1 else reverse("notify:settings"),
    )
