"""The only code that writes matches: lock, load, call the rules library, save, in one
transaction, moving the match's version. One module per concern: `matches` (a match as a
whole, its locks and version), `rounds` (entering and correcting rounds, scoring), `people`
(who the typed names are), `confirmations` (a second person confirming a round), `errors`;
what pages read is in games.queries.

Locks are taken in one order everywhere: the match's owner (a tournament's row), then the
matches themselves by ascending id. Players are keyed by seat position, never by name.
"""

from games.services.confirmations import (
    choose_entry,
    confirm_round,
    enter_again,
    set_confirm_results,
)
from games.services.errors import GameError, NotAllowed, RoundConflict
from games.services.matches import (
    add_scorekeeper,
    announce_results,
    create_match,
    delete_match,
    discard_unplayed,
    leave_match,
    lock_matches,
    mark_changed,
    rematch,
    remove_scorekeeper,
    set_rated,
    start_match,
    swap_seats,
)
from games.services.people import counts_for, own_player, players_for_names, set_large_print
from games.services.rounds import (
    change_round,
    close_match,
    delete_round,
    lock_results,
    record_round,
    reopen_match,
    store_history,
    store_played_round,
)

__all__ = [
    "GameError",
    "NotAllowed",
    "RoundConflict",
    "add_scorekeeper",
    "announce_results",
    "change_round",
    "choose_entry",
    "close_match",
    "confirm_round",
    "counts_for",
    "create_match",
    "delete_match",
    "delete_round",
    "discard_unplayed",
    "enter_again",
    "leave_match",
    "lock_matches",
    "lock_results",
    "mark_changed",
    "own_player",
    "players_for_names",
    "record_round",
    "rematch",
    "remove_scorekeeper",
    "reopen_match",
    "set_confirm_results",
    "set_large_print",
    "set_rated",
    "start_match",
    "store_history",
    "store_played_round",
    "swap_seats",
]
