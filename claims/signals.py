"""The signals by which apps built on this one (tournaments) take part in claims without this
app importing them: who else judges a guest, and why a guest cannot become an account's player.
What this app answers of the games app's signals is in claims/receivers.py."""

from django.dispatch import Signal

player_judges = Signal()
"""Asked who, besides whoever added a guest, may decide claims of these guests. Keyword
argument `player_ids`; a receiver returns (player id, user id) pairs (a tournament's creator
and directors for its entrants)."""

merging_players = Signal()
"""Sent before a guest's rows move to another player (`guest`, `into`), inside the transaction,
with both players' rows locked: a receiver takes the locks of what it owns and returns why the
two cannot become one (both entered one tournament), or None."""

claim_opened = Signal()
"""Sent inside the transaction when a claim (`claim`) is opened: its deciders are to be told
(notify)."""

claim_decided = Signal()
"""Sent inside the transaction when a pending claim (`claim`) was approved or refused by
`by`: whoever asked is to be told."""

players_merged = Signal()
"""Sent once the guest's rows are `into`'s (`guest_id`, `into`), in the same transaction."""
