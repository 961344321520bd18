"""What the apps built on games add to its pages. They register here in their
AppConfig.ready(); games imports none of them, and without them its pages simply go without.
"""

from __future__ import annotations

from collections.abc import Callable

_player_page: Callable[[int], str] | None = None


def register_player_page(url_of: Callable[[int], str]) -> None:
    """The page of a player (a profile), by the player's id."""
    global _player_page
    _player_page = url_of


def player_page(player_id: int) -> str | None:
    return _player_page(player_id) if _player_page is not None else None
