"""Practice from your own mistakes: the positions of your reviewed rounds where you lost the
most, each shown as you saw it, tried until solved."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from cards101.analysis import practice
from cards101.rules import parse_card
from coach import queries, services
from coach.models import Practice, ReviewedDecision
from core.limits import limit
from games.labels import card_name, card_notation
from play.board import SUIT_SYMBOLS, board
from play.spoken import ORDERED_SUITS

# A position's label on the practice list (coach.models.Label's, as practice says them).
LABELS = {
    "inaccuracy": pgettext_lazy("a move to practise", "inaccuracy"),
    "mistake": pgettext_lazy("a move to practise", "mistake"),
    "blunder": pgettext_lazy("a move to practise", "blunder"),
}


@dataclass(frozen=True)
class NamedMove:
    """A move as the page writes it ("Q♦ → ♠") and as a screen reader says it."""

    text: str
    spoken: str

    def __str__(self) -> str:
        return self.text


def named(move: dict[str, Any]) -> NamedMove:
    if move["kind"] == "draw":
        return NamedMove(_("Draw a card"), _("Draw a card"))
    if move["kind"] == "pass":
        return NamedMove(_("Pass"), _("Pass"))
    card = parse_card(move["card"])
    text, spoken = card_notation(card), card_name(card)
    if move.get("suit"):
        text += " " + _("ordering %(suit)s") % {"suit": SUIT_SYMBOLS[move["suit"]]}
        spoken += ", " + _("ordering %(suit)s") % {"suit": ORDERED_SUITS[move["suit"]]}
    return NamedMove(text, spoken)


@dataclass(frozen=True)
class Answer:
    """What the page says of the last move tried."""

    move: NamedMove
    extra: int  # points more than the best, rounded
    solved: bool
    best: bool  # the best move itself (solved by one as good otherwise)


@login_required
@require_safe
def practice_list(request: HttpRequest) -> HttpResponse:
    rows, counted = queries.practice_list(request.user)
    for row in rows:
        row.lost = round(row.loss)
        row.label_name = LABELS.get(row.label, row.label)
    return render(
        request,
        "coach/practice.html",
        {"rows": rows, "summary": counted, "first": next((r for r in rows if not r.solved), None)},
    )


@login_required
@require_safe
@vary_on_headers("HX-Request")
def practice_position(request: HttpRequest, pk: int) -> HttpResponse:
    decision = _position(request, pk)
    return _render_position(request, decision, queries.practice_of(request.user, decision))


@login_required
@require_POST
@limit("practice")
def practice_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """A move tried at the position (the fields a board's form posts: kind, card, suit), or
    the best move asked for ("show"). Then the position again, with the answer: the fragment
    for htmx, else back to the page."""
    decision = _position(request, pk)
    error = ""
    if request.POST.get("show"):
        done = services.show_best(user=request.user, decision=decision)
    else:
        move = practice.legal_move(
            decision,
            request.POST.get("kind", ""),
            request.POST.get("card"),
            request.POST.get("suit"),
        )
        if move is None:
            done = queries.practice_of(request.user, decision)
            error = _("That move could not be read.")
        else:
            done = services.try_move(user=request.user, decision=decision, move=move)
    if not request.htmx:
        if error:
            messages.error(request, error)
        page = reverse("coach:practice_position", args=[decision.pk])
        if done is not None:
            page += "?shown=1" if request.POST.get("show") else "?answered=1"
        return redirect(page)
    return _render_position(request, decision, done, error=error)


def _position(request: HttpRequest, pk: int) -> ReviewedDecision:
    found = queries.position_of(request.user, pk)
    if found is None:
        raise Http404
    return found


def _render_position(
    request: HttpRequest, decision: ReviewedDecision, done: Practice | None, error: str = ""
) -> HttpResponse:
    table = decision.review.table
    seats = queries.seats_of(table)
    mine = next((seat for seat in seats if seat.position == decision.seat), None)
    view = {**decision.position, "round_over": False, "match_over": False}
    solved = done is not None and done.solved_at is not None
    answer = None
    if done is not None and done.last_move:
        answer = Answer(
            move=named(done.last_move),
            extra=round(practice.extra_loss(decision, done.last_move)),
            solved=practice.solves(decision, done.last_move),
            best=practice.is_best(decision, done.last_move),
        )
    shown = done is not None and done.shown_at is not None
    context = {
        "decision": decision,
        "table": table,
        "round": decision.review.round + 1,
        "board": board(view, seats, mine),
        "position": decision.position,
        "practice": done,
        "answer": answer,
        "solved": solved,
        "shown": shown and not solved,
        "error": error,
        "played": named(decision.played),
        "best": named(decision.best),
        "lost": round(decision.loss),
        "replay": reverse("play:replay", args=[table.pk, decision.review.round + 1])
        + f"?step={decision.index}",
        "next": queries.next_position(request.user, decision) if solved else None,
        # Focus lands on the answer after a try, on the best move once shown (htmx, or the
        # page the form comes back to).
        "focus": _focus(request, answer is not None, shown),
    }
    template = "coach/practice_position.html"
    if request.htmx:
        template += "#practice"
    return render(request, template, context)


def _focus(request: HttpRequest, answered: bool, shown: bool) -> str:
    if request.method == "POST":
        return "shown" if request.POST.get("show") else "answer"
    if shown and "shown" in request.GET:
        return "shown"
    return "answer" if answered and "answered" in request.GET else ""
