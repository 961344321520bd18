"""The coach's services, the only code that writes its tables: queue a finished round for
review (in the transaction that finished it), and keep its decisions one by one (its task,
coach.tasks, never a request).

Locks: a review's row; its table's rows are only read (a finished round never changes)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from cards101 import analysis
from cards101.engine import Game, Move
from coach.models import ReviewedDecision, RoundReview
from play import queries as play_queries
from play.models import PlayTable

# The keys of a seat's view kept with a decision: the position as the seat saw it (the log,
# which can be long, and what the round's end adds are left out).
POSITION_KEYS = (
    "seat",
    "players",
    "to_move",
    "round",
    "dealer",
    "leader",
    "hand",
    "hand_counts",
    "stock",
    "pile",
    "top",
    "ordered_suit",
    "must_cover",
    "owed_draws",
    "went_out",
    "active",
    "totals",
    "legal",
    "variant",
    "cover",
    "skip_next",
    "drew",
    "opening_queen",
    "moves",
)


def queue_review(*, table: PlayTable, round_index: int) -> tuple[RoundReview, bool]:
    """A review of round `round_index` of `table`, waiting for its task (coach.tasks.queue,
    in the transaction that finished the round); a second call finds the first. Returns the
    review and whether it is new."""
    return RoundReview.objects.get_or_create(table=table, round=round_index)


def keep_decision(review: RoundReview, row: ReviewedDecision, *, next_index: int) -> bool:
    """Write one decision of `review` and move the review past it, if it still stands where
    `review` says (`next_index` then moves on). Returns whether it was written."""
    with transaction.atomic():
        moved = RoundReview.objects.filter(
            pk=review.pk, status=RoundReview.Status.WAITING, next_index=review.next_index
        ).update(next_index=next_index)
        if not moved:
            return False
        row.save(force_insert=True)
    review.next_index = next_index
    return True


def settle_review(review: RoundReview, *, next_index: int | None = None, failed: str = "") -> None:
    """The review done (every decision written) or failed (`failed` says why), if it still
    waits; a new version either way (pages keyed on it show the end)."""
    with transaction.atomic():
        locked = (
            RoundReview.objects.select_for_update()
            .filter(pk=review.pk, status=RoundReview.Status.WAITING)
            .first()
        )
        if locked is None:
            return
        locked.status = RoundReview.Status.FAILED if failed else RoundReview.Status.DONE
        locked.error = failed[:300]
        if next_index is not None:
            locked.next_index = next_index
        locked.done_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["status", "error", "next_index", "done_at", "version"])


def review_seed(table_seed: int, round_index: int) -> int:
    """The seed a round is reviewed with: the same review of it every time, anywhere."""
    return table_seed * 1_000 + round_index


def round_to_review(review: RoundReview) -> tuple[Game, list[Move], list[str]]:
    """The game at the start of the review's round, the round's moves in order, and who made
    each (PlayMove.by)."""
    table = review.table
    start, _ = play_queries.replay(table, review.round, 0)
    kept = list(table.moves.filter(round=review.round).order_by("number").values("move", "by"))
    return start, [Move.from_json(row["move"]) for row in kept], [row["by"] for row in kept]


def decision_row(
    review: RoundReview,
    decision: analysis.Decision,
    view: dict,
    *,
    by: str,
    players: dict[int, int | None],
) -> ReviewedDecision:
    """A decision as kept (not saved)."""
    return ReviewedDecision(
        review=review,
        index=decision.index,
        seat=decision.seat,
        player_id=players.get(decision.seat),
        by=by,
        played=decision.played.to_json(),
        best=decision.best.to_json(),
        loss=decision.loss,
        label=decision.label,
        accuracy=analysis.accuracy([decision.loss]),
        losses=[[move.to_json(), loss] for move, loss in decision.losses],
        kind=analysis.kind_of(view, decision),
        position={key: view[key] for key in POSITION_KEYS if key in view},
        deals=decision.deals,
    )


def seat_players(table: PlayTable) -> dict[int, int | None]:
    """The player who sat in each seat (a person's player, or the bot's)."""
    return dict(table.seats.values_list("position", "player_id"))


def review_now(
    review: RoundReview, *, budget: float | None = None, seed: int | None = None
) -> RoundReview:
    """Review the whole round at once and keep it (for tests and the demo; its task goes
    decision by decision). `seed`: by default the task's (the same review)."""
    if seed is None:
        seed = review_seed(review.table.seed, review.round)
    start, moves, made_by = round_to_review(review)
    players = seat_players(review.table)
    rows = _rows(review, start, moves, made_by, players, budget=budget, seed=seed)
    with transaction.atomic():
        locked = RoundReview.objects.select_for_update().get(pk=review.pk)
        if locked.status != RoundReview.Status.WAITING:
            return locked
        ReviewedDecision.objects.filter(review=locked).delete()
        ReviewedDecision.objects.bulk_create(rows)
        locked.status = RoundReview.Status.DONE
        locked.next_index = len(moves)
        locked.done_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["status", "next_index", "done_at", "version"])
    return locked


def _rows(
    review: RoundReview,
    start: Game,
    moves: list[Move],
    made_by: list[str],
    players: dict[int, int | None],
    *,
    budget: float | None,
    seed: int,
) -> Iterable[ReviewedDecision]:
    views = views_before(start, moves)
    return [
        decision_row(
            review, decision, views[decision.index], by=made_by[decision.index], players=players
        )
        for decision in analysis.decisions(start, moves, budget=budget, seed=seed)
    ]


def views_before(start: Game, moves: list[Move]) -> ViewsBefore:
    """The view of the seat to move before each move, by the move's index, asked in order."""
    return ViewsBefore(start, moves)


class ViewsBefore:
    """The views of the seats to move before the round's moves, for indices asked in
    increasing order: the round is replayed once, as far as asked, and a view (which holds the
    round's log) is made only where one is asked for, not at every move of a long round.
    IllegalMove where a move is not legal."""

    def __init__(self, start: Game, moves: list[Move]) -> None:
        self._game = start.copy()
        self._moves = moves
        self._made = 0

    def __getitem__(self, index: int) -> dict:
        if index < self._made:
            raise ValueError(f"The view before move {index} is behind this replay")
        while self._made < index:
            self._game.play(self._moves[self._made])
            self._made += 1
        return self._game.view(self._game.to_move)
