"""A list of players from a spreadsheet (CSV), read and checked line by line before anyone is
added: what `services.import_entrants` adds, and what the import page shows first."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.utils.translation import gettext as _

from core.validators import name_problem, normalize_name
from tournaments.errors import TournamentError

MAX_IMPORT_ROWS = 1000


# Headers a spreadsheet's name column and check-in column may have, in English or Russian.
NAME_HEADERS = frozenset(
    {"name", "names", "player", "players", "имя", "игрок", "игроки", "участник", "фио"}
)


CHECKED_IN_HEADERS = frozenset({"checked_in", "checked in", "на месте", "отмечен", "пришёл"})


@dataclass(frozen=True)
class PlayerList:
    """A CSV list of players as read, before anyone is added: (name, checked in) a row, and
    the header it skipped, if any."""

    rows: list[tuple[str, bool]]
    header: list[str] | None


def read_player_list(text: str, separator: str = ",") -> PlayerList:
    """The players of a CSV list: a name column (headed `name`, `Имя`, `Игрок`, `ФИО`..., or
    names alone, one a line) and an optional check-in column (`checked_in`, `На месте`: yes/no,
    да/нет). Every line is checked; the first wrong one raises TournamentError. Writes nothing."""
    rows = [
        (line, row) for line, row in _csv_rows(text, separator) if any(cell.strip() for cell in row)
    ]
    first = [cell.strip().casefold() for cell in rows[0][1]] if rows else []
    name_col, checked_col, header = 0, None, None
    if NAME_HEADERS.intersection(first):
        name_col = next(index for index, cell in enumerate(first) if cell in NAME_HEADERS)
        checked_col = next(
            (index for index, cell in enumerate(first) if cell in CHECKED_IN_HEADERS), None
        )
        header = [cell.strip() for cell in rows[0][1]]
        rows = rows[1:]
    if not rows:
        raise TournamentError(_("The file has no players in it."))
    if len(rows) > MAX_IMPORT_ROWS:
        raise TournamentError(
            _("A list can have at most %(count)s players.") % {"count": MAX_IMPORT_ROWS}
        )
    players = []
    for line, row in rows:
        typed = row[name_col] if len(row) > name_col else ""
        name = normalize_name(typed)
        if not name:
            raise TournamentError(_("Line %(line)s has no name.") % {"line": line})
        if "\n" in name or "\r" in name:
            raise TournamentError(
                _("Line %(line)s: a name runs over several lines; is a quote left open?")
                % {"line": line}
            )
        if len(name) > 40:
            raise TournamentError(
                _("Line %(line)s: a name can have at most 40 characters.") % {"line": line}
            )
        problem = name_problem(typed.strip())
        if problem:
            raise TournamentError(
                _("Line %(line)s: %(problem)s") % {"line": line, "problem": problem}
            )
        value = (
            row[checked_col].strip().casefold()
            if checked_col is not None and len(row) > checked_col
            else ""
        )
        if value not in ("", "yes", "no", "1", "0", "true", "false", "да", "нет"):
            raise TournamentError(
                _("Line %(line)s: checked_in must be yes or no, not “%(value)s”.")
                % {"line": line, "value": value}
            )
        players.append((name, value in ("yes", "1", "true", "да")))
    return PlayerList(rows=players, header=header)


def _csv_rows(text: str, separator: str = ",") -> list[tuple[int, list[str]]]:
    """The rows of a CSV text with the line each starts on; CR, LF and CRLF lines alike."""
    # newline="": the csv module itself splits lines, whichever ending they have.
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=separator)
    rows, line = [], 1
    try:
        for row in reader:
            rows.append((line, row))
            line = reader.line_num + 1
    except csv.Error:
        raise TournamentError(
            _("Line %(line)s cannot be read: is a quote left open, or a cell far too long?")
            % {"line": line}
        ) from None
    return rows
