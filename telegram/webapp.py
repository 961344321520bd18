"""The Mini App's `initData` read and checked as Telegram documents it
(https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app): the
string's fields but `hash`, sorted and joined by newlines, signed with HMAC-SHA256 under the
key HMAC-SHA256("WebAppData", the bot's token); at most `max_age` seconds old. Anything else
(a field twice, a bad signature, a user of another shape) is None, never half of it. Pure: no
Django."""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import parse_qsl

import msgspec

from telegram.updates import User

# A real initData is well under a kilobyte or two; a longer one is nobody's.
LONGEST = 8192
# Telegram's advice: an initData a day old is too old.
MAX_AGE = 86400
# A phone's clock a little ahead of the server's is no reason to refuse it.
FUTURE = 60


class WebAppData(msgspec.Struct, frozen=True):
    """What a checked initData says: who opened the Mini App, when, and from which link."""

    user: User
    auth_date: int
    start_param: str = ""
    # Where it was opened from, when from a chat's link: "private", "group", "supergroup",
    # "channel" or "sender", and the chat's opaque id for Mini Apps (not its chat id).
    chat_type: str = ""
    chat_instance: str = ""
    # The signature itself: the mark that it has been used (telegram.models.UsedInitData). Not
    # the raw string, which may be sent again re-encoded or with its fields in another order.
    signature: str = ""


def secret_key(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def hash_of(fields: dict[str, str], *, token: str) -> str:
    """The hash Telegram puts beside `fields` (every field but `hash`)."""
    data_check_string = "\n".join(sorted(f"{key}={value}" for key, value in fields.items()))
    return hmac.new(secret_key(token), data_check_string.encode(), hashlib.sha256).hexdigest()


def read_init_data(
    raw: str, *, token: str, now: float, max_age: int = MAX_AGE
) -> WebAppData | None:
    """The checked initData `raw`, or None when it is not one Telegram signed for this bot's
    `token` at most `max_age` seconds before `now`."""
    if not token or not raw or len(raw) > LONGEST:
        return None
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True, errors="strict")
    except (ValueError, UnicodeDecodeError):
        return None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        return None  # a field twice: which one was signed?
    given = fields.pop("hash", "")
    if not hmac.compare_digest(given.encode(), hash_of(fields, token=token).encode()):
        return None
    auth_date = fields.get("auth_date", "")
    if not (auth_date.isascii() and auth_date.isdigit()):
        return None
    age = now - int(auth_date)
    if age > max_age or age < -FUTURE:
        return None
    try:
        user = msgspec.json.decode(fields.get("user", ""), type=User)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    if user.is_bot:
        return None
    return WebAppData(
        user=user,
        auth_date=int(auth_date),
        start_param=fields.get("start_param", ""),
        chat_type=fields.get("chat_type", ""),
        chat_instance=fields.get("chat_instance", ""),
        signature=given,
    )
