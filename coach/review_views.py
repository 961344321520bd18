"""The review of played matches: a table's review (each seat's accuracy by round and for the
match, their costliest decisions, linked to the replay) and the panel after a round's board
(the viewer's accuracy, or that the coach is at it)."""

from __future__ import annotations

from collections.abc import Sequence

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_safe

from coach import queries
from play.models import PlaySeat, PlayTable

# While the round's review waits, the panel after its board asks again this often.
POLL_SECONDS = 3


def _table(pk: int) -> tuple[PlayTable, list[PlaySeat]]:
    found = queries.table_with_seats(pk)
    if found is None:
        raise Http404
    return found


@require_safe
def table_review(request: HttpRequest, pk: int) -> HttpResponse:
    """The coach's review of a played table's match, for anyone who may see the table (its
    finished rounds' hands were shown to the table: nothing hidden is in it)."""
    table, seats = _table(pk)
    review = queries.match_review(table, seats, request.user)
    mine = next((part for part in review.seats if part.mine), None)
    context = {
        "table": table,
        "review": review,
        "numbers": [r.round + 1 for r in review.rounds],
        # The viewer's accuracy as their profile gives it, beside this match's alone.
        "overall": queries.overall_of(mine.seat.player) if mine else None,
        "mine": mine,
    }
    return render(request, "coach/table_review.html", context)


@require_safe
def round_end(request: HttpRequest, pk: int) -> HttpResponse:
    """The panel after a round's board (`?round=`, 1-based; without it, the last round
    reviewed or waiting), asked again while it waits."""
    table, seats = _table(pk)
    try:
        number = int(request.GET.get("round", "0"))
    except ValueError:
        raise Http404 from None
    return HttpResponse(round_end_panel(table, number - 1, seats, request.user))


def round_end_panel(table: PlayTable, round_index: int, seats: Sequence[PlaySeat], viewer) -> str:
    """The viewer's accuracy after the board of round `round_index` (0-based), or that the
    coach is reviewing it; "" when there is no review of it."""
    shown = queries.round_end(table, round_index, seats, viewer)
    if shown.review is None:
        return ""
    context = {
        "table": table,
        "number": shown.review.round + 1,
        "shown": shown,
        "match_over": table.status == PlayTable.Status.FINISHED,
        "poll": POLL_SECONDS,
    }
    return render_to_string("coach/_round_end.html", context)
