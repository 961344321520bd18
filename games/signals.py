"""Every account gets its player, so it can be picked when a match is created; and the
signal by which apps built on this one (statistics, ratings) hear that results changed."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import Signal, receiver

from games.models import Player


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_player_for_new_account(sender, instance, created: bool, raw: bool = False, **kwargs):
    if created and not raw:
        Player.objects.get_or_create(user=instance, defaults={"name": instance.get_username()})


results_changed = Signal()
"""Sent by the services, inside the writing transaction and after the match's own lock, when
what finished matches say about their players may have changed: a match finished, a finished
one was corrected, reopened, deleted, or marked rated or unrated. Keyword arguments: `preset`
(the rules' pool), `since`, the (finished_at, match id) of the earliest finished result the
change touches (every finished match of that preset from there on may read differently), and
`players`: the ids of a deleted match's players, whose rows about it went with it."""

player_judges = Signal()
"""Asked who, besides whoever added a guest, may decide claims of these guests. Keyword
argument `player_ids`; a receiver returns (player id, user id) pairs (a tournament's creator
and directors for its entrants)."""

merging_players = Signal()
"""Sent before a guest's rows move to another player (`guest`, `into`), inside the transaction,
with both players' rows locked: a receiver takes the locks of what it owns and returns why the
two cannot become one (both entered one tournament), or None."""

players_merged = Signal()
"""Sent once the guest's rows are `into`'s (`guest_id`, `into`), in the same transaction."""

hidden_players_seen = Signal()
"""Asked which players who hide their name a signed-in `user` may see, besides themselves and
the players of the matches they sat at, created or keep score of (games.audience). A receiver
returns a queryset of player ids, a single column (`.values("player_id")`: a tournament's
entrants, for its creator and directors), which is read in the same query as the rest."""
