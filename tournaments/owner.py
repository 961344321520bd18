"""A tournament owns its tables: rights, lock and place on the site come from the tournament."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from games.models import Match
from tournaments import services
from tournaments.models import Table, Tournament


class TournamentTables:
    """The games app asks this about a match of kind "tournament table"."""

    def _table(self, match: Match) -> Table:
        # Cached on the match for the request: the sheet asks for rights and crumbs.
        cache = match.__dict__.setdefault("_tournament_table", {})
        if "table" not in cache:
            cache["table"] = Table.objects.select_related("round__tournament").get(match=match)
        return cache["table"]

    def lock(self, match: Match) -> None:
        # The order every path keeps: the tournament's row, then its matches by id.
        tournament_id = Table.objects.filter(match=match).values("round__tournament_id")
        list(Tournament.objects.select_for_update().filter(pk__in=tournament_id))
        match.__dict__.pop("_tournament_table", None)

    def refusal(self, match: Match, user) -> str | None:
        table = self._table(match)
        round_, tournament = table.round, table.round.tournament
        if tournament.status == Tournament.Status.FINISHED:
            return _(
                "The tournament is finished: its results can be corrected only after a "
                "director reopens it."
            )
        if user.is_authenticated and tournament.is_director(user):
            return None
        if round_.is_closed:
            return _(
                "%(round)s is closed: only the tournament's directors can change its tables."
            ) % {"round": _round_label(round_)}
        if user.is_authenticated and match.seats.filter(player__user=user).exists():
            return None
        return _("Only the players at this table and the tournament's directors keep its score.")

    def changed(self, match: Match) -> None:
        services.move_versions(Tournament.objects.filter(rounds__tables__match=match))

    def directs(self, match: Match, user) -> bool:
        return self._table(match).round.tournament.is_director(user)

    def crumbs(self, match: Match) -> list[tuple[str, str]]:
        table = self._table(match)
        round_, tournament = table.round, table.round.tournament
        return [
            (tournament.name, tournament.get_absolute_url()),
            (
                _round_label(round_),
                reverse("tournaments:round", args=[tournament.pk, round_.number]),
            ),
            (str(table), ""),
        ]

    def labels(self, matches: list[Match]) -> dict[int, str]:
        tables = Table.objects.filter(match__in=matches).select_related("round__tournament")
        return {
            table.match_id: " · ".join(
                (table.round.tournament.name, _round_label(table.round), str(table))
            )
            for table in tables
        }


def _round_label(round_) -> str:
    return _("Final table") if round_.is_final else str(round_)
