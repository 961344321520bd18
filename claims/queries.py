"""What the claims' pages read: who may judge a guest and decide its claims, what waits for a
user's decision, whether a player can be claimed, and the answers to the games app's
questions (has a user confirmed a guest of this scorekeeper, who was asked at a match)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from claims import signals
from claims.models import Claim
from core.names import sort_key
from games.models import Match, Player, Seat


def judges(guest: Player) -> set[int]:
    """The ids of the accounts that may approve or refuse claims of this guest."""
    return judges_of([guest])[guest.pk]


def judges_of(guests: Iterable[Player]) -> dict[int, set[int]]:
    """`judges` of each of these guests, by guest id, in a fixed number of queries."""
    guests = list(guests)
    ids: dict[int, set[int]] = {guest.pk: set() for guest in guests}
    for guest in guests:
        if guest.added_by_id is not None:
            ids[guest.pk].add(guest.added_by_id)
    for _receiver, pairs in signals.player_judges.send(sender=Player, player_ids=list(ids)):
        for guest_id, user_id in pairs or ():
            ids[guest_id].add(user_id)
    return ids


def may_judge(guest: Player, user) -> bool:
    return user.is_authenticated and user.pk in judges(guest)


def deciders(claim: Claim, judged: set[int] | None = None) -> set[int]:
    """The ids of the accounts that may decide this claim: for a link, the account's user; for
    a claim, the guest's judges other than whoever asked, or, when there is no other, the
    site's staff. `judged`: the guest's judges, when the caller has them already."""
    if claim.kind == Claim.Kind.LINK:
        return {claim.user_id}
    if judged is None:
        judged = judges(claim.guest) if claim.guest is not None else set()
    others = judged - {claim.asked_by_id}
    if others:
        return others
    return set(
        get_user_model()
        .objects.filter(is_staff=True, is_active=True)
        .exclude(pk=claim.asked_by_id)
        .values_list("pk", flat=True)
    )


def may_decide(claim: Claim, user, judged: set[int] | None = None) -> bool:
    return user.is_authenticated and user.pk in deciders(claim, judged)


def claimable_problem(guest: Player) -> str | None:
    """Why nobody can claim this player, or None."""
    if guest.is_bot:
        return _("A bot is nobody's profile: it cannot be claimed.")
    if guest.user_id is not None:
        return _("This player already has an account.")
    return None


def sat_together(guest: Player, player: Player) -> bool:
    return Seat.objects.filter(player=guest, match__seats__player=player).exists()


def waiting(user, limit: int = 200) -> tuple[list[Claim], list[Claim]]:
    """What waits for this user's decision: claims they decide (of the `limit` oldest pending
    claims of others), and links to their account they confirm. One query when nothing waits."""
    pending = list(
        Claim.objects.filter(status=Claim.Status.PENDING)
        .filter(Q(kind=Claim.Kind.CLAIM) | Q(kind=Claim.Kind.LINK, user=user))
        .exclude(asked_by=user)
        .select_related("guest", "user", "asked_by")
        .order_by("asked_at", "pk")[: limit + 1]
    )
    to_confirm = [claim for claim in pending if claim.kind == Claim.Kind.LINK]
    claims = [claim for claim in pending if claim.kind == Claim.Kind.CLAIM and claim.guest]
    if len(pending) > limit:  # more than one read brings: the rest by themselves
        to_confirm = list(
            Claim.objects.filter(status=Claim.Status.PENDING, kind=Claim.Kind.LINK, user=user)
            .exclude(asked_by=user)
            .select_related("guest", "user", "asked_by")
        )
        claims = claims[:limit]
    judged = judges_of({claim.guest for claim in claims})
    to_decide = [claim for claim in claims if may_decide(claim, user, judged[claim.guest_id])]
    return to_decide, to_confirm


def show_deciders(claims: Iterable[Claim], judged: dict[int, set[int]] | None = None) -> None:
    """Say on each pending claim who decides it, for its page: `deciders_shown`, their players
    in name order, or `by_staff` when nobody but the site's staff can. `judged`: the judges of
    the claims' guests, by guest id, when the caller has them already."""
    claims = [claim for claim in claims if claim.is_pending]
    if judged is None:
        judged = judges_of({claim.guest for claim in claims if claim.guest is not None})
    ids: dict[int, set[int]] = {}
    for claim in claims:
        if claim.kind == Claim.Kind.LINK:
            ids[claim.pk] = {claim.user_id}
        else:
            ids[claim.pk] = judged.get(claim.guest_id, set()) - {claim.asked_by_id}
        claim.by_staff = not ids[claim.pk]
    wanted = {user_id for users in ids.values() for user_id in users}
    found = {player.user_id: player for player in Player.objects.filter(user__in=wanted)}
    for claim in claims:
        shown = [found[user_id] for user_id in ids[claim.pk] if user_id in found]
        claim.deciders_shown = sorted(shown, key=lambda player: sort_key(player.name))


def confirmed_a_guest_of(user, by) -> bool:
    """Has `user` confirmed that one of `by`'s guests was them? Then they know each other, and
    `by`'s tables count on `user`'s record at once (games.signals.tables_counted)."""
    return Claim.objects.filter(
        kind=Claim.Kind.LINK, user=user, asked_by=by, status=Claim.Status.APPROVED
    ).exists()


def asked_at(match: Match, by) -> list[str]:
    """The usernames of the accounts `by` asked to confirm a guest seated at `match`, and who
    have not answered yet (games.signals.stand_ins_waiting)."""
    return list(
        Claim.objects.filter(
            kind=Claim.Kind.LINK,
            status=Claim.Status.PENDING,
            asked_by=by,
            guest__seats__match=match,
        ).values_list("user__username", flat=True)
    )


@dataclass(frozen=True)
class ToConfirm:
    """A guest a scorekeeper or a director seated for `user`'s account, waiting for them to say
    it is them: what the request shows where they look (their home page, the tournament's page,
    the table), with the address of the one-tap answer and of the table it is about."""

    claim_id: int
    guest_name: str
    asked_by: str
    decide_url: str
    table_url: str | None  # the guest's latest table not finished yet, if any


def to_confirm(user, players: QuerySet | Iterable[int] | None = None) -> list[ToConfirm]:
    """The guests seated for `user`'s account by others and not answered yet (pending links),
    oldest first; only those among `players` (ids, or a one-column queryset read in the same
    query) when given. Two queries when any waits, one otherwise."""
    if not user.is_authenticated:
        return []
    links = (
        Claim.objects.filter(
            kind=Claim.Kind.LINK, status=Claim.Status.PENDING, user=user, guest__isnull=False
        )
        .exclude(asked_by=user)
        .select_related("asked_by")
        .order_by("asked_at", "pk")
    )
    if players is not None:
        links = links.filter(guest_id__in=players)
    links = list(links)
    if not links:
        return []
    tables: dict[int, int] = {}
    for guest_id, match_id in (
        Seat.objects.filter(
            player_id__in=[link.guest_id for link in links],
            match__status=Match.Status.RUNNING,
        )
        .order_by("match_id")
        .values_list("player_id", "match_id")
    ):
        tables[guest_id] = match_id  # the latest
    return [
        ToConfirm(
            claim_id=link.pk,
            guest_name=link.guest_name,
            asked_by=str(link.asked_by or ""),
            decide_url=reverse("claims:claim_decide", args=[link.pk]),
            table_url=(
                reverse("games:match", args=[tables[link.guest_id]])
                if link.guest_id in tables
                else None
            ),
        )
        for link in links
    ]


def asked_to_confirm(players: QuerySet | Iterable[int]) -> list[str]:
    """The usernames of the accounts asked to confirm that one of these players (guests) is
    them, and who have not answered yet: a director adding them is told at once."""
    return sorted(
        set(
            Claim.objects.filter(
                kind=Claim.Kind.LINK, status=Claim.Status.PENDING, guest_id__in=players
            ).values_list("user__username", flat=True)
        ),
        key=sort_key,
    )
