"""What the tournaments' services refuse with: a director's request that cannot be carried
out, and a seating in which players would meet again."""

from __future__ import annotations

from django.utils.translation import gettext as _


class TournamentError(Exception):
    """A director's request that cannot be carried out; the message says why."""


class RepeatMeetings(TournamentError):
    """A swap or a new seating would make players meet again: nothing was saved, and the
    director is asked first. `pairs` are their names; `seed` gives the same seating again."""

    def __init__(self, pairs: list[tuple[str, str]], seed: int | None = None) -> None:
        listed = "; ".join(f"{a} – {b}" for a, b in pairs)
        super().__init__(_("These players would meet again: %(pairs)s.") % {"pairs": listed})
        self.pairs = pairs
        self.seed = seed
