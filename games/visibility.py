"""Which hidden players someone may see, read from the database, and the middleware that sets
who is looking for each request (games.audience holds the rule and shows the names; this
module reads the rows it needs, so that the models, which show names through audience, and
audience never import each other)."""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Q

from games import audience, signals
from games.models import Match, Player

ANYONE_HIDES_KEY = "games:anyone-hides:{version}"
# Kept for a names version; a later version is read afresh.
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
    """Whether any player hides their name, read once for each names version (hiding moves
    it), so that while nobody hides a signed-in viewer costs no query. The version is read
    first: a change committed after the players are read moves it, so that what was read then
    is never kept under the version that follows it (the admin's player page moves it too)."""
    key = ANYONE_HIDES_KEY.format(version=audience.names_version())
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
