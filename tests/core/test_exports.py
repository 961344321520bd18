"""CSV cells the site writes: a formula a spreadsheet could run is written inert."""

import pytest

from core.exports import csv_safe


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        # A formula after a separator is a cell of its own for a spreadsheet splitting on it.
        ("x;=cmd|' /C calc'!A0", "x;'=cmd|' /C calc'!A0"),
        ("x,+1", "x,'+1"),
        ('x; "=1', "x; \"'=1"),
        ('"@SUM(A1)', "\"'@SUM(A1)"),
        ("Anne-Marie; Jean-Paul", "Anne-Marie; Jean-Paul"),
        ("Anna", "Anna"),
        ("", ""),
        ("-20", "-20"),
        ("1.5", "1.5"),
        ("+7", "+7"),
        (-20, -20),
        (3, 3),
        (None, None),
    ],
)
def test_a_csv_cell_that_starts_like_a_formula_is_written_inert(cell, written):
    assert csv_safe(cell) == written
