"""CSV files the site writes: text a spreadsheet would run as a formula is written inert."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any

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

    def __init__(self, file):
        self._writer = csv.writer(file)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([csv_safe(cell) for cell in row])
