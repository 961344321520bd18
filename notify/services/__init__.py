"""The only code that writes notify's rows. One module per concern: `telling` (the outbox:
`tell` in the caller's transaction, a person's switches, quiet hours and language, the test
message, the passes that find what no signal says), `deliveries` (each delivery's task: taken,
sent, settled), `links` (a Telegram chat linked to an account and unlinked), `subscriptions`
(web push's browsers); what pages read is in notify.queries.

Locks: a person's settings row; a delivery's group by ascending id (never the person's row);
a Telegram token's row, then the link it makes."""

from notify.services.links import link_chat, new_token, unlink, unlink_chat
from notify.services.subscriptions import forget, renew, subscribe, unsubscribe
from notify.services.telling import (
    MOVE_WAITS,
    remember_browser_zone,
    remember_language,
    remind_move_deadline,
    save_settings,
    send_test,
    switch_off,
    tell,
    tell_moved_for,
    tell_moves_waiting,
    tell_tournament_days,
)

__all__ = [
    "MOVE_WAITS",
    "forget",
    "link_chat",
    "new_token",
    "remember_browser_zone",
    "remember_language",
    "remind_move_deadline",
    "renew",
    "save_settings",
    "send_test",
    "subscribe",
    "switch_off",
    "tell",
    "tell_moved_for",
    "tell_moves_waiting",
    "tell_tournament_days",
    "unlink",
    "unlink_chat",
    "unsubscribe",
]
