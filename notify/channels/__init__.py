"""The channels a notification goes out on. Each is an object with:

- `name` (a `notify.models.Channel` value);
- `linked(user) -> bool`: whether the person can be reached on it (an e-mail address, a
  linked Telegram chat, a push subscription);
- `may_test(user) -> bool`: whether a test message, which anyone signed in may ask for again
  and again, may go there (e-mail: only to an address the person confirmed is theirs);
- `send(notification, *, title, text, url) -> None`: deliver one message, already rendered
  in the person's language (`title`: a subject line, `text`: the words, `url`: the absolute
  address it links to); raises `TryLater` when the channel failed for now (the worker retries
  with backoff) and `GiveUp` when it never will succeed (no address any more, the chat blocked
  the bot);
- `panel_template` (a template name, or None) and `panel_context(request) -> dict`: the part
  of the account's Notifications page where a person links or unlinks the channel.

`CHANNELS` lists them by name; each channel's module registers itself on import, and
notify.apps imports every channel's module when the app is ready."""

from __future__ import annotations


class TryLater(Exception):
    """The channel failed for now; `after` seconds is its own hint (Telegram's retry_after)."""

    def __init__(self, reason: str, after: float | None = None) -> None:
        super().__init__(reason)
        self.after = after


class GiveUp(Exception):
    """The channel will never deliver this (no address, the bot blocked)."""


CHANNELS: dict[str, object] = {}
"""Filled by each channel's module on import (notify.channels.email, .telegram, .push)."""


def register(channel) -> None:
    CHANNELS[channel.name] = channel
