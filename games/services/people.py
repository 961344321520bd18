"""Who sits at a match: the players a scorekeeper means by the names they type, the guests
standing in for accounts until these confirm, and an account's own player and its
preferences (large print)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from core.validators import normalize_name
from games import signals
from games.models import Player


def players_for_names(names: Sequence[str], *, added_by) -> list[Player]:
    """The players a scorekeeper (`added_by`) means by these names.

    Their own username is their own player. Another account's username is that account's
    player only when the account counts `added_by`'s tables (`counts_for`); otherwise nobody's
    record changes without them: the seat goes to a guest of `added_by` with that name, and the
    account is asked to confirm that the guest is them (`signals.account_named`: the claims
    app opens a link). Any other
    name is a guest of `added_by`: a name already used by their guests is the same guest; two
    guests may share a name only as two different people at different tables, never at one.
    """
    players: list[Player] = []
    with transaction.atomic():  # a guest and the link asking its account, together
        for name in map(normalize_name, names):
            account = (
                Player.objects.filter(user__username__iexact=name).select_related("user").first()
            )
            players.append(
                _seated(account, added_by, players) if account else _guest(name, added_by, players)
            )
    return players


def counts_for(user, by) -> bool:
    """Do tables kept by `by` count on `user`'s record? Their own do; someone else's once an
    app says so (`signals.tables_counted`: the claims app, once the user has confirmed that one
    of `by`'s guests was them, so they know each other)."""
    if user.pk == by.pk:
        return True
    answers = signals.tables_counted.send(sender=Player, user=user, by=by)
    return any(counted for _receiver, counted in answers)


def _seated(account: Player, by, taken: Sequence[Player]) -> Player:
    """The account's player when it counts `by`'s tables, else a guest standing in for it until
    the account confirms."""
    if counts_for(account.user, by):
        return account
    stand_in = _guest(account.user.get_username(), by, taken, private=account.private)
    signals.account_named.send(sender=Player, guest=stand_in, user=account.user, by=by)
    return stand_in


def _guest(name: str, added_by, taken: Sequence[Player], private: bool = False) -> Player:
    """`added_by`'s guest of this name (a new one if they have none free). A guest standing in
    for an account that hides its name is hidden as well (claims.services.set_private)."""
    return (
        Player.objects.filter(user=None, is_bot=False, added_by=added_by, name__iexact=name)
        .exclude(pk__in=[player.pk for player in taken])
        .order_by("pk")
        .first()
    ) or Player.objects.create(name=name, added_by=added_by, private=private)


def own_player(user) -> Player:
    """The account's player (every account has one; made here if an old account lacks it)."""
    return Player.objects.get_or_create(user=user, defaults={"name": user.get_username()})[0]


def set_large_print(*, user, large: bool) -> Player:
    """The account's large print on or off (games.large_print reads it at each login). No page
    cached for others shows it, so no version moves."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=own_player(user).pk)
        if player.large_print != large:
            player.large_print = large
            player.save(update_fields=["large_print"])
    return player
