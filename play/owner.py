"""What a match played on the site answers as its owner (games.owners): its moves score it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.urls import reverse
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from games.models import Match


class PlayedTables:
    """A match played on the site: its moves score it, nobody enters or corrects its rounds."""

    def lock(self, match: Match) -> None:
        pass

    def refusal(self, match: Match, user) -> str | None:
        return _("This match was played on the site: its rounds come from the moves played.")

    def changed(self, match: Match) -> None:
        pass

    def crumbs(self, match: Match) -> list[tuple[str, str]]:
        table = getattr(match, "play_table", None)
        crumbs = [(_("Play"), reverse("play:lobby"))]
        if table is not None:
            crumbs.append((str(table), table.get_absolute_url()))
        return crumbs

    def labels(self, matches: list[Match]) -> dict[int, str]:
        return {match.pk: _("played on the site") for match in matches}
