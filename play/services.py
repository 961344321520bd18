"""The services of tables played on the site: seat people and bots, apply each move under the
table's lock, let the server move for bots and absent players, store every finished round, let
a person leave (or resign) and fast-forward a round only bots are left to play.

The game itself is `cards101.engine`; its state lives in `PlayTable.state` and nowhere else, so
any server process can serve any table. Locks: the table's row, then its match's row.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cards101.bots import make_bot
from cards101.engine import Game, IllegalMove, Move
from cards101.rules import Variant
from core import live
from games import services
from games.bot_names import stored_bot_name
from games.labels import rules_message
from games.models import Match, Player
from games.services import own_player
from play import correspondence, reminders, signals
from play.board import fast_forward_offered
from play.models import PlaySeat, PlayTable
from play.queries import AtTable, at_table, vacation_spans

# A seat when a table is created: "me", "open" (someone with the link), or a bot's name.
ME, OPEN = "me", "open"
BOTS = tuple(PlaySeat.Bot.values)


def bot_delay() -> datetime.timedelta:
    """How long a bot waits before moving, so that people see each move (settings.py: tests
    need not wait)."""
    return datetime.timedelta(seconds=settings.PLAY_BOT_DELAY)


def round_pause() -> datetime.timedelta:
    """The pause after a round, before the server deals the next one itself."""
    return datetime.timedelta(seconds=settings.PLAY_ROUND_PAUSE)


# Who plays for a person whose timer ran out, or who is away.
STAND_IN = "greedy"


class TableError(Exception):
    """A request the table refuses; the message says why."""


class OwedMoveFailed(Exception):
    """The move the server owes at table `pk` failed (nothing of it was saved)."""

    def __init__(self, pk: int) -> None:
        super().__init__(pk)
        self.pk = pk


class TableMovedOn(TableError):
    """The move was made on a version of the table that is no longer current."""


def create_table(
    *,
    by,
    preset: str,
    variant: Variant,
    seats: Sequence[str],
    public: bool = False,
    move_seconds: int | None = None,
    seed: int | None = None,
    name: str = "",
) -> PlayTable:
    """A new table; the creator sits at seat 1. It starts when every seat is taken (dealt
    from `seed`, or at random)."""
    if not 2 <= len(seats) <= 4:
        raise TableError(_("A table has 2 to 4 seats."))
    if list(seats).count(ME) != 1 or seats[0] != ME:
        raise TableError(_("You sit at the first seat."))
    if any(seat not in (ME, OPEN, *BOTS) for seat in seats):
        raise TableError(_("Each seat is you, an open seat or a bot."))
    with transaction.atomic():
        table = PlayTable.objects.create(
            name=name,
            preset=preset,
            options=variant.as_dict(),
            seat_count=len(seats),
            public=public,
            move_seconds=move_seconds,
            invite=secrets.token_urlsafe(16),
            seed=secrets.randbits(62) if seed is None else seed,
            created_by=by,
        )
        PlaySeat.objects.bulk_create(
            PlaySeat(
                table=table,
                position=position,
                user=by if seat == ME else None,
                bot=seat if seat in BOTS else "",
            )
            for position, seat in enumerate(seats)
        )
        at = _load(table)
        _start_if_full(at)
    return at.table


def join(*, table: PlayTable, user, invite: str | None = None) -> PlaySeat:
    """Take the first open seat (by the invitation link, or from the lobby if public)."""
    with transaction.atomic():
        at = _load(table)
        table = at.table
        if table.status != PlayTable.Status.WAITING:
            raise TableError(_("This table has started; its seats are taken."))
        if not table.public and invite != table.invite:
            raise TableError(_("This table is private: join it through its invitation link."))
        if any(seat.user_id == user.pk for seat in at.seats):
            raise TableError(_("You already sit at this table."))
        seat = next((seat for seat in at.seats if seat.is_open), None)
        if seat is None:
            raise TableError(_("Every seat at this table is taken."))
        seat.user = user
        seat.save(update_fields=["user"])
        _start_if_full(at)
    return seat


def play(*, table: PlayTable | int, user, move: Move, version: int) -> AtTable:
    """A person's move, made on `version` of the table (or of the table with this id)."""
    with transaction.atomic():
        at, seat = _in_play(table, user, version)
        game = at.game
        if game.round_over:
            raise TableError(_("The round is over; the next one is dealt soon."))
        if game.to_move != seat.position:
            raise TableError(_("It is not your turn."))
        game.play(move)  # IllegalMove: nothing is saved
        if seat.timeouts:
            seat.timeouts = 0
            seat.save(update_fields=["timeouts"])
        _record_move(at, seat.position, move, by="")
    return at


def come_back(*, table: PlayTable, user) -> PlayTable:
    """A person whose seat played as a bot while they were away takes it back."""
    with transaction.atomic():
        at = _load(table)
        seat = _seated(at, user)
        if seat.timeouts:
            seat.timeouts = 0
            seat.save(update_fields=["timeouts"])
            if at.game is not None:
                _set_clock(at)
            _save(at.table, *CLOCK_FIELDS)
    return at.table


def next_round(*, table: PlayTable | int, user, round_number: int) -> AtTable:
    """Deal the round after round `round_number` (1-based, as the board shows it) once that one is
    over (any seated person may). Dealt already (by the server, or another person): nothing to
    do, and nothing refused."""
    with transaction.atomic():
        at = _load(table)
        _seated(at, user)
        if at.game is None or at.game.round + 1 != round_number:
            return at
        _deal_next(at)  # refused while the round is played
    return at


def step(*, table: PlayTable, now: datetime.datetime | None = None) -> bool:
    """Make the move the server owes, if it is due: a bot's, a stand-in's for a person whose
    timer ran out or who is away, or the next deal after a round. One move at a time, so that
    people see them; returns whether anything changed."""
    now = now or timezone.now()
    with transaction.atomic():
        at = _load(table)
        if at.table.server_moves_at is None or now < at.table.server_moves_at:
            return False
        if at.game.round_over:
            _deal_next(at)
            return True
        _server_move(at)
    return True


def step_due(now: datetime.datetime | None = None) -> int | None:
    """The clock's work (play/management/commands/play_worker.py): the move the server owes
    at one table whose time has come, taken so that two workers never take the same table
    (a row lock skipped by the others; on SQLite, whose writers queue whole, the due time is
    read again under the write lock). Returns the table's id, or None if none is due."""
    now = now or timezone.now()
    with transaction.atomic():
        # The table whose time came first, locked, skipping those another worker holds.
        table = (
            PlayTable.objects.select_for_update(skip_locked=True)
            .filter(server_moves_at__lte=now)
            .order_by("server_moves_at")
            .first()
        )
        if table is None:
            return None
        try:
            step(table=table, now=now)
        except Exception as error:
            raise OwedMoveFailed(table.pk) from error
    return table.pk


def put_aside(pk: int, delay: datetime.timedelta) -> None:
    """A table whose owed move failed is tried again after `delay`, not at once, so that the
    clock goes on with the others (it does not move the version: nothing changed). Only if it
    still owes a move: another worker may have made it since, and the table now waits for a
    person, whose move the server must not make."""
    with transaction.atomic():
        PlayTable.objects.filter(pk=pk, server_moves_at__isnull=False).update(
            server_moves_at=timezone.now() + delay
        )


def next_due() -> datetime.datetime | None:
    """When the server owes its next move at any table, if it does."""
    return (
        PlayTable.objects.filter(server_moves_at__isnull=False)
        .order_by("server_moves_at")
        .values_list("server_moves_at", flat=True)
        .first()
    )


def leave(*, table: PlayTable, user, status: str) -> PlayTable:
    """Leave the table, seen with `status` (waiting or playing: what leaving means; the bots'
    moves meanwhile change nothing of it).

    While the table waits for players, the seat is simply open again (whoever has the link may
    take it; the table stays its creator's). Once the game is played, leaving is resigning: the
    person no longer sits there (no hand, no moves, not among their tables), and the stand-in
    plays the seat, as for someone away, to the end of the match. The match's record is the
    match as played out: the seat's player keeps the rounds played before and after, and the
    result stands (a resignation is not scored as a loss of its own, and the rules have none).
    """
    with transaction.atomic():
        at = _load(table)
        table = at.table
        seat = _seated(at, user)
        if table.status == PlayTable.Status.FINISHED:
            raise TableError(_("The match is over."))
        if table.status != status:
            raise TableMovedOn(_("The table has moved on; here it is now."))
        if table.status == PlayTable.Status.WAITING:
            seat.user = None
            seat.save(update_fields=["user"])
            _save(table)
            return table
        seat.left_at = timezone.now()
        seat.save(update_fields=["left_at"])
        if not at.game.round_over and at.game.to_move == seat.position:
            # The stand-in moves after the bots' pause, not when the timer runs out.
            _set_clock(at)
        _save(table, *CLOCK_FIELDS)
    return table


def fast_forward(*, table: PlayTable | int, user, round_number: int) -> AtTable:
    """Play the rest of round `round_number` (1-based, as the board shows it) at once, for a
    person out of it while only bots and stand-ins are left to move in it
    (`play.board.fast_forward_offered`): every move the server owes, in this one transaction
    and without the bots' pause, each recorded as `step` records it. The next deal waits as
    after any round. The bots' moves meanwhile refuse nothing: a round they ended already is
    simply over."""
    with transaction.atomic():
        at = _load(table)
        seat = _seated(at, user)
        if at.game is None or at.game.round + 1 != round_number or at.game.round_over:
            return at
        if at.table.status != PlayTable.Status.PLAYING:
            raise TableError(_("The game is not being played."))
        if not fast_forward_offered(at.game.view(seat.position), at.seats, seat):
            raise TableError(
                _("You may fast-forward only a round you are out of, with only bots left in it.")
            )
        while not at.game.round_over:
            _server_move(at)
    return at


def rematch(*, table: PlayTable, by) -> PlayTable:
    """A new table with the same seats and rules; the people are invited again by its link.
    Asked again (a double click), it is the same new table."""
    with transaction.atomic():
        at = _load(table)
        table = at.table
        if table.status != PlayTable.Status.FINISHED:
            raise TableError(_("The game is still being played."))
        _seated(at, by)
        earlier = PlayTable.objects.filter(rematch_of=table, created_by=by).first()
        if earlier is not None:
            return earlier
        seats = [ME if seat.user_id == by.pk else (seat.bot or OPEN) for seat in at.seats]
        # The one who asks sits first.
        seats.remove(ME)
        new = create_table(
            by=by,
            preset=table.preset,
            variant=table.variant,
            seats=[ME, *seats],
            public=table.public,
            move_seconds=table.move_seconds,
            name=table.name,
        )
        PlayTable.objects.filter(pk=new.pk).update(rematch_of=table)
        new.rematch_of = table
    return new


# --- inside the transaction ----------------------------------------------------------------


def _in_play(table: PlayTable | int, user, version: int) -> tuple[AtTable, PlaySeat]:
    """The locked table, read whole, and the user's seat, for a change made on `version`
    while the game is played; refused otherwise."""
    at = _load(table)
    seat = _seated(at, user)
    if at.table.version != version:
        raise TableMovedOn(_("The table has moved on; here it is now."))
    if at.table.status != PlayTable.Status.PLAYING:
        raise TableError(_("The game is not being played."))
    return at, seat


def _load(table: PlayTable | int) -> AtTable:
    """The table (or the table with this id) locked and read whole."""
    return at_table(table if isinstance(table, int) else table.pk, for_update=True)


def _seated(at: AtTable, user) -> PlaySeat:
    """The user's seat at the locked table; someone who resigned and left sits there no more."""
    seat = next((s for s in at.seats if s.user_id == user.pk and s.left_at is None), None)
    if seat is None:
        raise TableError(_("You do not sit at this table."))
    return seat


def _server_move(at: AtTable) -> None:
    """Make the move the server owes the seat to move (the game is not between rounds): its
    bot's, or the stand-in's for a person whose timer ran out, who is away or who left."""
    table, game = at.table, at.game
    seat = at.seat_at(game.to_move)
    # The person's time ran out now (not someone away already, nor someone who left): told.
    ran_out = False
    if seat.bot:
        name, by = seat.bot, seat.bot
    else:
        name, by = STAND_IN, "left" if seat.has_left else "timer"
        if not seat.is_away:
            ran_out = True
            seat.timeouts += 1
            seat.save(update_fields=["timeouts"])
    view = game.view(seat.position)
    bot = make_bot(name, seed=table.pk * 1_000_003 + table.version)
    move = bot.choose(view, game.legal_moves())
    game.play(move)
    log = None if seat.bot else (len(view["log"]), len(game.view(seat.position)["log"]))
    _record_move(at, seat.position, move, by=by, log=log)
    if ran_out:
        signals.moved_for_person.send(
            sender=PlayTable,
            table=table,
            seat=seat,
            user=seat.user,
            move=move,
            number=table.moves_made,
            away=seat.is_away,
        )


def _start_if_full(at: AtTable) -> None:
    table, seats = at.table, at.seats
    if any(seat.is_open for seat in seats):
        _save(table)
        return
    for seat, player in zip(seats, _players(seats), strict=True):
        seat.player = player
    PlaySeat.objects.bulk_update(seats, ["player"])
    table.match = services.create_match(
        created_by=table.created_by,
        players=[seat.player for seat in seats],
        preset=table.preset,
        variant=table.variant,
        kind=Match.Kind.ONLINE,
    )
    at.game = Game.new(table.variant, players=len(seats), seed=table.seed)
    table.status = PlayTable.Status.PLAYING
    table.state = at.game.to_json()
    _set_clock(at)
    _save(table, "match", "status", "state", *CLOCK_FIELDS)


def _players(seats: list[PlaySeat]) -> list[Player]:
    """Each seat's player: the person's own, or a bot's (the same for every table, one per
    strength and number, so that a bot's games add up)."""
    players, bots_seen = [], []
    for seat in seats:
        if seat.user_id is not None:
            player = own_player(seat.user)
        else:
            bots_seen.append(seat.bot)
            number = bots_seen.count(seat.bot)
            # Stored in English, once for everyone; pages translate it (Player.__str__).
            name = stored_bot_name(seat.bot, number)
            player = Player.objects.get_or_create(name=name, user=None, added_by=None, is_bot=True)[
                0
            ]
        players.append(player)
    return players


def _record_move(
    at: AtTable, position: int, move: Move, *, by: str, log: tuple[int, int] | None = None
) -> None:
    """Keep the move just made in `at.game` and save the table with it; `log`, the events of
    the round's log it made (kept for the stand-in's)."""
    table, game = at.table, at.game
    table.moves_made += 1
    table.moves.create(
        round=game.view(position)["round"],
        number=table.moves_made,
        seat=position,
        move=move.to_json(),
        by=by,
    )
    if log is not None:
        table.site_moves = [*table.site_moves, [position, *log]]
    if game.round_over:
        services.store_played_round(match=table.match, outcomes=game.round_outcomes, cut=game.cut)
        signals.round_finished.send(sender=PlayTable, table=table, round=game.round)
        if game.match_over:
            table.status = PlayTable.Status.FINISHED
    table.state = game.to_json()
    _set_clock(at)
    _save(table, "state", "status", "moves_made", "site_moves", *CLOCK_FIELDS)


def _deal_next(at: AtTable) -> None:
    try:
        at.game.next_round()
    except IllegalMove as error:
        raise TableError(rules_message(error)) from None
    at.table.state = at.game.to_json()
    at.table.site_moves = []
    _set_clock(at)
    _save(at.table, "state", "site_moves", *CLOCK_FIELDS)


# What the clock of the next move sets (`_set_clock`), saved with every move.
CLOCK_FIELDS = ("server_moves_at", "clock_seat", "clock_started_at", "remind_at")


def _set_clock(at: AtTable) -> None:
    """Set when the server moves next by itself, if it does, and the clock of the person to
    move, if one runs: at a correspondence table its deadline passes over their vacations,
    and they are reminded before it (`correspondence`)."""
    now, table, game = timezone.now(), at.table, at.game
    table.clock_seat = table.clock_started_at = table.remind_at = None
    table.server_moves_at = None
    if game.match_over:
        return
    if game.round_over:
        table.server_moves_at = now + round_pause()
        return
    seat = at.seat_at(game.to_move)
    if seat.bot or seat.is_away:
        table.server_moves_at = now + bot_delay()
        return
    if not table.move_seconds:
        return
    table.clock_seat, table.clock_started_at = seat.position, now
    if not table.by_correspondence:
        table.server_moves_at = now + datetime.timedelta(seconds=table.move_seconds)
        return
    correspondence.reclock(table, vacation_spans(seat.user_id, since=now))
    reminders.remind_later(table)


def _save(table: PlayTable, *fields: str) -> None:
    """Save the locked table's changed fields and move its version; the browsers watching
    the table hear of it once the transaction commits."""
    live.moved(table, *fields)
    signals.table_changed.send(sender=PlayTable, table=table)
