"""How the played tables' bots are named: one English name kept on the row, shown in the
language of the page, and found by a search in that language."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _

from core.names import search_fold

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
