"""Checks of what people type: no control characters in text, nothing invisible in names."""

from __future__ import annotations

import unicodedata

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Characters that show nothing yet make two names that look the same differ.
INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff")
# Characters that reverse or reorder the text around them (a name shown backwards).
DIRECTION = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# What a multi-line text (a description) may keep of the control characters.
LAYOUT = frozenset("\t\n\r")
# The largest id a database row can have (a 64-bit primary key).
MAX_ID = 2**63 - 1


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def _refuse_controls(value: str, allowed: frozenset[str] = frozenset()) -> None:
    for char in value:
        if unicodedata.category(char) == "Cc" and char not in allowed:
            raise ValidationError(
                _("This contains a control character (%(code)s); remove it."),
                code="control_character",
                params={"code": _code(char)},
            )


def validate_text(value: str) -> None:
    """A line of text: no control characters at all (NUL, tab, line breaks, ...)."""
    _refuse_controls(value)


def validate_multiline_text(value: str) -> None:
    """A text of several lines: line breaks and tabs are fine, other control characters not."""
    _refuse_controls(value, allowed=LAYOUT)


def validate_name(value: str) -> None:
    """A name people read and tell apart: a line of text with nothing invisible or reordering."""
    _refuse_controls(value)
    for char in value:
        if char in INVISIBLE:
            raise ValidationError(
                _("A name cannot contain an invisible character (%(code)s)."),
                code="invisible_character",
                params={"code": _code(char)},
            )
        if char in DIRECTION:
            raise ValidationError(
                _("A name cannot contain a character that changes the text direction (%(code)s)."),
                code="direction_character",
                params={"code": _code(char)},
            )


def name_problem(value: str) -> str | None:
    """What is wrong with a name, in words, or None when it is fine."""
    try:
        validate_name(value)
    except ValidationError as error:
        return error.messages[0]
    return None


def parse_id(value: str | None) -> int | None:
    """A row id from form data, or None when it is not one (so it never reaches the database)."""
    try:
        number = int(value or "")
    except ValueError:
        return None
    return number if 1 <= number <= MAX_ID else None


# allauth's ACCOUNT_USERNAME_VALIDATORS: ours first (its message names the character), then
# Django's own rule for usernames.
USERNAME_VALIDATORS = [validate_name, UnicodeUsernameValidator()]
