"""Reading the CSV files people bring (from Excel in English or Russian, from LibreOffice or a
text editor) and the separator of the files the site writes: the one place that knows their
encodings and separators."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

# What a spreadsheet separates cells with: "," in English, ";" where the decimal mark is a
# comma (Russian Excel), a tab when copied as text.
SEPARATORS = (",", ";", "\t")
SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}
# Excel in Russian saves "CSV" in Windows-1251 unless told "CSV UTF-8" (which adds a BOM).
ENCODINGS = (("utf-8-sig", "UTF-8"), ("cp1251", "Windows-1251"))


class NotText(ValueError):
    """The bytes are not a text file the site reads (a spreadsheet, an image, UTF-16)."""


@dataclass(frozen=True)
class Table:
    """A CSV file read: its text as Unicode, the separator and encoding it was read with."""

    text: str
    separator: str
    encoding: str

    @property
    def separator_name(self) -> str:
        return SEPARATOR_NAMES[self.separator]


def read_table(data: bytes) -> Table:
    """The text of a CSV file, whatever encoding and separator a spreadsheet gave it: UTF-16
    with its BOM, UTF-8 with or without one, else Windows-1251; `,`, `;` or a tab, whichever
    splits its first lines into the same number of cells (the most cells on a tie)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # Excel's "Unicode text": UTF-16, tabs
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise NotText("bad UTF-16") from None
        return Table(text=text, separator=separator_of(text), encoding="UTF-16")
    if b"\x00" in data:
        raise NotText("NUL")
    for codec, name in ENCODINGS:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        encoding = name + (" (BOM)" if data.startswith(b"\xef\xbb\xbf") else "")
        return Table(text=text, separator=separator_of(text), encoding=encoding)
    raise NotText("undecodable")  # pragma: no cover - cp1251 decodes all but five bytes


def separator_of(text: str) -> str:
    """The separator that splits the first lines alike and most: a list of names alone (one a
    line, no separator in it) reads as ","."""
    lines = [line for line in text.splitlines() if line.strip()][:20]
    best, best_score = ",", (False, 0)
    for separator in SEPARATORS:
        try:
            counts = [
                len(row) for row in csv.reader(io.StringIO("\n".join(lines)), delimiter=separator)
            ]
        except csv.Error:
            continue
        if not counts or max(counts) < 2:
            continue
        score = (len(set(counts)) == 1, max(counts))
        if score > best_score:
            best, best_score = separator, score
    return best


def separator_for(request_get) -> str:
    """The separator of a CSV the site writes: "," unless the link asks for ";"
    (`?sep=semicolon`, what Excel in Russian and other comma-decimal languages splits on)."""
    return ";" if request_get.get("sep") == "semicolon" else ","
