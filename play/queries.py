"""What the pages of played tables read: a table whole (its match, seats and game), each part
in one query, as the services leave it after a change and as a board is drawn from it; whose
move it is and who sits where; what each seat, a spectator and a replay may see; the lobby's
rows; and the spectators' board, kept for a version, under one rule of who is a spectator."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import F, Q
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import get_language

from cards101.engine import Game, Move
from games import audience
from games.models import Seat
from play import correspondence, spoken
from play.models import CORRESPONDENCE_SECONDS, PlaySeat, PlayTable, Vacation

# The tables a lobby lists of each kind: a person sits at a handful at once.
LOBBY_TABLES = 20
# PlayMove.by of the stand-in that moves for a person whose time ran out, or who left.
STAND_INS = ("timer", "left")
# A spectator's board is kept for its version: every watcher of a table fetches the same one
# after each move. A newer version is another key, so this only bounds what is kept.
WATCHED_BOARD_SECONDS = 120


@dataclass
class AtTable:
    """A table read whole: the table (with its match), its seats in order (with their players
    and accounts) and the game, None before the deal. A service that changes the table returns
    it as it left it, and the view renders from it, so that nothing is read twice."""

    table: PlayTable
    seats: list[PlaySeat]
    game: Game | None

    def seat_at(self, position: int) -> PlaySeat:
        return next(seat for seat in self.seats if seat.position == position)


def at_table(pk: int, *, for_update: bool = False) -> AtTable:
    """The table with this id, whole (PlayTable.DoesNotExist if there is none). `for_update`
    (inside a service's transaction) locks the table's row alone: its seats and moves change
    only under that lock."""
    tables = PlayTable.objects.select_related("match")
    if for_update:
        tables = tables.select_for_update(of=("self",))
    table = tables.get(pk=pk)
    seats = list(table.seats.select_related("user__player", "player").order_by("position"))
    return AtTable(table, seats, None if table.state is None else Game.from_json(table.state))


# --- who sits where, and what each may see -------------------------------------------------


def seat_to_move(table: PlayTable) -> int | None:
    """The seat whose decision it is, or None when it is nobody's: before the deal, between
    two rounds, after the match."""
    if table.status != PlayTable.Status.PLAYING or table.state is None:
        return None
    game = Game.from_json(table.state)
    return None if game.round_over else game.to_move


def seat_of(seats: Sequence[PlaySeat], user) -> PlaySeat | None:
    """The user's seat among these, if they sit there (never a bot's seat for an anonymous
    visitor; never the seat of someone who resigned and left: they watch as anyone does)."""
    if not user.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == user.pk and not seat.has_left), None)


def has_left(seats: Sequence[PlaySeat], user) -> bool:
    """Whether the user resigned and left one of these seats."""
    return user.is_authenticated and any(
        seat.user_id == user.pk and seat.has_left for seat in seats
    )


def view_for(table: PlayTable, seat: PlaySeat | None) -> dict | None:
    """What this seat may see; a spectator sees only what every seat sees."""
    if table.state is None:
        return None
    return view_of(Game.from_json(table.state), seat)


def view_of(game: Game, seat: PlaySeat | None) -> dict:
    """What this seat may see of the game; a spectator sees only what every seat sees."""
    if seat is not None:
        return game.view(seat.position)
    return public_view(game.view(0))


def public_view(view: dict) -> dict:
    """A seat's view less everything only that seat may see."""
    public = {key: value for key, value in view.items() if key not in ("hand", "legal")}
    public["seat"] = None
    public["must_cover"] = False
    public["log"] = [
        {key: value for key, value in event.items() if key != "cards"}
        for event in view.get("log", [])
    ]
    return public


def replay_view(game: Game) -> dict:
    """A position of a finished round as anyone may see it in its replay: what every seat
    sees, and every hand (the round is over, its hands were shown to the table at its end).
    Never for a round still being played: the caller replays finished rounds alone."""
    view = public_view(game.view(0))
    view["hands"] = [[card.code for card in sorted(hand)] for hand in game.cards_in_play()["hands"]]
    return view


def replay(table: PlayTable, round_index: int, step: int) -> tuple[Game, int]:
    """The game as it stood after `step` moves of round `round_index` (0-based), rebuilt
    from the seed and the kept moves; returns it with the number of moves in that round."""
    game, count, _ = replay_said(table, round_index, step)
    return game, count


def replay_said(
    table: PlayTable, round_index: int, step: int
) -> tuple[Game, int, list[tuple[int, int, int]]]:
    """`replay`, with the moves of that round the site made for a person (the stand-in's)
    before the position, as PlayTable.site_moves keeps those of the round in play."""
    game = Game.new(table.variant, players=table.seat_count, seed=table.seed)
    moves = list(table.moves.filter(round__lte=round_index).order_by("number"))
    in_round = [m for m in moves if m.round == round_index]
    site = []
    for kept in moves:
        if kept.round == round_index and in_round.index(kept) >= step:
            break
        while game.view(kept.seat)["round"] < kept.round:
            game.next_round()
        by_site = kept.round == round_index and kept.by in STAND_INS
        start = len(game.view(kept.seat)["log"]) if by_site else 0
        game.play(Move.from_json(kept.move))
        if by_site:
            site.append((kept.seat, start, len(game.view(kept.seat)["log"])))
    while game.view(0)["round"] < round_index and game.round_over and not game.match_over:
        game.next_round()
    return game, len(in_round), site


def ranking(table: PlayTable) -> list[Seat]:
    """The match's seats by place, once it is over (for the board's ranking)."""
    return list(table.match.seats.select_related("player").order_by("place", "position"))


# --- the lobby -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LobbyRow:
    """A table as the lobby lists it: its seats, whose decision it is (None when nobody's:
    waiting for players, between two rounds) and whether that is the viewer's."""

    table: PlayTable
    seats: list[PlaySeat]
    to_move: PlaySeat | None
    my_move: bool


def lobby(user) -> tuple[list[LobbyRow], list[LobbyRow]]:
    """Tables the user sits at (not those they resigned and left), those where it is their
    move first, and public tables waiting for players."""
    mine = []
    if user.is_authenticated:
        mine = PlayTable.objects.filter(seats__user=user, seats__left_at=None).exclude(
            status=PlayTable.Status.FINISHED
        )[:LOBBY_TABLES]
    open_tables = (
        PlayTable.objects.filter(public=True, status=PlayTable.Status.WAITING)
        .filter(~Q(seats__user=user) if user.is_authenticated else Q())
        .distinct()[:LOBBY_TABLES]
    )
    rows = _rows([*mine, *open_tables], user)
    # sorted() is stable: within each group, the table that moved last first.
    return sorted(rows[: len(mine)], key=lambda row: not row.my_move), rows[len(mine) :]


def _rows(tables: list[PlayTable], user) -> list[LobbyRow]:
    """The lobby's rows of these tables, their seats read in one query."""
    seats = PlaySeat.objects.filter(table__in=tables).select_related("user__player", "player")
    by_table: dict[int, list[PlaySeat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    rows = []
    for table in tables:
        around = by_table.get(table.pk, [])
        position = seat_to_move(table)
        to_move = next((seat for seat in around if seat.position == position), None)
        mine = seat_of(around, user)
        rows.append(LobbyRow(table, around, to_move, mine is not None and to_move == mine))
    return rows


# --- correspondence tables and vacations ---------------------------------------------------


@dataclass(frozen=True)
class MoveDue:
    """A correspondence table where it is the viewer's move, and the time they have left."""

    table: PlayTable
    seats: list[PlaySeat]
    deadline: datetime.datetime
    left: str


def moves_due(user, now: datetime.datetime | None = None) -> list[MoveDue]:
    """The correspondence tables where it is the user's move, the one running out first
    first (for the lobby and the home page): two queries, however many."""
    if not user.is_authenticated:
        return []
    now = now or timezone.now()
    tables = list(
        PlayTable.objects.filter(
            seats__user=user,
            seats__left_at=None,
            seats__position=F("clock_seat"),
            status=PlayTable.Status.PLAYING,
            move_seconds__gte=CORRESPONDENCE_SECONDS,
            server_moves_at__isnull=False,
        ).order_by("server_moves_at", "pk")[:LOBBY_TABLES]
    )
    rows = _rows(tables, user) if tables else []
    return [
        MoveDue(
            row.table,
            row.seats,
            row.table.server_moves_at,
            correspondence.time_left(row.table.server_moves_at - now),
        )
        for row in rows
    ]


def on_vacation(table: PlayTable, seats: Sequence[PlaySeat], now=None) -> dict[int, Vacation]:
    """The vacations running now of the people at a correspondence table, by seat position
    (one query; none at another table)."""
    if not table.by_correspondence:
        return {}
    now = now or timezone.now()
    users = {seat.user_id: seat.position for seat in seats if seat.user_id and not seat.has_left}
    running = Vacation.objects.filter(user__in=users, starts_at__lte=now, ends_at__gt=now)
    return {users[vacation.user_id]: vacation for vacation in running}


def vacation_of(user, now=None) -> Vacation | None:
    """The user's vacation running now, or else the next one planned."""
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, ends_at__gt=now).order_by("starts_at").first()


# --- the spectators' board -----------------------------------------------------------------
# Every spectator of a version is shown the same board, so the first fetch's is kept and the
# others are given it. One rule says who a spectator is (`is_spectator`), for the fetch that
# answers from the cache before the table is read and for the one that renders the board.


def is_spectator(user, seats: Sequence[PlaySeat] | None = None) -> bool:
    """Whether this viewer watches the table as anyone may: no seat at it, nor one they
    resigned and left (their board says so). A visitor who is not signed in always is one,
    known without the seats; a signed-in viewer is not known to be one until they are read."""
    if not user.is_authenticated:
        return True
    return seats is not None and seat_of(seats, user) is None and not has_left(seats, user)


def board_seen(request: HttpRequest) -> tuple[int, int] | None:
    """The board the page showed before this one, as htmx names it (the board's hx-vals, sent
    with its fetch and with every move): what to announce is what happened since."""
    return spoken.parse_seen(request.GET.get("seen") or request.POST.get("seen"))


def shares_watched_board(
    request: HttpRequest, table: PlayTable, seats: Sequence[PlaySeat], error: str = ""
) -> bool:
    """Whether the board this request is shown is the one every spectator of the table's
    version is (htmx's fetch after a move, by a spectator): not at a table still waiting (each
    visitor is shown their own way to a seat), nor with a move clock (drawn against the time
    of the request), nor with a refusal."""
    return bool(
        request.htmx
        and not error
        and table.status != PlayTable.Status.WAITING
        and not table.move_seconds
        and is_spectator(request.user, seats)
    )


def watched_board(
    request: HttpRequest, pk: int, version: int, seats: Sequence[PlaySeat] | None = None
) -> str | None:
    """The spectators' board of this version of table `pk`, if this viewer is a spectator
    (`is_spectator`) and another spectator's fetch has rendered it already."""
    if not is_spectator(request.user, seats):
        return None
    return cache.get(watched_board_key(request, pk, version))


def keep_watched_board(request: HttpRequest, pk: int, version: int, html: str) -> None:
    """Keep the spectators' board of this version, rendered for a request that
    `shares_watched_board`."""
    # Defence in depth: a board with a form on it (a CSRF token) is never shared.
    if not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        cache.set(watched_board_key(request, pk, version), html, WATCHED_BOARD_SECONDS)


def watched_board_key(request: HttpRequest, pk: int, version: int) -> str:
    """Where the spectators' board of a version is kept: besides the version, it varies with
    the board the watcher saw before (what it announces), the language, the names of the
    table's players and which hidden ones the viewer may read."""
    since = board_seen(request)
    seen = "{}.{}".format(*since) if since else "-"
    return (
        f"play:watched:{pk}:{version}:{seen}:{get_language()}:{audience.cache_key(PlayTable, pk)}"
    )


def vacation_spans(user_id: int | None, *, since: datetime.datetime) -> list[correspondence.Span]:
    """A person's vacations not over by `since` (the running and the planned ones)."""
    if user_id is None:
        return []
    return list(
        Vacation.objects.filter(user_id=user_id, ends_at__gt=since).values_list(
            "starts_at", "ends_at"
        )
    )
