"""What a Mini App link opens of played tables (telegram.start): `t<table id>`, the table."""

from __future__ import annotations

from django.urls import reverse

from telegram import start


@start.opens("t")
def table(rest: str) -> str | None:
    pk = start.number(rest)
    return reverse("play:table", args=[pk]) if pk is not None else None
