"""Every account gets its player, so it can be picked when a match is created; and the
signals by which apps built on this one hear what they follow (results that changed, for
statistics and ratings) and answer what games asks them (who may see a hidden name, whether an
account counts someone's tables) without games importing them."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import Signal, receiver

from games.models import Player


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_player_for_new_account(sender, instance, created: bool, raw: bool = False, **kwargs):
    if created and not raw:
        # Named as the person is called where the account has a name (one made by signing in
        # with Telegram: "Аня", not "tg7001"), else by its username.
        name = (instance.get_full_name() or instance.get_username())[:40]
        Player.objects.get_or_create(user=instance, defaults={"name": name})


results_changed = Signal()
"""Sent by the services, inside the writing transaction and after the match's own lock, when
what finished matches say about their players may have changed: a match finished, a finished
one was corrected, reopened, deleted, or marked rated or unrated. Keyword arguments: `preset`
(the rules' pool), `since`, the (finished_at, match id) of the earliest finished result the
change touches (every finished match of that preset from there on may read differently), and
`players`: the ids of a deleted match's players, whose rows about it went with it."""

sheet_changed = Signal()
"""Sent by the services whenever a match's version moves (a round entered, corrected,
confirmed, deleted; the match finished or reopened), inside the writing transaction, after
the match's lock: `match`. A receiver writes what follows (a group chat's journal of the
sheet) in that transaction."""

hidden_players_seen = Signal()
"""Asked which players who hide their name a signed-in `user` may see, besides themselves and
the players of the matches they sat at, created or keep score of (games.audience). A receiver
returns a queryset of player ids, a single column (`.values("player_id")`: a tournament's
entrants, for its creator and directors), which is read in the same query as the rest."""

pages_showing_players = Signal()
"""Asked which pages of rows other than matches and profiles show `players` (ids): a receiver
returns (model, pk) pairs (a played table, a tournament), whose cached names then move with
theirs (games.visibility.names_changed)."""

account_named = Signal()
"""Sent when a scorekeeper (`by`) names another account (`user`) at their table and the account
does not count their tables (`tables_counted`): `guest`, a guest of `by` with the account's
name, takes the seat instead. Inside the transaction that seats it. The claims app answers by
asking the account to confirm that the guest is them (a link), unless it was asked already or
said no; without it, the guest simply stays a guest."""

tables_counted = Signal()
"""Asked whether the tables `by` keeps count on `user`'s record at once (`user` and `by` are
two different accounts). A receiver returns True when they do (the claims app: `user` has
confirmed that one of `by`'s guests was them); nobody answering means they do not."""

stand_ins_waiting = Signal()
"""Asked which accounts `by` named at `match` sit there as guests until they confirm it is
them (`account_named`), to tell the scorekeeper. A receiver returns their usernames."""

round_waits_confirmation = Signal()
"""Sent by the services, inside the writing transaction, when a round (`round_`) of `match`
entered or changed by `by` waits for another person at the table (or a director) to confirm
it (notify tells them)."""

confirmations_waiting = Signal()
"""Asked, for a signed-in `user` who may not keep `match`'s score, whether a guest seated at
`match` waits for `user` to confirm that it is them (`account_named`): the sheet shows the
request with its one-tap answer. A receiver returns a list of requests, each with
`guest_name`, `asked_by`, `decide_url` (a form posts `decision` = approve or refuse there, and
`next`) and `table_url`."""
