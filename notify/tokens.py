"""The signed token of an e-mail's unsubscribe link: whose, which kinds, which channel. It
never expires (an old e-mail's link still works), and changes nothing but that switch."""

from __future__ import annotations

from django.core import signing

SALT = "notify.unsubscribe"


def unsubscribe_token(user_id: int, kinds: list[str], channel: str = "email") -> str:
    return signing.dumps({"u": user_id, "k": sorted(kinds), "c": channel}, salt=SALT, compress=True)


def read_unsubscribe(token: str) -> tuple[int, list[str], str] | None:
    """(user id, kinds, channel), or None for a token we did not sign."""
    try:
        data = signing.loads(token, salt=SALT)
        return int(data["u"]), [str(kind) for kind in data["k"]], str(data["c"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
