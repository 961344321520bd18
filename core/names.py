"""How names sort in every list (case ignored, Ё right after Е, ties by the exact name), how
a search finds them (case ignored, ё written as е), and when two names are one (at a table, in
a tournament)."""

from __future__ import annotations

# The order is the same in both languages: Latin names in Latin order, Cyrillic names in the
# order of the Russian alphabet, case ignored (Latin before Cyrillic, as their code points
# fall). Keys compare by code point; ё (U+0451) comes after я there, so it is written as е
# followed by the last code point, which puts it after every е and before ж.
YO = "е\U0010ffff"
# Between the folded name and the exact one: below every character a name may hold (names
# hold no control characters), so the key orders as the pair (folded, exact) would.
THEN = "\x01"


def sort_key(name: str) -> str:
    """The key every list of names sorts by (also the database's, see games.models.NameKey)."""
    return name.casefold().replace("ё", YO) + THEN + name


def same_name_key(name: str) -> str:
    """What two names at one table (or in one tournament) must differ in: case ignored, and
    an emoji's presentation selector too ("❤ Anna" and "❤️ Anna" are one name)."""
    return name.replace("\ufe0f", "").replace("\ufe0e", "").casefold()


def search_fold(text: str) -> str:
    """A name or a searched text as searches compare them (also the database's, see
    games.models.FoldedName): case ignored, and ё as е, as Russian is often written."""
    return text.lower().replace("ё", "е")
