"""Who has a say over a match: its creator and scorekeepers, or the app that made it.

A tournament owns its tables: their rights, their lock and their place on the site come from
the tournament; a table played on the site owns the match its moves score. `games` imports
none of the apps built on it; each registers an owner for the kind of match it creates
(`register(Match.Kind.TOURNAMENT, ...)`, `register(Match.Kind.ONLINE, ...)` in its
AppConfig.ready).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from games.models import Match


class Owner(Protocol):
    def lock(self, match: Match) -> None:
        """Take the owner's row lock; the services call it before locking the match."""

    def refusal(self, match: Match, user) -> str | None:
        """Why this user may not change the match's rounds, or None when they may."""

    def changed(self, match: Match) -> None:
        """The match changed (under the owner's lock): move the owner's version."""

    def directs(self, match: Match, user) -> bool:
        """Whether this user directs the match (confirms any of its rounds for anyone)."""

    def crumbs(self, match: Match) -> list[tuple[str, str]]:
        """Where the match belongs, for its sheet's header: (label, url) pairs."""

    def labels(self, matches: list[Match]) -> dict[int, str]:
        """Where each of these matches belongs, as a line of a list ("Club night · Round 2 ·
        Table 3"), by match id; in a fixed number of queries."""


class ScoreSheets:
    """A casual match: its creator and the scorekeepers the creator adds keep score."""

    def lock(self, match: Match) -> None:
        pass

    def refusal(self, match: Match, user) -> str | None:
        if user.is_authenticated and (
            user.pk == match.created_by_id or match.scorekeepers.filter(pk=user.pk).exists()
        ):
            return None
        return _("Only the match's creator and its scorekeepers can change its rounds.")

    def changed(self, match: Match) -> None:
        pass

    def directs(self, match: Match, user) -> bool:
        return False

    def crumbs(self, match: Match) -> list[tuple[str, str]]:
        return [(_("Matches"), reverse("games:match_list"))]

    def labels(self, matches: list[Match]) -> dict[int, str]:
        return {}


_DEFAULT = ScoreSheets()
_owners: dict[str, Owner] = {}


def register(kind: str, owner: Owner) -> None:
    _owners[kind] = owner


def owner_of(match: Match) -> Owner:
    return _owners.get(match.kind, _DEFAULT)


def refusal(match: Match, user) -> str | None:
    """Why this user may not change the match's rounds (its owner says), or None."""
    return owner_of(match).refusal(match, user)


def label(matches: list[Match]) -> list[Match]:
    """Set `where` on each match: the line its owner gives it in a list ("" for a score
    sheet); a query per kind of match among them at most."""
    kinds: dict[str, list[Match]] = {}
    for match in matches:
        kinds.setdefault(match.kind, []).append(match)
    for kind, group in kinds.items():
        labels = _owners.get(kind, _DEFAULT).labels(group)
        for match in group:
            match.where = labels.get(match.pk, "")
    return matches


def describe(match: Match) -> str:
    """The match as a person knows it, for a question about it ("Delete …?"): where it belongs
    if an owner says ("Club night · Round 2 · Table 3"), its players, and the day it began."""
    seats = match.seats.select_related("player").order_by("position")
    names = ", ".join(str(seat.player) for seat in seats)
    day = date_format(localtime(match.created_at), "DATE_FORMAT")
    where = owner_of(match).labels([match]).get(match.pk, "") if match.kind != "online" else ""
    return f"{where}: {names}" if where else f"{names} · {day}"


def directs(match: Match, user) -> bool:
    """Whether this user directs the match for its owner (an owner that says nothing: no)."""
    owner = owner_of(match)
    return user.is_authenticated and hasattr(owner, "directs") and owner.directs(match, user)


def may_change(match: Match, user) -> bool:
    return refusal(match, user) is None
