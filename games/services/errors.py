"""What the services of the score sheet refuse with: a conflict with the sheet as it is now,
or a change this user may not make."""

from __future__ import annotations


class GameError(Exception):
    """Anything the score sheet's services refuse, with a message a person understands."""


class RoundConflict(GameError):
    """The sheet changed since the form was made (or the form was sent twice): not saved.

    `repeat` is true when what was sent is already saved (a double click), so the form
    need not be kept.
    """

    def __init__(self, message: str, *, repeat: bool = False) -> None:
        super().__init__(message)
        self.repeat = repeat


class NotAllowed(GameError):
    """This user may not make this change; the message says why."""
