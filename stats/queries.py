"""What statistics read: a player's finished matches under a filter, and the figures of a
profile as SQL aggregates (a fixed number of queries however many matches there are).

Per-match results (place, total, loss, rounds gone out) come from `games.results`, the query
tournament standings read too; the aggregates here count the same rows in the database.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import (
    Avg,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    FloatField,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Concat
from django.utils import timezone

from core.names import sort_key
from games import audience
from games.models import Entry, Match, NameKey, Seat
from stats.models import Rating, RatingChange
from stats.ratings import PROVISIONAL_UNDER

PERIODS = ("all", "year", "30d")
QUEENS_ONLY = r"^Q[SHDC]( Q[SHDC])*$"  # a hand of Queens alone, as stored ("QS QH")


@dataclass(frozen=True)
class Filters:
    """Which finished matches count (every round confirmed where that is asked): a preset, a
    kind of match, a period (all time, this year, the last 30 days)."""

    preset: str | None = None
    kind: str | None = None
    period: str = "all"

    def matches(self, now: datetime.datetime | None = None) -> QuerySet[Match]:
        found = Match.objects.counted()
        if self.preset:
            found = found.filter(preset=self.preset)
        if self.kind:
            found = found.filter(kind=self.kind)
        start = self.start(now or timezone.now())
        if start is not None:
            found = found.filter(finished_at__gte=start)
        return found

    def start(self, now: datetime.datetime) -> datetime.datetime | None:
        if self.period == "year":
            local = timezone.localtime(now)
            return local.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
        if self.period == "30d":
            return now - datetime.timedelta(days=30)
        return None


@dataclass(frozen=True)
class Summary:
    """A player's figures over the finished matches a filter lets through."""

    matches: int
    wins: int
    average_place: float | None  # scaled for table size: 1 always first, 0 always last
    rounds: int
    average_score: float | None  # points a round, going out's negative scores included
    went_out: int
    out_with_queen: int
    out_with_big_queen: int
    queens_only: int
    resets_101: int
    resets_100: int
    losses: int
    average_loss_round: float | None
    best_total: int | None
    worst_total: int | None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.matches if self.matches else None

    @property
    def win_percent(self) -> int | None:
        return round(100 * self.wins / self.matches) if self.matches else None


def table_size() -> Subquery:
    """The number of seats at the match of the seat at hand (for Seat querysets)."""
    return Subquery(
        Seat.objects.filter(match=OuterRef("match"))
        .order_by()
        .values("match")
        .annotate(count=Count("pk"))
        .values("count")
    )


def seats_of(player_id: int, filters: Filters) -> QuerySet[Seat]:
    """The player's seats in the finished matches the filter lets through."""
    return Seat.objects.filter(player_id=player_id, match__in=filters.matches())


def summary(player_id: int, filters: Filters) -> Summary:
    """The profile's figures, in two queries."""
    seats = seats_of(player_id, filters).annotate(table_size=table_size())
    scaled = ExpressionWrapper(
        (F("table_size") - F("place")) * 1.0 / (F("table_size") - 1), output_field=FloatField()
    )
    by_seat = seats.aggregate(
        matches=Count("pk"),
        wins=Count("pk", filter=Q(place=1)),
        average_place=Avg(scaled),
        losses=Count("pk", filter=Q(lost_in_round__isnull=False)),
        average_loss_round=Avg("lost_in_round"),
        best_total=Min("total"),
        worst_total=Max("total"),
    )
    big_queen = Concat(Value("Q"), KeyTextTransform("big_queen", "round__match__options"))
    out = Q(kind=Entry.Kind.OUT)
    by_round = Entry.objects.filter(seat__in=seats_of(player_id, filters)).aggregate(
        rounds=Count("pk"),
        average_score=Avg("score"),
        went_out=Count("pk", filter=out),
        out_with_queen=Count("pk", filter=out & Q(cards__startswith="Q")),
        out_with_big_queen=Count("pk", filter=out & Q(cards=big_queen)),
        queens_only=Count("pk", filter=Q(kind=Entry.Kind.HAND, cards__regex=QUEENS_ONLY)),
        resets_101=Count("pk", filter=Q(event=Entry.Event.RESET_TO_0)),
        resets_100=Count("pk", filter=Q(event=Entry.Event.RESET_TO_50)),
    )
    return Summary(**by_seat, **by_round)


@dataclass(frozen=True)
class Opponent:
    """Someone a player met: in how many finished matches, and who finished ahead how often
    (a tie counts for neither)."""

    player_id: int
    name: str  # as the person looking may see it
    together: int
    ahead: int  # the player finished ahead of this opponent
    behind: int
    hidden: bool = False  # hidden from the person looking: no name, no link


def opponents(player_id: int, filters: Filters, only: int | None = None) -> list[Opponent]:
    """Every opponent met in the finished matches the filter lets through (or only the one
    whose id is `only`), most met first (one query)."""
    mine = seats_of(player_id, filters)
    my_place = Subquery(
        Seat.objects.filter(match=OuterRef("match"), player_id=player_id).values("place")[:1]
    )
    theirs = Seat.objects.filter(match__in=mine.values("match")).exclude(player_id=player_id)
    if only is not None:
        theirs = theirs.filter(player_id=only)
    rows = (
        theirs.annotate(my_place=my_place)
        .values("player_id", "player__name", "player__private", "player__is_bot")
        .annotate(
            together=Count("match", distinct=True),
            ahead=Count("pk", filter=Q(place__gt=F("my_place"))),
            behind=Count("pk", filter=Q(place__lt=F("my_place"))),
        )
        .order_by("-together", NameKey("player__name"), "player_id")
    )
    found = [
        Opponent(
            row["player_id"],
            audience.name(
                row["player_id"],
                row["player__name"],
                row["player__private"],
                row["player__is_bot"],
            ),
            row["together"],
            row["ahead"],
            row["behind"],
            hidden=audience.hidden(row["player_id"], row["player__private"]),
        )
        for row in rows
    ]
    # Ties by the name shown: a hidden one sorted by its own would tell where it falls.
    return sorted(found, key=lambda o: (-o.together, sort_key(o.name), o.player_id))


def common_matches(a: int, b: int, filters: Filters) -> QuerySet[Match]:
    """The finished matches both players sat in, the latest first."""
    return (
        filters.matches()
        .filter(seats__player_id=a)
        .filter(seats__player_id=b)
        .order_by("-finished_at", "-pk")
    )


def recent_seats(player_id: int, filters: Filters, count: int) -> list[Seat]:
    """The player's last `count` finished matches (their seats, matches and table sizes),
    the latest first (one query)."""
    return list(
        seats_of(player_id, filters)
        .annotate(table_size=table_size())
        .select_related("match")
        .order_by("-match__finished_at", "-match_id")[:count]
    )


@dataclass(frozen=True)
class Ranked:
    """A line of a leaderboard."""

    player_id: int
    name: str  # as the person looking may see it
    shown: int
    mu: float
    sigma: float
    matches: int  # rated matches in the pool (in the period, when one is chosen)
    provisional: bool
    hidden: bool = False  # hidden from the person looking: no name, no link


def leaderboard(board) -> list[Ranked]:
    """The pool's ratings, best first, of players with at least `board.least` rated matches
    (counted in the period when one is chosen); one query."""
    ratings = Rating.objects.filter(pool__preset=board.preset)
    start = Filters(period=board.period).start(timezone.now())
    if start is None:
        ratings = ratings.annotate(counted=F("matches"))
    else:
        in_period = (
            RatingChange.objects.filter(
                pool=OuterRef("pool"), player=OuterRef("player"), finished_at__gte=start
            )
            .order_by()
            .values("player")
            .annotate(count=Count("pk"))
            .values("count")
        )
        ratings = ratings.annotate(counted=Subquery(in_period))
    rows = (
        ratings.filter(counted__gte=board.least)
        .order_by("-shown", NameKey("player__name"), "player_id")
        .values_list(
            "player_id",
            "player__name",
            "player__private",
            "player__is_bot",
            "shown",
            "mu",
            "sigma",
            "matches",
            "counted",
        )
    )
    found = [
        Ranked(
            player,
            audience.name(player, name, private, bot),
            shown,
            mu,
            sigma,
            counted,
            matches < PROVISIONAL_UNDER,
            hidden=audience.hidden(player, private),
        )
        for player, name, private, bot, shown, mu, sigma, matches, counted in rows
    ]
    # Ties by the name shown: a hidden one sorted by its own would tell where it falls.
    return sorted(found, key=lambda r: (-r.shown, sort_key(r.name), r.player_id))


@dataclass(frozen=True)
class Predicted:
    """A player's rated matches: how many they won, and how many the ratings before each
    match expected them to win (the sum of their chances)."""

    matches: int
    wins: int
    expected: float

    @property
    def beat(self) -> bool:
        return self.wins > self.expected


def predicted(player_id: int, filters: Filters) -> Predicted:
    """Wins against what the ratings expected, over the rated matches the filter lets
    through (one query)."""
    won = Exists(Seat.objects.filter(match=OuterRef("match"), player_id=player_id, place=1))
    figures = RatingChange.objects.filter(
        player_id=player_id, match__in=filters.matches()
    ).aggregate(matches=Count("pk"), wins=Count("pk", filter=Q(won)), expected=Sum("win_chance"))
    return Predicted(figures["matches"], figures["wins"], figures["expected"] or 0.0)
