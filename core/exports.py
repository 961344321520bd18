"""CSV files the site writes: text a spreadsheet would run as a formula is written inert."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.http import HttpRequest, HttpResponse

from core.csvfiles import separator_for

# A figure the site writes as text ("-20", "1.5"): a spreadsheet reads it as a number.
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
# Where a spreadsheet may start a cell in a text: at its start, and after any separator one
# splits on ("," in English Excel, ";" in Russian Excel, a tab when pasted) or a line break,
# not only after the one the file is written with. Quoting the text does not help there: a
# spreadsheet splitting a ","-file on ";" meets the quote in the middle of a cell and keeps
# it as a letter, and the text after the ";" is a cell of its own. Spaces and quote marks
# before the formula are skipped (a cell may start with `"=`, which is unquoted to `=`).
FORMULA = re.compile(r'(^|[,;\t\r\n])([ "]*)(?=[=+\-@\t\r])')


def csv_safe(value: Any) -> Any:
    """The cell as written: a quote mark before every formula a spreadsheet could find in it,
    at its start or after a separator inside it, whatever separator it splits on.

    Numbers stay numbers, whether given as numbers or as plain figures in text.
    """
    if not isinstance(value, str) or PLAIN_NUMBER.fullmatch(value):
        return value
    return FORMULA.sub(r"\1\2'", value)


class _Figure:
    """A number the site wrote as text ("-20", "0.75"): written as it is, and bare, like the
    numbers given as numbers (csv.QUOTE_STRINGS quotes only str)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


def _cell(value: Any, decimal_comma: bool = False) -> Any:
    if decimal_comma and isinstance(value, float | Decimal):
        value = str(value)
    value = csv_safe(value)
    if not (isinstance(value, str) and PLAIN_NUMBER.fullmatch(value)):
        return value
    return _Figure(value.replace(".", ",") if decimal_comma else value)


class SafeWriter:
    """A csv.writer whose every cell goes through csv_safe, and every text cell is quoted:
    a separator inside a name (a ";" in a ","-file) stays in its cell for every spreadsheet
    that reads quotes, whichever separator it splits on. Numbers are written bare, whether
    given as numbers or as figures in text, so that no spreadsheet takes them for text.

    A ";"-file is the one made for spreadsheets whose decimal mark is a comma (Excel in
    Russian): its fractions are written "3,5", which such a spreadsheet reads as a number and
    would read "3.5" as a date or text. The ","-file keeps "3.5"."""

    def __init__(self, file, separator: str = ","):
        self._writer = csv.writer(file, delimiter=separator, quoting=csv.QUOTE_STRINGS)
        self._decimal_comma = separator == ";"

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([_cell(cell, self._decimal_comma) for cell in row])


def csv_response(request: HttpRequest, filename: str) -> tuple[HttpResponse, SafeWriter]:
    """A CSV download and the writer of its rows: UTF-8 with a BOM (so that Excel reads the
    names, Cyrillic included, as UTF-8), cells separated by "," or, when the link asks for it
    (`?sep=semicolon`, what the Russian pages link to), by ";" as Excel in Russian expects.
    Numbers are written as Python writes them (1.5), in every language, except that the ";"
    file writes its decimal mark as a comma (1,5) for the spreadsheets it is made for."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    return response, SafeWriter(response, separator_for(request.GET))
