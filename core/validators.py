"""Checks of what people type: no control characters in text, nothing invisible in names;
and names written one way (NFKC, single spaces), so that two names that look alike are alike."""

from __future__ import annotations

import unicodedata

# The `regex` module, not hand-typed tables: Python's unicodedata knows no
# Default_Ignorable_Code_Point nor Extended_Pictographic, and their lists (hundreds of ranges,
# growing with each Unicode version) are exactly what a maintained library keeps right; it
# also matches emoji sequences the way Unicode defines them (UTS #51).
import regex
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Characters that show nothing, or nothing but blank space, yet make two names that look the
# same differ: every default-ignorable code point (soft hyphen, zero-width joiners and spaces,
# the combining grapheme joiner, Hangul fillers, variation selectors, tag characters, ...) and
# every other format character.
INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}]")
# Blank characters that are not invisible: any space but the plain one (which a name keeps,
# one at a time), line and paragraph separators, and the blank braille pattern (U+2800),
# which fonts draw as an empty square of space.
BLANK = regex.compile(r"[\p{Zs}\p{Zl}\p{Zp}\u2800--\x20]", regex.VERSION1)
# Where invisible characters belong: inside an emoji sequence, as Unicode defines them. A zero
# width joiner between two emoji (👨‍👩‍👧), a variation selector after an emoji (❤️), the tag
# characters of a subdivision flag (🏴󠁧󠁢󠁥󠁮󠁧󠁿), the selector of a keycap (1️⃣). Skin tones (👍🏽) and
# country flags (🇷🇺) are visible characters already.
_EMOJI_ELEMENT = r"\p{Extended_Pictographic}[\uFE0E\uFE0F]?\p{Emoji_Modifier}?"
EMOJI_SEQUENCE = regex.compile(
    r"\U0001F3F4[\U000E0020-\U000E007E]+\U000E007F"
    r"|[0-9#*]\uFE0F?\u20E3"
    rf"|{_EMOJI_ELEMENT}(?:\u200D{_EMOJI_ELEMENT})*"
)
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


def normalize_name(value: str) -> str:
    """A name as it is kept and compared: NFKC (a fullwidth "Ａｎｎａ" is "Anna", a no-break
    space a space, a ligature its letters), every run of spaces one plain space, nothing
    around it. Letters of every script, accents and emoji stay as typed."""
    value = unicodedata.normalize("NFKC", value)
    return regex.sub(r"\p{Zs}+", " ", value).strip()


def _refuse_hidden(value: str, *, blanks: bool) -> None:
    in_emoji = set()
    for found in EMOJI_SEQUENCE.finditer(value):
        in_emoji.update(range(*found.span()))
    for index, char in enumerate(value):
        if index in in_emoji:
            continue
        if char in DIRECTION:
            raise ValidationError(
                _("A name cannot contain a character that changes the text direction (%(code)s)."),
                code="direction_character",
                params={"code": _code(char)},
            )
        if INVISIBLE.match(char):
            raise ValidationError(
                _("A name cannot contain an invisible character (%(code)s)."),
                code="invisible_character",
                params={"code": _code(char)},
            )
        if blanks and BLANK.match(char):
            raise ValidationError(
                _("A name cannot contain a blank character other than a plain space (%(code)s)."),
                code="blank_character",
                params={"code": _code(char)},
            )


def validate_name(value: str) -> None:
    """A name people read and tell apart: a line of text with nothing invisible, blank (but
    single spaces) or reordering in it, except the joiners and selectors inside an emoji."""
    _refuse_controls(value)
    _refuse_hidden(value, blanks=True)


def clean_name(value: str) -> str:
    """The name as typed, made as it is kept (`normalize_name`) and checked (`validate_name`);
    ValidationError naming the character that is wrong, as typed: NFKC would turn a Hangul
    filler (U+3164) into another one, and the message would name a character nobody typed.
    Spaces of every kind are fine as typed: they become plain ones."""
    _refuse_controls(value)
    _refuse_hidden(value, blanks=False)
    name = normalize_name(value)
    validate_name(name)
    return name


def name_problem(value: str) -> str | None:
    """What is wrong with a name as typed, in words, or None when it is fine (it may still
    need `normalize_name`)."""
    try:
        clean_name(value)
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
