"""What the apps built on games add to its pages. They register here in their
AppConfig.ready(); games imports none of them, and without them its pages simply go without.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.models import Match
    from games.sheet import Sheet

_player_page: Callable[[int], str] | None = None
_match_panels: list[Callable[[Match, Sheet], str]] = []


def register_player_page(url_of: Callable[[int], str]) -> None:
    """The page of a player (a profile), by the player's id."""
    global _player_page
    _player_page = url_of


def player_page(player_id: int) -> str | None:
    return _player_page(player_id) if _player_page is not None else None


def register_match_panel(panel: Callable[[Match, Sheet], str]) -> None:
    """A part of a match's page (HTML, escaped by its maker), shown under the score sheet;
    it reads the seats and players from the sheet, which loads them once for the page."""
    if panel not in _match_panels:
        _match_panels.append(panel)


def match_panels(match: Match, sheet: Sheet) -> list[str]:
    return [html for panel in _match_panels if (html := panel(match, sheet))]
