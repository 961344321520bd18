"""Rate every finished match again from scratch: `manage.py ratings --rebuild`.

Ratings follow every change as it happens; a rebuild gives the same figures (the test suite
checks it) and is there after an import, or to check.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards101.rules import PRESETS
from games.models import Match
from stats import services


class Command(BaseCommand):
    help = "Rebuild the ratings of every pool (one per preset) from the finished matches."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rebuild", action="store_true", help="rate every finished match again, in order"
        )
        parser.add_argument("--preset", choices=list(PRESETS), help="only this preset's pool")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["rebuild"]:
            raise CommandError("Say what to do: --rebuild")
        presets = [options["preset"]] if options["preset"] else _presets()
        started = time.perf_counter()
        counts = services.rebuild(presets)
        elapsed = time.perf_counter() - started
        for preset, count in counts.items():
            self.stdout.write(f"{preset}: {count} matches rated")
        total = sum(counts.values())
        per_match = f", {elapsed / total * 1000:.2f} ms a match" if total else ""
        self.stdout.write(f"Rebuilt in {elapsed:.1f} s{per_match}.")


def _presets() -> list[str]:
    """Every preset's pool, and any other preset name stored in matches."""
    stored = Match.objects.order_by().values_list("preset", flat=True).distinct()
    return sorted(set(PRESETS) | set(stored))
