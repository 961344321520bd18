"""How names sort in every list (case ignored, Ё right after Е, ties by the exact name), how
a search finds them (case ignored, ё written as е), and how the played tables' bots are named."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

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


# A bot's Player row keeps its name in English, once for everyone ("Greedy bot", "Greedy bot 2"
# for a second greedy bot at the same table); pages show it in their own language. The row is
# a bot by its flag (Player.is_bot), never by its name: the name only says which label to show.
BOT_LABELS = {"random": _("Random bot"), "greedy": _("Greedy bot"), "expert": _("Expert bot")}
STORED_BOT_NAME = re.compile(r"^(Random|Greedy|Expert) bot(?: ([0-9]+))?$")


def stored_bot_name(bot: str, number: int = 1) -> str:
    """The name a bot's Player row keeps: the `number`-th bot of strength `bot` at a table."""
    return f"{bot.capitalize()} bot" + (f" {number}" if number > 1 else "")


def bot_name(stored: str) -> str:
    """A bot's stored name in the language of the page ("Жадный бот 2"); a name not made by
    `stored_bot_name` is shown as it is."""
    found = STORED_BOT_NAME.match(stored)
    if found is None:
        return stored
    label = str(BOT_LABELS[found[1].lower()])
    return f"{label} {found[2]}" if found[2] else label


def bot_names_like(text: str) -> list[str]:
    """The stored names of the bots whose name in the page's language holds `text`, as a
    search compares names (a table has at most four seats, so three bots of a strength)."""
    wanted = search_fold(text)
    names = [stored_bot_name(bot, number) for bot in BOT_LABELS for number in (1, 2, 3)]
    return [stored for stored in names if wanted in search_fold(bot_name(stored))]
