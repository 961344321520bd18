"""What statistics add to a match's page: each player's chance to finish first while it runs
(from the ratings), and how each rating moved once it is over.

The panel is cached on the match's version and its rating pool's version; the pool's version
lives in the cache itself (moved by every recomputation once it commits), so that a cached
page costs no query for it.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.db.models import OuterRef, Subquery
from django.template.loader import render_to_string
from django.utils.translation import get_language

from games import audience
from games.models import Match, Seat
from stats.models import Rating, RatingChange
from stats.ratings import NEWCOMER, Skill, win_chances


def match_panel(match: Match) -> str:
    """The panel's HTML, or "" when there is nothing to show (one query, none when cached)."""
    if not match.rated:
        return ""
    key = (
        f"stats:panel:{match.pk}:{match.version}:{pool_version(match.preset)}:"
        f"{audience.cache_key()}:{get_language()}"
    )
    return cache.get_or_set(key, lambda: _moves(match) if match.is_finished else _chances(match))


def pool_version(preset: str) -> str:
    """The pool's version as the cache knows it (a new one if the cache lost it)."""
    return _version(f"stats:pool-version:{preset}")


def results_version() -> str:
    """Moved whenever any finished result changes: what profiles are cached on."""
    return _version("stats:results-version")


def pool_changed(preset: str) -> None:
    for key in (f"stats:pool-version:{preset}", "stats:results-version"):
        cache.set(key, str(time.time_ns()), None)


def _version(key: str) -> str:
    version = cache.get(key)
    if version is None:
        cache.add(key, str(time.time_ns()), None)
        version = cache.get(key)
    return version


def _chances(match: Match) -> str:
    rating = Rating.objects.filter(pool__preset=match.preset, player=OuterRef("player"))
    seats = list(
        Seat.objects.filter(match=match, lost_in_round__isnull=True)
        .select_related("player")
        .annotate(
            mu=Subquery(rating.values("mu")[:1]),
            sigma=Subquery(rating.values("sigma")[:1]),
            rated=Subquery(rating.values("matches")[:1]),
        )
        .order_by("position")
    )
    if len(seats) < 2:
        return ""
    skills = [
        NEWCOMER if seat.mu is None else Skill(seat.mu, seat.sigma, seat.rated) for seat in seats
    ]
    rows = [
        {"player": seat.player, "skill": skill, "percent": round(100 * chance)}
        for seat, skill, chance in zip(seats, skills, win_chances(skills), strict=True)
    ]
    return render_to_string("stats/_match_chances.html", {"rows": rows, "match": match})


def _moves(match: Match) -> str:
    changes = list(
        RatingChange.objects.filter(match=match)
        .select_related("player", "pool")
        .order_by("player__seats__position")
        .filter(player__seats__match=match)
    )
    if not changes:
        return ""
    rows = [
        {
            "player": change.player,
            "before": change.before.shown,
            "after": change.after.shown,
            "delta": change.after.shown - change.before.shown,
            "percent": round(100 * change.win_chance),
        }
        for change in changes
    ]
    return render_to_string("stats/_match_moves.html", {"rows": rows, "match": match})
