"""What a Mini App link opens of score sheets (telegram.start): `m<match id>`, the sheet.
Here, not in games, which sits beside telegram and imports none of it."""

from __future__ import annotations

from django.urls import reverse

from telegram import start


@start.opens("m")
def match(rest: str) -> str | None:
    pk = start.number(rest)
    return reverse("games:match", args=[pk]) if pk is not None else None
