"""What notify reads: the moves waiting for someone who is not looking, the tournaments of
the day, and what a person's Notifications page shows."""

from __future__ import annotations

import datetime

from django.db.models import Exists, F, OuterRef, Q
from django.urls import reverse

from clubs.models import Member
from clubs.rights import RUNS
from games.models import Round
from notify import kinds, preferences
from notify.models import Delivery, Kind, Notification
from play.models import PlayMove, PlaySeat, PlayTable
from play.queries import seat_to_move
from tournaments.models import Entrant, Tournament

# A seat whose page polled within this is watched (the page polls every 15 s; a tab in the
# background, whose timers the browser slows to once a minute, is not).
WATCHING = datetime.timedelta(seconds=45)
# Tables moved longer ago than this are not live play any more: nobody is told of them.
LIVE_WINDOW = datetime.timedelta(hours=6)
# What the Notifications page lists of what was sent.
RECENT = 20


# Whose move each table's version is (the state is read once a version, not once a pass).
_to_move: dict[tuple[int, int], int | None] = {}
_KEPT = 5000


def moves_waiting(
    now: datetime.datetime, *, waited: datetime.timedelta
) -> list[tuple[object, kinds.YourMove]]:
    """The people whose move has waited at least `waited` at a live table whose page they
    have not had open for WATCHING, and who were not told of this move, nor of another at
    this table since they last moved themselves: (the person, what they are told)."""
    told = Notification.objects.filter(
        user=OuterRef("user_id"),
        key=kinds.YourMove.key_in_sql(table_id="table_id", moves_made="table__moves_made"),
    )
    seats = (
        PlaySeat.objects.filter(
            user__isnull=False,
            bot="",
            left_at__isnull=True,
            timeouts__lt=2,
            table__status=PlayTable.Status.PLAYING,
            table__updated_at__lte=now - waited,
            table__updated_at__gte=now - LIVE_WINDOW,
        )
        .filter(Q(watched_at__isnull=True) | Q(watched_at__lt=now - WATCHING))
        .exclude(Exists(told))
        .values_list("position", "user_id", "table_id", "table__version", "table__moves_made")
    )
    rows = list(seats)
    unknown = {(table, version) for _p, _u, table, version, _m in rows} - _to_move.keys()
    if unknown:
        if len(_to_move) > _KEPT:
            _to_move.clear()
        for table in PlayTable.objects.filter(pk__in={pk for pk, _v in unknown}).only(
            "pk", "status", "state", "version"
        ):
            _to_move[(table.pk, table.version)] = seat_to_move(table)
    due = [row for row in rows if _to_move.get((row[2], row[3])) == row[0]]
    if not due:
        return []
    tables = PlayTable.objects.in_bulk({row[2] for row in due})
    users = {
        seat.user_id: seat.user
        for seat in PlaySeat.objects.filter(
            table_id__in=tables, user_id__in={row[1] for row in due}
        ).select_related("user")
    }
    waiting = []
    for position, user_id, table_id, _version, moves_made in due:
        if _told_since_own_move(user_id, table_id, position):
            continue
        table = tables[table_id]
        waiting.append(
            (
                users[user_id],
                kinds.YourMove(
                    table_id=table_id,
                    moves_made=moves_made,
                    name=table.name,
                    started=table.created_at.isoformat(),
                    path=reverse("play:table", args=[table_id]),
                ),
            )
        )
    return waiting


def _told_since_own_move(user_id: int, table_id: int, position: int) -> bool:
    """Whether the person was told of a move at this table after the last move they made
    there themselves (a stand-in's moves for them do not count: at most once until they
    move)."""
    last = (
        Notification.objects.filter(
            user_id=user_id, kind=Kind.YOUR_MOVE, key__startswith=kinds.YourMove.prefix(table_id)
        )
        .values_list("created_at", flat=True)
        .first()
    )
    if last is None:
        return False
    own = PlayMove.objects.own().filter(table_id=table_id, seat=position, at__gt=last)
    return not own.exists()


def tournaments_today(now: datetime.datetime) -> list[tuple[object, kinds.TournamentDay]]:
    """(account, what it is told) for each account registered for a tournament played today
    (in the site's time zone), not finished; not those already checked in at the roll call,
    nor the night's directors (who made it, were named for it, or run its club): they know."""
    today = now.astimezone(preferences.zone_of(preferences.Settings())).date()
    told = Notification.objects.filter(
        user=OuterRef("player__user_id"),
        key=kinds.TournamentDay.key_in_sql(tournament_id="tournament_id"),
    )
    directing = Tournament.directors.through.objects.filter(
        tournament_id=OuterRef("tournament_id"), user_id=OuterRef("player__user_id")
    )
    running_its_club = Member.objects.filter(
        club_id=OuterRef("tournament__club_id"),
        player__user_id=OuterRef("player__user_id"),
        role__in=RUNS,
    )
    entries = (
        Entrant.objects.filter(
            tournament__date=today,
            player__user__isnull=False,
            player__user__is_active=True,
            dropped_after_round__isnull=True,
            checked_in=False,
        )
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .exclude(player__user=F("tournament__created_by"))
        .exclude(Exists(directing))
        .exclude(Exists(running_its_club))
        .exclude(Exists(told))
        .select_related("tournament", "player__user")
    )
    return [
        (
            entry.player.user,
            kinds.TournamentDay(
                tournament_id=entry.tournament_id,
                tournament=entry.tournament.name,
                place=entry.tournament.place,
                path=entry.tournament.get_absolute_url(),
            ),
        )
        for entry in entries
    ]


def recent_deliveries(user) -> list[Delivery]:
    """What was sent to the person lately, or is waiting, or was given up, newest first."""
    return list(
        Delivery.objects.filter(notification__user=user)
        .select_related("notification")
        .order_by("-notification__created_at", "-pk")[:RECENT]
    )


def no_longer_wanted(notifications: list[Notification]) -> set[int]:
    """The ids of those whose cause has been settled since they were written, so that sending
    them would ask for what is done: a round to confirm that was confirmed, changed (its own
    notification follows) or deleted meanwhile. One query."""
    settled = _checked_in_already(notifications)
    told = {notification.pk: kinds.read(notification) for notification in notifications}
    waiting = {
        pk: (round_.round_id, round_.version)
        for pk, round_ in told.items()
        if isinstance(round_, kinds.ToConfirm)
    }
    if not waiting:
        return settled
    still = set(
        Round.objects.filter(
            pk__in={round_id for round_id, _version in waiting.values()},
            confirmed_at__isnull=True,
        ).values_list("pk", "version")
    )
    return settled | {pk for pk, round_ in waiting.items() if round_ not in still}


def _checked_in_already(notifications: list[Notification]) -> set[int]:
    """The ids of the "played today" reminders whose person was checked in meanwhile (one
    query, none when there is no such reminder)."""
    days = {
        notification.pk: (notification.user_id, int(fields["tournament_id"]))
        for notification in notifications
        if (fields := kinds.TournamentDay.fields_of(notification.key))
    }
    if not days:
        return set()
    present = set(
        Entrant.objects.filter(
            tournament_id__in={tournament for _user, tournament in days.values()},
            player__user_id__in={user for user, _tournament in days.values()},
            checked_in=True,
        ).values_list("player__user_id", "tournament_id")
    )
    return {pk for pk, pair in days.items() if pair in present}
