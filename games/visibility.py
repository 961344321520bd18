"""Which hidden players someone may see, read from the database, the middleware that sets who
is looking for each request, and which pages a change of names reaches (games.audience holds
the rule and shows the names; this module reads the rows it needs, so that the models, which
show names through audience, and audience never import each other)."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from core import versions
from games import audience, signals
from games.models import Match, Player, Seat

ANYONE_HIDES_KEY = "games:anyone-hides:{version}"
# Moved by every change of what a player shows of their name.
ANYONE_HIDES_VERSION_KEY = "games:anyone-hides-version"
# Kept for a version; a later version is read afresh.
ANYONE_HIDES_SECONDS = 24 * 3600


def hidden_players_seen_by(user) -> frozenset[int] | None:
    """The ids of the players who hide whom `user` may see (None: every one, for staff)."""
    if not user.is_authenticated:
        return frozenset()
    if user.is_staff or user.is_superuser:
        return None
    if not anyone_hides():
        return frozenset()
    matches = Match.objects.filter(
        Q(created_by=user) | Q(scorekeepers=user) | Q(seats__player__user=user)
    ).values("pk")
    shown = Q(user=user) | Q(seats__match__in=matches)
    for _receiver, more in signals.hidden_players_seen.send(sender=Player, user=user):
        if more is not None:
            shown |= Q(pk__in=more)
    found = Player.objects.filter(private=True).filter(shown).order_by().distinct()
    return frozenset(found.values_list("pk", flat=True))


def anyone_hides() -> bool:
    """Whether any player hides their name, read once for each version of it (every change of
    names moves it), so that while nobody hides a signed-in viewer costs no query. The version
    is read first: a change committed after the players are read moves it, so that what was
    read then is never kept under the version that follows it."""
    key = ANYONE_HIDES_KEY.format(version=versions.current(ANYONE_HIDES_VERSION_KEY))
    found = cache.get(key)
    if found is None:
        found = Player.objects.filter(private=True).exists()
        cache.set(key, found, ANYONE_HIDES_SECONDS)
    return found


def looking_as(user):
    """Show names as to `user` (an account, or AnonymousUser()), inside the `with` block."""
    return audience.looking(lambda: hidden_players_seen_by(user))


class AudienceMiddleware:
    """Sets who is looking for the request (after AuthenticationMiddleware); their account is
    read only when a hidden name is about to be shown."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        with audience.looking(lambda: hidden_players_seen_by(request.user)):
            return self.get_response(request)


def names_changed(players: Iterable[int]) -> None:
    """What these players show of their names changed (hidden, shown, renamed, merged into):
    the names versions of the pages that show them move, and whether anyone hides is read
    again; no other page's. Moved now, so that nothing cached before the change is read after
    it, and again once it is committed (the pages found again then), so that a page cached in
    between from the old rows is not read either: a page read then had read its version first.

    A player at many tables moves many versions, in one round trip to the cache (and a privacy
    change is rate-limited: settings.RATE_LIMITS["privacy"])."""
    players = list(players)

    def move() -> None:
        audience.move_names(pages_showing(players))
        versions.move(ANYONE_HIDES_VERSION_KEY)

    move()
    transaction.on_commit(move)


def pages_showing(players: list[int]) -> set[str]:
    """The pages whose cached fragments show these players' names: the matches they sat at,
    their profiles and those of everyone who sat with them (opponents are listed there), and
    what the apps built on this one answer (signals.pages_showing_players: played tables,
    tournaments)."""
    matches = Seat.objects.filter(player__in=players).values("match_id")
    met = Seat.objects.filter(match__in=matches).values_list("player_id", flat=True).distinct()
    pages = {audience.page(Match, pk) for pk in matches.values_list("match_id", flat=True)}
    pages |= {audience.page(Player, pk) for pk in [*players, *met]}
    for _receiver, shown in signals.pages_showing_players.send(sender=Player, players=players):
        pages |= {audience.page(model, pk) for model, pk in shown}
    return pages
