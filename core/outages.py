"""Outages of the database, which end by themselves: what says "not reachable for a moment"
rather than "a bug" (README, "Running in production")."""

from __future__ import annotations

import psycopg
from django.db import InterfaceError, OperationalError

# The database cannot be reached for a moment: it restarts, a connection was ended or cut, no
# pooled connection came free in time (psycopg_pool's PoolTimeout, which Django wraps as an
# OperationalError), SQLite's file stayed locked. psycopg's own, should one pass unwrapped.
DATABASE_UNREACHABLE = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)
