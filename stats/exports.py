"""A player's matches as CSV and JSON, and the leaderboard as CSV, for other tools.

The names are kept stable. Rows come in a fixed order (matches by finished_at, then id;
ratings by pool, then player id) and nothing records when the file was made, so the same data
always gives the same bytes. Ratings are openskill's PlackettLuce() at its defaults, matches in
that order, ties as equal ranks: anyone can recompute them from these files.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from django.db.models import OuterRef, Subquery

from core.exports import SafeWriter
from stats import queries
from stats.models import Rating, RatingChange
from stats.ratings import Skill

MATCH_FIELDS = [
    "match",
    "finished_at",
    "preset",
    "kind",
    "players",
    "place",
    "total",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "rating_before",
    "rating_after",
]
LEADERBOARD_FIELDS = [
    "player_id",
    "name",
    "preset",
    "rating",
    "mu",
    "sigma",
    "matches",
    "provisional",
]


def match_records(player_id: int, filters: queries.Filters) -> list[dict[str, Any]]:
    """One record a finished match of the player's, oldest first (one query)."""
    change = RatingChange.objects.filter(match=OuterRef("match"), player_id=player_id)
    seats = (
        queries.seats_of(player_id, filters)
        .annotate(
            players=queries.table_size(),
            mu_before=Subquery(change.values("mu_before")[:1]),
            sigma_before=Subquery(change.values("sigma_before")[:1]),
            mu_after=Subquery(change.values("mu_after")[:1]),
            sigma_after=Subquery(change.values("sigma_after")[:1]),
            matches_after=Subquery(change.values("matches_after")[:1]),
        )
        .select_related("match")
        .order_by("match__finished_at", "match_id")
    )
    records = []
    for seat in seats:
        rated = seat.mu_after is not None
        records.append(
            {
                "match": seat.match_id,
                "finished_at": seat.match.finished_at.isoformat(),
                "preset": seat.match.preset,
                "kind": seat.match.kind,
                "players": seat.players,
                "place": seat.place,
                "total": seat.total,
                "mu_before": seat.mu_before,
                "sigma_before": seat.sigma_before,
                "mu_after": seat.mu_after,
                "sigma_after": seat.sigma_after,
                "rating_before": Skill(seat.mu_before, seat.sigma_before).shown if rated else None,
                "rating_after": Skill(seat.mu_after, seat.sigma_after).shown if rated else None,
            }
        )
    return records


def player_json(player, filters: queries.Filters) -> str:
    summary = dataclasses.asdict(queries.summary(player.pk, filters))
    data = {
        "player": {"id": player.pk, "name": str(player)},
        "summary": summary,
        "matches": match_records(player.pk, filters),
    }
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def player_csv(writer: SafeWriter, player, filters: queries.Filters) -> None:
    writer.writerow(MATCH_FIELDS)
    for record in match_records(player.pk, filters):
        writer.writerow(["" if record[f] is None else record[f] for f in MATCH_FIELDS])


def leaderboard_csv(writer: SafeWriter) -> None:
    """Every rated player in every pool (one query)."""
    writer.writerow(LEADERBOARD_FIELDS)
    ratings = Rating.objects.select_related("pool", "player").order_by("pool__preset", "player_id")
    for rating in ratings:
        writer.writerow(
            [
                rating.player_id,
                str(rating.player),  # as the person asking may see it
                rating.pool.preset,
                rating.shown,
                repr(rating.mu),
                repr(rating.sigma),
                rating.matches,
                "yes" if rating.provisional else "no",
            ]
        )
