"""The only code that writes ratings: a pool rated again from a point in the order in which
its matches finished (finished_at, then id), which is also how a full rebuild goes, so that
the two always agree.

Locks: a recomputation runs inside the transaction of the change that caused it, after that
change's match locks, and takes the pool's row last; a rebuild takes only the pool's row.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber

from games.models import Match
from games.results import finished_results
from stats import panels
from stats.models import Rating, RatingChange, RatingPool
from stats.ratings import Skill, replay

type Since = tuple[datetime.datetime, int]


def recompute(*, preset: str, since: Since | None = None, players: Iterable[int] = ()) -> int:
    """Rate every rated, finished match of `preset` (its rounds confirmed) from `since`
    (finished_at, match id) on again, from the ratings the matches before it left (None: the
    whole pool, a rebuild); `players` are those of the match that changed, whose ratings it may
    have left (a deleted match's changes are gone with it). Returns the number of matches rated."""
    with transaction.atomic():
        pool = _lock_pool(preset)
        stale = RatingChange.objects.filter(pool=pool)
        matches = Match.objects.counted().filter(preset=preset, rated=True)
        if since is not None:
            stale = stale.filter(_from(since, "match_id"))
            matches = matches.filter(_from(since, "pk"))
        touched = set(stale.values_list("player_id", flat=True).distinct()) | set(players)
        stale.delete()
        order = list(matches.order_by("finished_at", "pk").values_list("pk", "finished_at"))
        # Ratings go by places alone.
        seats = finished_results(matches, count_outs=False)
        players = touched | {seat.player_id for rows in seats.values() for seat in rows}
        skills = _starting_skills(pool, players, touched, rebuild=since is None)
        finished_at = {pk: _as_stored(at) for pk, at in order}
        rows = [
            (
                pool.pk,
                change.match,
                change.player,
                finished_at[change.match],
                change.before.mu,
                change.before.sigma,
                change.after.mu,
                change.after.sigma,
                change.after.matches,
                change.win_chance,
            )
            for change in replay(
                skills, ((pk, {s.player_id: s.place for s in seats[pk]}) for pk, _ in order)
            )
        ]
        _insert_changes(rows)
        _store_current(pool, players, skills, rebuild=since is None)
        pool.version += 1
        pool.save(update_fields=["version"])
        # Now, and again once committed: a page cached in between is not kept.
        panels.pool_changed(preset)
        transaction.on_commit(lambda: panels.pool_changed(preset))
    return len(order)


CHANGE_COLUMNS = (
    "pool",
    "match",
    "player",
    "finished_at",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "matches_after",
    "win_chance",
)


def _insert_changes(rows: list[tuple]) -> None:
    """The rating changes, inserted as rows: a rebuild writes hundreds of thousands, and
    building a model instance for each (bulk_create) costs more than all the rating."""
    meta = RatingChange._meta
    quote = connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(name).column) for name in CHANGE_COLUMNS)
    values = ", ".join(["%s"] * len(CHANGE_COLUMNS))
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({values})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 5000):
            cursor.executemany(sql, rows[start : start + 5000])


def _as_stored(moment: datetime.datetime):
    return connection.ops.adapt_datetimefield_value(moment)


def rebuild(presets: Iterable[str]) -> dict[str, int]:
    """Every pool rated from scratch: the number of matches rated in each."""
    return {preset: recompute(preset=preset) for preset in presets}


def _lock_pool(preset: str) -> RatingPool:
    RatingPool.objects.get_or_create(preset=preset)
    return RatingPool.objects.select_for_update().get(preset=preset)


def _from(since: Since, id_field: str) -> Q:
    """Matches at `since` or after it in the order (finished_at, id)."""
    at, pk = since
    return Q(finished_at__gt=at) | Q(finished_at=at, **{f"{id_field}__gte": pk})


def _starting_skills(
    pool: RatingPool, players: set[int], touched: set[int], *, rebuild: bool
) -> dict[int, Skill]:
    """Each player's rating before the matches to rate: the current one for players none of
    whose changes were undone; for the others, their last change that remains."""
    if rebuild:
        return {}
    skills = {
        rating.player_id: rating.skill
        for rating in Rating.objects.filter(pool=pool, player_id__in=players - touched)
    }
    newest = Window(
        RowNumber(),
        partition_by=[F("player_id")],
        order_by=[F("finished_at").desc(), F("match_id").desc()],
    )
    remaining = (
        RatingChange.objects.filter(pool=pool, player_id__in=touched)
        .annotate(newest=newest)
        .filter(newest=1)
        .only("player_id", "mu_after", "sigma_after", "matches_after")
    )
    for change in remaining:
        skills[change.player_id] = change.after
    return skills


def _store_current(
    pool: RatingPool, players: set[int], skills: dict[int, Skill], *, rebuild: bool
) -> None:
    if rebuild:
        Rating.objects.filter(pool=pool).delete()
    else:
        # A player whose every rated match was undone has no rating any more.
        Rating.objects.filter(pool=pool, player_id__in=players - set(skills)).delete()
    rows = [
        Rating(
            pool=pool,
            player_id=player,
            mu=skill.mu,
            sigma=skill.sigma,
            matches=skill.matches,
            shown=skill.shown,
        )
        for player, skill in skills.items()
        if rebuild or player in players
    ]
    Rating.objects.bulk_create(
        rows,
        batch_size=1000,
        update_conflicts=True,
        unique_fields=["pool", "player"],
        update_fields=["mu", "sigma", "matches", "shown"],
    )
