"""Played tables with finished rounds, for the coach to review."""

from __future__ import annotations
