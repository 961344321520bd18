"""What people type: control characters refused in text, and in names anything invisible, blank
or reordering, each refusal naming the character."""

import pytest
from django.core.exceptions import ValidationError

from core.validators import validate_multiline_text, validate_name, validate_text


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("ali\x00ce", "This contains a control character (U+0000); remove it."),
        ("ali\tce", "This contains a control character (U+0009); remove it."),
        ("ali\x85ce", "This contains a control character (U+0085); remove it."),
        ("ali\u200bce", "A name cannot contain an invisible character (U+200B)."),
        ("\ufeffalice", "A name cannot contain an invisible character (U+FEFF)."),
        ("ali\u2060ce", "A name cannot contain an invisible character (U+2060)."),
        ("ali\u202ece", "A name cannot contain a character that changes the text direction"),
        ("ali\u2067ce", "changes the text direction (U+2067)."),
        ("ali\u200fce", "changes the text direction (U+200F)."),
    ],
)
def test_a_name_with_a_hidden_character_says_which(value, message):
    with pytest.raises(ValidationError) as refused:
        validate_name(value)
    assert message in refused.value.messages[0]


@pytest.mark.parametrize("value", ["Алиса", "José", "Anne-Marie O'Neil", "李", "=1+1", "👩"])
def test_ordinary_names_are_fine(value):
    validate_name(value)


def test_a_line_of_text_refuses_line_breaks_but_a_description_keeps_them():
    with pytest.raises(ValidationError, match="U\\+000A"):
        validate_text("one\ntwo")
    validate_multiline_text("one\r\n\ttwo")
    with pytest.raises(ValidationError, match="U\\+001B"):
        validate_multiline_text("one\n\x1b[31mtwo")
    # Text that is not a name may hold a zero-width joiner (emoji, some scripts).
    validate_text("a\u200db")
