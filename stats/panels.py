"""What statistics add to a match's page: each player's chance to finish first while it runs
(from the ratings and the totals as they stand, stats.chances), and how each rating moved
once it is over.

The panel is cached on the match's version and its rating pool's version. Beneath it, the
chances are cached on the match's version alone (worked out once for every language and
reader), and the players' ratings on the players and the pool's version, so that a new round
reads no rating again. The pool's version lives in the cache itself (moved by every
recomputation once it commits), so that a cached page costs no query for it.
"""

from __future__ import annotations

import time
from functools import partial

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.translation import get_language

from games import audience
from games.models import Match
from games.sheet import Sheet
from stats.chances import live_chances, percentages
from stats.models import Rating, RatingChange
from stats.ratings import NEWCOMER, Skill


def match_panel(match: Match, sheet: Sheet) -> str:
    """The panel's HTML, or "" when there is nothing to show (one query besides the sheet's
    seats, none when cached)."""
    if not match.rated:
        return ""
    shown_to = (
        f"{pool_version(match.preset)}:{audience.cache_key(Match, match.pk)}:{get_language()}"
    )
    if match.is_finished:
        return cache.get_or_set(
            f"stats:moves:{match.pk}:{match.version}:{shown_to}", partial(_moves, match, sheet)
        )
    return cache.get_or_set(
        f"stats:panel:{match.pk}:{match.version}:{shown_to}", partial(_chances, match, sheet)
    )


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


def _chances(match: Match, sheet: Sheet) -> str:
    seats = sheet.seats
    if len(sheet.in_play) < 2:
        return ""
    skills = _skills(match, sheet)
    chances = cache.get_or_set(
        f"stats:chances:{match.pk}:{match.version}:{pool_version(match.preset)}",
        partial(
            live_chances,
            sheet.variant,
            skills,
            [seat.total for seat in seats],
            [seat.has_lost for seat in seats],
        ),
    )
    rows = [
        {"player": seat.player, "skill": skill, "percent": percent}
        for seat, skill, percent in zip(seats, skills, percentages(chances), strict=True)
        if not seat.has_lost
    ]
    return render_to_string("stats/_match_chances.html", {"rows": rows, "match": match})


def _skills(match: Match, sheet: Sheet) -> list[Skill]:
    """The seats' ratings before the match, read once for its players and the pool's version
    (not once a round)."""
    players = [seat.player_id for seat in sheet.seats]
    key = f"stats:skills:{match.preset}:{','.join(map(str, players))}:{pool_version(match.preset)}"
    return cache.get_or_set(key, partial(_read_skills, match.preset, players))


def _read_skills(preset: str, players: list[int]) -> list[Skill]:
    ratings = Rating.objects.filter(pool__preset=preset, player__in=players).values_list(
        "player_id", "mu", "sigma", "matches"
    )
    skill_of = {player: Skill(mu, sigma, rated) for player, mu, sigma, rated in ratings}
    return [skill_of.get(player, NEWCOMER) for player in players]


def _moves(match: Match, sheet: Sheet) -> str:
    # In seat order, for the players seated in the match.
    seated = {seat.player_id: seat for seat in sheet.seats}
    changes = sorted(
        (
            change
            for change in RatingChange.objects.filter(match=match)
            if change.player_id in seated
        ),
        key=lambda change: seated[change.player_id].position,
    )
    if not changes:
        return ""
    rows = [
        {
            "player": seated[change.player_id].player,
            "before": change.before.shown,
            "after": change.after.shown,
            "delta": change.after.shown - change.before.shown,
            "percent": round(100 * change.win_chance),
        }
        for change in changes
    ]
    return render_to_string("stats/_match_moves.html", {"rows": rows, "match": match})
