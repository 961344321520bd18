"""What notify hears from the apps below it, and the notifications it writes for it (in the
transaction of the change that causes them). What no signal says is looked for by its
periodic tasks (notify.tasks)."""

from __future__ import annotations

import datetime
import logging

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.urls import reverse
from django.utils import translation

from claims.models import Claim
from claims.queries import deciders
from claims.signals import claim_decided, claim_opened
from games.models import Seat
from games.signals import round_waits_confirmation
from notify import kinds, preferences, services, time_zones
from play.signals import move_time_running_out, moved_for_person
from tournaments.models import Table
from tournaments.signals import round_clock_started, round_seated

logger = logging.getLogger(__name__)


@receiver(move_time_running_out)
def deadline_near(sender, *, table, user, deadline: datetime.datetime, **kwargs) -> None:
    """A correspondence move's time runs low: the person is reminded (written in the
    worker's transaction that marks the reminder sent, so once)."""
    if user is not None:
        services.remind_move_deadline(
            user=user, table_id=table.pk, name=str(table), deadline=deadline
        )


@receiver(moved_for_person)
def site_moved(sender, *, table, user, move, number: int, away: bool, **kwargs) -> None:
    """The site moved for a person whose time ran out at a correspondence table, where they
    are not looking: told what it played (written in the transaction of the move). At a live
    table they are at the board, whose log says it."""
    if user is not None and table.by_correspondence:
        services.tell_moved_for(
            user=user,
            table_id=table.pk,
            name=table.name,
            started=table.created_at,
            number=number,
            move=move,
            away=away,
        )


def _seated_accounts(match_id: int):
    return (
        Seat.objects.filter(match_id=match_id, player__user__isnull=False)
        .select_related("player__user")
        .order_by("position")
    )


@receiver(round_seated)
def tell_tables(sender, *, round_, players: list[int] | None = None, **kwargs) -> None:
    """Each seated account (of `players`, when two swapped seats): its table's number, seat
    and the others at it, and a link; told again wherever their table or seat changed."""
    tournament = round_.tournament
    for table in round_.tables.select_related("match"):
        seats = list(table.match.seats.select_related("player__user").order_by("position"))
        for seat in seats:
            user = seat.player.user
            if user is None or (players is not None and seat.player_id not in players):
                continue
            services.tell(
                user=user,
                told=kinds.Seated(
                    round_id=round_.pk,
                    match_id=table.match_id,
                    position=seat.position,
                    tournament=tournament.name,
                    round=round_.number,
                    final=round_.is_final,
                    table=table.number,
                    seat=seat.position + 1,
                    # They sat down together: each may read the others' names (games.audience).
                    others=[other.player.name for other in seats if other.pk != seat.pk],
                    path=table.match.get_absolute_url(),
                ),
            )


@receiver(round_clock_started)
def tell_clock(sender, *, round_, **kwargs) -> None:
    tournament = round_.tournament
    stamp = int(round_.clock_started_at.timestamp())
    for table in round_.tables.all():
        for seat in _seated_accounts(table.match_id):
            services.tell(
                user=seat.player.user,
                told=kinds.ClockStarted(
                    round_id=round_.pk,
                    stamp=stamp,
                    tournament=tournament.name,
                    round=round_.number,
                    minutes=round_.clock_minutes,
                    path=reverse("games:match", args=[table.match_id]),
                ),
            )


@receiver(round_waits_confirmation)
def tell_to_confirm(sender, *, round_, match, by, **kwargs) -> None:
    """The other accounts at the table may confirm the round: told which round, at which
    table of which night (a round confirmed or changed before it is sent is not sent:
    queries.still_wanted)."""
    table = Table.objects.filter(match=match).select_related("round__tournament").first()
    at_a_night = {}
    if table is not None:
        at_a_night = {
            "tournament": table.round.tournament.name,
            "tournament_round": table.round.number,
            "final": table.round.is_final,
            "table": table.number,
        }
    told = kinds.ToConfirm(
        round_id=round_.pk,
        version=round_.version,
        round=round_.number,
        started=match.created_at.isoformat(),
        path=match.get_absolute_url(),
        **at_a_night,
    )
    for seat in _seated_accounts(match.pk):
        if by is not None and seat.player.user_id == by.pk:
            continue
        services.tell(user=seat.player.user, told=told)


@receiver(claim_opened)
def tell_deciders(sender, *, claim: Claim, **kwargs) -> None:
    users = get_user_model().objects.filter(pk__in=deciders(claim), is_active=True)
    for user in users:
        services.tell(
            user=user,
            told=kinds.ClaimWaiting(
                claim_id=claim.pk,
                guest=claim.guest_name,
                account=claim.user.get_username(),
                path=reverse("claims:claims"),
            ),
        )


@receiver(claim_decided)
def tell_asker(sender, *, claim: Claim, by, **kwargs) -> None:
    asker = claim.asked_by
    if asker is None or asker.pk == by.pk:
        return
    services.tell(
        user=asker,
        told=kinds.ClaimDecided(
            claim_id=claim.pk,
            guest=claim.guest_name,
            approved=claim.status == Claim.Status.APPROVED,
            path=reverse("claims:claims"),
        ),
    )


@receiver(user_logged_in)
def language_at_login(sender, *, request, user, **kwargs) -> None:
    """The language a person logs in with is the one their messages are written in, until
    they switch (config.views.set_language_kept); kept at login and at a switch, never on a
    page's GET."""
    language = getattr(request, "LANGUAGE_CODE", None) or translation.get_language()
    if language:
        services.remember_language(user=user, language=language)


@receiver(user_logged_in)
def time_zone_at_login(sender, *, request, user, **kwargs) -> None:
    """The pages of this session show times in the zone the person chose (notify.time_zones);
    the zone their browser is in is kept for their messages, should they choose none."""
    if request is not None and hasattr(request, "session"):
        time_zones.remember(request, preferences.settings_of(user).time_zone)
        services.remember_browser_zone(user=user, name=request.COOKIES.get(time_zones.COOKIE, ""))
