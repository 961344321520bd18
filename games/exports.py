"""CSV files the site writes: text a spreadsheet would run as a formula is written inert."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any

from django.http import HttpRequest, HttpResponse

from games.csvfiles import separator_for

# A spreadsheet takes a cell starting with one of these for a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A figure the site writes as text ("-20", "1.5"): a spreadsheet reads it as a number.
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_safe(value: Any) -> Any:
    """The cell as written: text that starts like a formula gets a leading quote.

    Numbers stay numbers, whether given as numbers or as plain figures in text.
    """
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_STARTS)
        and not PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


class SafeWriter:
    """A csv.writer whose every cell goes through csv_safe."""

    def __init__(self, file, separator: str = ","):
        self._writer = csv.writer(file, delimiter=separator)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([csv_safe(cell) for cell in row])


def csv_response(request: HttpRequest, filename: str) -> tuple[HttpResponse, SafeWriter]:
    """A CSV download and the writer of its rows: UTF-8 with a BOM (so that Excel reads the
    names, Cyrillic included, as UTF-8), cells separated by "," or, when the link asks for it
    (`?sep=semicolon`, what the Russian pages link to), by ";" as Excel in Russian expects.
    Numbers are written as Python writes them (1.5), in every language."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    return response, SafeWriter(response, separator_for(request.GET))
