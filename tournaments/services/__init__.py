"""The only place that writes tournaments, one module per concern: `tournaments` (a tournament as
a whole, its directors, and the lock and version every change takes), `entrants`, `rounds`
(seating, closing tables and rounds). Errors are in tournaments.errors; what pages read is in
tournaments.queries.

Every change takes the tournament's row lock first, then (through games.services) its tables'
matches by ascending id: the same order a table's round changes keep. Every change moves the
tournament's version.
"""

from tournaments.errors import RepeatMeetings, TournamentError
from tournaments.services.entrants import (
    Added,
    add_entrants,
    check_in_everyone,
    drop,
    enter_checked_in,
    import_entrants,
    register,
    set_checked_in,
    undrop,
    withdraw,
)
from tournaments.services.rounds import (
    close_round,
    close_table,
    reopen_table,
    reseat_round,
    seat_next_round,
    start_clock,
    swap_players,
)
from tournaments.services.tournaments import (
    add_director,
    create_tournament,
    finish_tournament,
    move_versions,
    remove_director,
    reopen_tournament,
    update_tournament,
)

__all__ = [
    "Added",
    "RepeatMeetings",
    "TournamentError",
    "add_director",
    "add_entrants",
    "check_in_everyone",
    "close_round",
    "close_table",
    "create_tournament",
    "drop",
    "enter_checked_in",
    "finish_tournament",
    "import_entrants",
    "move_versions",
    "register",
    "remove_director",
    "reopen_table",
    "reopen_tournament",
    "reseat_round",
    "seat_next_round",
    "set_checked_in",
    "start_clock",
    "swap_players",
    "undrop",
    "update_tournament",
    "withdraw",
]
