"""What the coach reads: a round's review as the replay marks it, a match's review (each
seat's accuracy by round and for the match, their costliest decisions), a viewer's accuracy at
a round's end, a person's positions to practise, a player's profile panel (coach.profile
shapes it), and a round as its review replays it. Each in a fixed number of queries, whatever
the number of rounds or decisions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import Avg, Case, Count, F, FilteredRelation, Max, Q, QuerySet, Value, When
from django.db.models.expressions import Window
from django.db.models.functions import RowNumber

from cards101 import analysis
from cards101.engine import Game, Move
from coach import profile
from coach.models import KIND_NAMES, Label, Practice, ReviewedDecision, RoundReview
from games.models import Player
from play import queries as play_queries
from play.board import MoveShown
from play.models import PlaySeat, PlayTable

# A label's mark beside a move, as chess annotators write them: it never stands for the label
# alone (its word is written too) and never by colour alone.
MARKS = {"best": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
# PlayMove.by of the stand-in that moves for a person away or gone: not the seat's own choice.
STAND_INS = play_queries.STAND_INS
# A seat's costliest decisions shown in a match's review.
COSTLIEST = 3

SITE_CACHE_SECONDS = 10 * 60
SITE_KEY = "coach:site-accuracy"
# Fewer mistakes and blunders than this to practise: the inaccuracies come after them.
FEW = 10
LISTED = 50  # positions on the list, the first to practise
PRACTISED = (Label.BLUNDER, Label.MISTAKE)

FIELDS = ("review_id", "index", "seat", "by", "played", "best", "loss", "label", "kind")


@dataclass(frozen=True)
class DecisionShown:
    """A reviewed decision as a page shows it: move `index` (0-based) of round `round`
    (0-based) made by seat `seat` (named `name` as the board names it)."""

    round: int
    index: int
    seat: int
    name: str
    by: str
    played: MoveShown
    best: MoveShown
    loss: float
    label: str
    kind: str = ""  # the kind of mistake (cards101.analysis.kind_of), "" for a best move

    @property
    def kind_name(self) -> str:
        """What kind of mistake it was, as the profile names it; "" for a best move, or one
        of no kind the coach can name."""
        return "" if self.kind in ("", "other") else str(KIND_NAMES.get(self.kind, ""))

    @property
    def number(self) -> int:
        """The move's number in its round, as people count."""
        return self.index + 1

    @property
    def mark(self) -> str:
        return MARKS[self.label]

    @property
    def label_text(self) -> str:
        return str(Label(self.label).label)

    @property
    def was_best(self) -> bool:
        """The move played was the best one (or as good as any: no loss measured)."""
        return self.played == self.best

    @property
    def saved(self) -> int:
        """The points the better move would have saved, whole (at least 1 when there is one)."""
        return 0 if self.was_best else max(1, round(self.loss))

    @property
    def own(self) -> bool:
        """Made by the seat itself (its person or its bot), not by a stand-in."""
        return self.by not in STAND_INS


def _shown(row: ReviewedDecision, round_index: int, names: dict[int, str]) -> DecisionShown:
    return DecisionShown(
        round=round_index,
        index=row.index,
        seat=row.seat,
        name=names.get(row.seat, ""),
        by=row.by,
        played=MoveShown.of(row.played),
        best=MoveShown.of(row.best),
        loss=row.loss,
        label=row.label,
        kind=row.kind,
    )


def names_of(seats: Iterable[PlaySeat]) -> dict[int, str]:
    """Each seat's name as the board shows it."""
    return {seat.position: str(seat) for seat in seats}


@dataclass
class RoundShown:
    """A round's review: its state and the decisions kept so far, in order."""

    review: RoundReview
    decisions: list[DecisionShown]
    moves: int  # the round's moves

    @property
    def waiting(self) -> bool:
        return self.review.status == RoundReview.Status.WAITING

    @property
    def failed(self) -> bool:
        return self.review.status == RoundReview.Status.FAILED

    @property
    def reviewed_moves(self) -> int:
        """How far the review has got, in the round's moves."""
        return min(self.review.next_index, self.moves)

    def at(self, step: int) -> DecisionShown | None:
        """The decision made at the position after `step` moves: the next move's."""
        return next((d for d in self.decisions if d.index == step), None)


def round_review(
    table: PlayTable, round_index: int, seats: Sequence[PlaySeat], moves: int
) -> RoundShown | None:
    """The review of a round of `table` as its replay shows it (two queries), None if it was
    never queued."""
    review = RoundReview.objects.filter(table=table, round=round_index).first()
    if review is None:
        return None
    names = names_of(seats)
    rows = review.decisions.only(*FIELDS).order_by("index")
    return RoundShown(review, [_shown(row, round_index, names) for row in rows], moves)


def accuracy_of(decisions: Iterable[DecisionShown]) -> int | None:
    """The accuracy (0-100, whole) of a seat's own decisions, None for none."""
    found = analysis.accuracy([d.loss for d in decisions if d.own])
    return None if found is None else round(found)


@dataclass
class SeatReview:
    """A seat's part of a match's review: its accuracy each round (None: nothing reviewed
    yet or no decision of its own), for the match, and its costliest decisions."""

    seat: PlaySeat
    name: str
    mine: bool
    rounds: list[int | None]
    match: int | None
    costliest: list[DecisionShown]
    decisions: int


@dataclass
class MatchReview:
    """A match's review: the rounds reviewed, those still waiting, each seat's part (the
    viewer's first)."""

    rounds: list[RoundReview]
    seats: list[SeatReview] = field(default_factory=list)

    @property
    def waiting(self) -> int:
        return sum(review.status == RoundReview.Status.WAITING for review in self.rounds)

    @property
    def failed(self) -> int:
        return sum(review.status == RoundReview.Status.FAILED for review in self.rounds)

    @property
    def reviewed(self) -> bool:
        return any(review.status == RoundReview.Status.DONE for review in self.rounds)


def match_review(table: PlayTable, seats: Sequence[PlaySeat], viewer) -> MatchReview:
    """The review of every finished round of `table` (two queries)."""
    reviews = list(RoundReview.objects.filter(table=table).order_by("round"))
    names = names_of(seats)
    by_round: dict[int, list[DecisionShown]] = {review.round: [] for review in reviews}
    rounds_of = {review.pk: review.round for review in reviews}
    rows = (
        ReviewedDecision.objects.filter(review__table=table)
        .only(*FIELDS)
        .order_by("review", "index")
    )
    for row in rows:
        round_index = rounds_of[row.review_id]
        by_round[round_index].append(_shown(row, round_index, names))
    review = MatchReview(reviews)
    for seat in seats:
        own = [d for review in reviews for d in by_round[review.round] if d.seat == seat.position]
        costly = sorted(
            (d for d in own if d.own and d.label != "best"),
            key=lambda d: (-d.loss, d.round, d.index),
        )
        review.seats.append(
            SeatReview(
                seat=seat,
                name=names[seat.position],
                mine=_is_viewers(seat, viewer),
                rounds=[
                    accuracy_of(d for d in by_round[r.round] if d.seat == seat.position)
                    for r in reviews
                ],
                match=accuracy_of(own),
                costliest=costly[:COSTLIEST],
                decisions=sum(d.own for d in own),
            )
        )
    review.seats.sort(key=lambda part: not part.mine)
    return review


def table_with_seats(pk: int) -> tuple[PlayTable, list[PlaySeat]] | None:
    """A played table (with its match) and its seats in order (with their players), for its
    review's pages; None for no such table."""
    table = PlayTable.objects.select_related("match").filter(pk=pk).first()
    if table is None:
        return None
    seats = list(table.seats.select_related("user__player", "player").order_by("position"))
    return table, seats


def _is_viewers(seat: PlaySeat, viewer) -> bool:
    return bool(viewer.is_authenticated and seat.user_id == viewer.pk)


@dataclass
class RoundEnd:
    """What the coach says after a round's board: the viewer's seat (None: a spectator), the
    round's review and the viewer's accuracy in it and in the match so far."""

    review: RoundReview | None
    mine: PlaySeat | None
    round_accuracy: int | None
    match_accuracy: int | None


def round_end(table: PlayTable, round_index: int, seats: Sequence[PlaySeat], viewer) -> RoundEnd:
    """The viewer's accuracy at a round's end (two queries; one for a spectator). A round
    below 0: the last one queued."""
    reviews = {review.round: review for review in RoundReview.objects.filter(table=table)}
    if round_index < 0 and reviews:
        round_index = max(reviews)
    mine = next((seat for seat in seats if _is_viewers(seat, viewer)), None)
    review = reviews.get(round_index)
    if mine is None or review is None:
        return RoundEnd(review, mine, None, None)
    rows = ReviewedDecision.objects.filter(
        review__table=table, seat=mine.position, review__round__lte=round_index
    ).only(*FIELDS)
    names = names_of(seats)
    shown = [(row.review_id, _shown(row, 0, names)) for row in rows]
    done = review.status == RoundReview.Status.DONE
    return RoundEnd(
        review,
        mine,
        accuracy_of(d for pk, d in shown if pk == review.pk) if done else None,
        accuracy_of(d for _, d in shown),
    )


# --- a round as its review replays it ---------------------------------------------------------


def round_to_review(review: RoundReview) -> tuple[Game, list[Move], list[str]]:
    """The game at the start of the review's round, the round's moves in order, and who made
    each (PlayMove.by)."""
    table = review.table
    start, _ = play_queries.replay(table, review.round, 0)
    kept = list(table.moves.filter(round=review.round).order_by("number").values("move", "by"))
    return start, [Move.from_json(row["move"]) for row in kept], [row["by"] for row in kept]


def seat_players(table: PlayTable) -> dict[int, int | None]:
    """The player who sat in each seat (a person's player, or the bot's)."""
    return dict(table.seats.values_list("position", "player_id"))


# --- practice: a person's own mistakes --------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    total: int
    solved: int

    @property
    def left(self) -> int:
        return self.total - self.solved


def own_decisions(user) -> QuerySet[ReviewedDecision]:
    """The decisions `user` made themself (not a stand-in's, not a bot's) at their seats."""
    return ReviewedDecision.objects.own().filter(player__user=user)


def practised(user) -> QuerySet[ReviewedDecision]:
    """The person's positions to practise, with their practice (`tries`, `solved_at`,
    `shown_at`): unsolved first, the costliest first. Mistakes and blunders; inaccuracies too
    when the person made few of those (one query to count them)."""
    own = own_decisions(user)
    labels = list(PRACTISED)
    if own.filter(label__in=labels).count() < FEW:
        labels.append(Label.INACCURACY)
    return (
        own.filter(label__in=labels)
        .alias(mine=FilteredRelation("practice", condition=Q(practice__user=user)))
        .annotate(
            tries=F("mine__tries"),
            solved_at=F("mine__solved_at"),
            shown_at=F("mine__shown_at"),
            solved=Case(When(mine__solved_at__isnull=False, then=Value(1)), default=Value(0)),
        )
        .select_related("review__table")
        .order_by("solved", "-loss", "pk")
    )


def summary(positions: QuerySet[ReviewedDecision]) -> Summary:
    """How many positions there are to practise, and how many are solved (one query)."""
    counted = positions.order_by().aggregate(
        total=Count("pk"), solved=Count("pk", filter=Q(mine__solved_at__isnull=False))
    )
    return Summary(total=counted["total"], solved=counted["solved"])


def position_of(user, pk: int) -> ReviewedDecision | None:
    """One of the person's positions to practise, with its practice, or None (another
    person's decision, a stand-in's or a bot's, or a best move: nothing to practise)."""
    return (
        own_decisions(user)
        .exclude(label=Label.BEST)
        .select_related("review__table")
        .filter(pk=pk)
        .first()
    )


def practice_of(user, decision: ReviewedDecision) -> Practice | None:
    return Practice.objects.filter(user=user, decision=decision).first()


def next_position(user, after: ReviewedDecision) -> ReviewedDecision | None:
    """The first unsolved position of the list other than `after`."""
    return practised(user).filter(solved=0).exclude(pk=after.pk).first()


def practice_list(user) -> tuple[list[ReviewedDecision], Summary]:
    """The first LISTED of the person's positions to practise, and how many there are and are
    solved (three queries; two when there is none)."""
    positions = practised(user)
    rows = list(positions[:LISTED])
    return rows, summary(positions) if rows else Summary(0, 0)


def seats_of(table: PlayTable) -> list[PlaySeat]:
    """A table's seats with their players, for its board."""
    return list(table.seats.select_related("player"))


# --- a player's profile panel: only the person's own moves (`by` "") count --------------------


def own_moves(player: Player) -> QuerySet[ReviewedDecision]:
    return ReviewedDecision.objects.own().filter(player=player)


def overall_of(player: Player | None) -> profile.Overall | None:
    """The player's accuracy as the profile's panel gives it (one query), None when none of
    their own moves was reviewed."""
    if player is None:
        return None
    found = own_moves(player).aggregate(
        accuracy=Avg("accuracy"),
        decisions=Count("pk"),
        tables=Count("review__table", distinct=True),
    )
    if not found["decisions"]:
        return None
    return profile.Overall(round(found["accuracy"]), found["decisions"], found["tables"])


def panel_of(player: Player) -> profile.CoachPanel | None:
    """The coach's panel of the player, or None when none of their own moves was reviewed.
    Two queries for a player with reviewed moves, one for a player with none; the site's
    accuracy per rules is read once for everyone and kept in the cache a few minutes."""
    tables = list(
        own_moves(player)
        .values("review__table_id", "review__table__preset")
        .annotate(accuracy=Avg("accuracy"), decisions=Count("pk"), at=Max("review__created_at"))
        .order_by("at", "review__table_id")
    )
    if not tables:
        return None
    return profile.panel_from(tables, kinds_of(player), site_accuracy())


def kinds_of(player: Player) -> list[profile.Kind]:
    """The kinds of the player's mistakes, the most frequent first, each with its costliest
    example (one query: a window over the kinds)."""
    by_kind = [F("kind")]
    rows = (
        own_moves(player)
        .exclude(kind="")
        .annotate(
            rank=Window(RowNumber(), partition_by=by_kind, order_by=[F("loss").desc(), "pk"]),
            times=Window(Count("pk"), partition_by=by_kind),
        )
        .filter(rank=1)
        .values("kind", "times", "loss", "index", "review__round", "review__table_id")
    )
    return profile.kinds_from(rows)


def site_accuracy() -> dict[str, float]:
    """The accuracy of every person's own reviewed moves on the site, per rules (preset):
    read once and kept in the cache for a few minutes."""
    return cache.get_or_set(SITE_KEY, _read_site_accuracy, SITE_CACHE_SECONDS)


def _read_site_accuracy() -> dict[str, float]:
    rows = (
        ReviewedDecision.objects.own()
        .values("review__table__preset")
        .annotate(accuracy=Avg("accuracy"))
        .order_by()
    )
    return {row["review__table__preset"]: row["accuracy"] for row in rows}
