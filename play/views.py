"""Views of tables played on the site: the lobby, a new table, joining and leaving, the board
and moves, and a person's vacation from correspondence tables."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from cards101.engine import IllegalMove, Move
from cards101.rules import RulesError, parse_card
from core.limits import limit
from core.versions import version_of
from games import extensions
from games.labels import rules_message, rules_summary
from games.sheet import Sheet
from play import presence, queries, services, signals, vacations
from play.board import SUIT_SYMBOLS, board, clock
from play.forms import PlayTableForm, VacationDatesForm, VacationDaysForm
from play.models import PlaySeat, PlayTable
from play.queries import AtTable, at_table


def _get_table(pk: int) -> PlayTable:
    return get_object_or_404(PlayTable.objects.select_related("match"), pk=pk)


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """Tables I sit at (not those I resigned and left), those where it is my move first, and
    public tables waiting for players."""
    mine, open_tables = queries.lobby(request.user)
    context = {
        "mine": mine,
        "open_tables": open_tables,
        "moves_due": queries.moves_due(request.user),
    }
    return render(request, "play/lobby.html", context)


@login_required
@vary_on_headers("HX-Request")
@limit("table")
def table_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = PlayTableForm(request.POST, preset=request.POST.get("preset"))
        if form.is_valid():
            try:
                table = services.create_table(
                    by=request.user,
                    preset=form.cleaned_data["preset"],
                    variant=form.cleaned_data["variant"],
                    seats=form.cleaned_data["seats"],
                    public=form.cleaned_data["public"],
                    move_seconds=form.cleaned_data["move_seconds"],
                    name=form.cleaned_data["name"],
                )
            except services.TableError as error:
                form.add_error(None, str(error))
            else:
                return redirect(table)
    else:
        form = PlayTableForm(preset=request.GET.get("preset"))
    template = "play/new.html"
    if request.htmx and request.method == "GET":
        template = form.options_template_name
    return render(request, template, {"form": form})


@require_safe
def join_link(request: HttpRequest, invite: str) -> HttpResponse:
    """The invitation link: the table, and a button to take a seat."""
    table = get_object_or_404(PlayTable, invite=invite)
    return redirect(f"{table.get_absolute_url()}?invite={invite}")


@login_required
@require_POST
@limit("join")
def join(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table(pk)
    try:
        services.join(table=table, user=request.user, invite=request.POST.get("invite"))
    except services.TableError as error:
        messages.error(request, str(error))
    return redirect(table)


@require_safe
@vary_on_headers("HX-Request")
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The board. A fetch by htmx naming the version it shows (after an event, or the slow
    fallback poll) that finds nothing new answers 204 without rendering. Reading the board
    never moves the game: the worker does (play_worker). A visitor (who cannot be seated)
    is given the spectators' board of the new version straight from the cache when another
    watcher's fetch has rendered it already."""
    if request.GET.get("w"):
        presence.watching(table=pk, token=request.GET["w"])
    if request.htmx and "v" in request.GET:
        version = version_of(PlayTable, pk)
        if version is None:
            raise Http404
        if request.GET["v"] == str(version):
            return HttpResponse(status=204)
        html = queries.watched_board(request, pk, version)
        if html is not None:
            return HttpResponse(html)
    return _render_board(request, _read(pk))


def _read(pk: int) -> AtTable:
    try:
        return at_table(pk)
    except PlayTable.DoesNotExist:
        raise Http404 from None


def _render_board(request: HttpRequest, at: AtTable, error: str = "") -> HttpResponse:
    table, seats = at.table, at.seats
    # Not by user id alone: an anonymous visitor's id is None, like a bot seat's user.
    mine = queries.seat_of(seats, request.user)
    if mine is not None:
        presence.watching(table=table.pk, seat=mine.pk)
    left = mine is None and queries.has_left(seats, request.user)
    shared = queries.shares_watched_board(request, table, seats, error)
    if shared:
        html = queries.watched_board(request, table.pk, table.version, seats)
        if html is not None:
            return HttpResponse(html)
    context = {
        "table": table,
        "seats": seats,
        "mine": mine,
        "summary": rules_summary(table.variant, table.preset),
        "invite": request.GET.get("invite", ""),
        "error": error,
        "left": left,
        "watch": presence.watch_token(mine) if mine is not None else "",
    }
    if at.game is not None:
        # What the board shows this seat: only what `queries.view_of` lets it see.
        shown = board(
            queries.view_of(at.game, mine),
            seats,
            mine,
            queries.board_seen(request),
            stand_ins=table.site_moves,
        )
        context["board"] = shown
        context["clock"] = clock(table, shown, timezone.now())
        for position, vacation in queries.on_vacation(table, seats).items():
            at.seat_at(position).vacation_until = vacation.ends_at
        context["ranking"] = queries.ranking(table) if shown.match_over and table.match_id else []
    template = "play/table.html"
    if request.htmx:
        template += "#board"
    response = render(request, template, context)
    if shared:
        queries.keep_watched_board(request, table.pk, table.version, response.content.decode())
    return response


@require_safe
def chances(request: HttpRequest, pk: int) -> HttpResponse:
    """What statistics say of the table's match, for the board at a round's end (loaded after
    it): the chances to win as the totals now stand, or, after the match, how the ratings
    moved. Apart from the board, so that the move that ends a round is answered at once; the
    chances are worked out once a round (cached on the match's version)."""
    table = _get_table(pk)
    if table.match is None:
        raise Http404
    return HttpResponse("".join(extensions.match_panels(table.match, Sheet(table.match))))


@login_required
@require_POST
@limit("move")
def move(request: HttpRequest, pk: int) -> HttpResponse:
    """A move: the board as the service left it (each part of the table read once, under its
    lock), or as it is now with why the move was refused."""
    error, at = "", None
    try:
        chosen = _posted_move(request)
        version = int(request.POST.get("version", ""))
        at = services.play(table=pk, user=request.user, move=chosen, version=version)
    except PlayTable.DoesNotExist:
        raise Http404 from None
    except IllegalMove as refused:
        seats = PlaySeat.objects.filter(table=pk).select_related("player")
        error = rules_message(refused, {seat.position: str(seat) for seat in seats})
    except (ValueError, RulesError):
        error = _("That move could not be read.")
    except services.TableError as refused:
        error = str(refused)
    return _answer(request, pk, error, at)


def _answer(request: HttpRequest, pk: int, error: str, at: AtTable | None) -> HttpResponse:
    """After a move or a deal: the board as it is now (htmx: `at`, as the service left it, or
    read again after a refusal), or back to the table's page with the refusal as a message."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("play:table", pk=pk)
    return _render_board(request, at or _read(pk), error)


def _posted_move(request: HttpRequest) -> Move:
    kind = request.POST.get("kind", "")
    if kind not in ("play", "draw", "pass"):
        raise ValueError(kind)
    card = request.POST.get("card") or None
    suit = request.POST.get("suit") or None
    if suit is not None and suit not in SUIT_SYMBOLS:
        raise ValueError(suit)
    return Move(kind, parse_card(card) if card else None, suit)


@login_required
@require_POST
@limit("leave")
def come_back(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table(pk)
    try:
        services.come_back(table=table, user=request.user)
    except services.TableError as error:
        messages.error(request, str(error))
    return redirect(table)


@login_required
@require_POST
@limit("leave")
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    """Leave a table waiting for players (back to the lobby), or resign from one in play (its
    page then says so, as anyone watching sees it)."""
    table = _get_table(pk)
    try:
        status = request.POST.get("status", "")
        left = services.leave(table=table, user=request.user, status=status)
    except services.TableError as error:
        messages.error(request, str(error))
    else:
        if left.status == PlayTable.Status.WAITING:
            messages.success(request, _("You left the table; your seat is open again."))
            return redirect("play:lobby")
    return redirect(table)


@login_required
@require_POST
@limit("deal")
def fast_forward(request: HttpRequest, pk: int) -> HttpResponse:
    """The rest of the round played at once, for someone out of it among bots."""
    return _on_round(request, pk, services.fast_forward)


def _on_round(request: HttpRequest, pk: int, change) -> HttpResponse:
    """A change to the round the board showed (`change(table=, user=, round_number=)`, a
    service returning the table as it left it): the board as it is now, with why not if it was
    refused. Not on the table's version: the bots' moves meanwhile do not change what was
    asked."""
    error, at = "", None
    try:
        number = int(request.POST.get("round", ""))
        at = change(table=pk, user=request.user, round_number=number)
    except PlayTable.DoesNotExist:
        raise Http404 from None
    except ValueError:
        error = _("The table has moved on; here it is now.")
    except services.TableError as refused:
        error = str(refused)
    return _answer(request, pk, error, at)


@login_required
@require_POST
@limit("deal")
def next_round(request: HttpRequest, pk: int) -> HttpResponse:
    return _on_round(request, pk, services.next_round)


@login_required
@require_POST
@limit("table")
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table(pk)
    try:
        new = services.rematch(table=table, by=request.user)
    except services.TableError as error:
        messages.error(request, str(error))
        return redirect(table)
    messages.success(request, _("A new table with the same seats is ready."))
    return redirect(new)


@require_safe
def replay(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A finished round, move by move, every hand shown at each step to whoever looks (its
    hands were shown to the table at its end). A round still being played is not found."""
    table = _get_table(pk)
    if table.state is None:
        raise Http404
    current = queries.view_for(table, None)
    finished = current["round"] if current["round_over"] else current["round"] - 1
    if not 1 <= number <= finished + 1:
        raise Http404
    try:
        step = max(0, int(request.GET.get("step", "0")))
    except ValueError:
        step = 0
    seats = list(table.seats.select_related("user__player", "player"))
    mine = queries.seat_of(seats, request.user)
    game, count, site = queries.replay_said(table, number - 1, step)
    step = min(step, count)
    return render(
        request,
        "play/replay.html",
        {
            "table": table,
            "number": number,
            "step": step,
            "count": count,
            "previous": step - 1 if step > 0 else None,
            "next": step + 1 if step < count else None,
            "board": board(queries.replay_view(game), seats, mine, stand_ins=site),
            "panels": signals.panels(
                signals.replay_panels,
                table=table,
                round=number - 1,
                step=step,
                count=count,
                seats=seats,
                viewer=request.user,
            ),
        },
    )


@require_safe
def round_end(request: HttpRequest, pk: int) -> HttpResponse:
    """What the apps above show after the board of a round's end (`?round=`, 1-based: the
    board that asks; without it, the last finished round), for whoever looks: the coach's
    accuracy of the viewer. Apart from the board, which is cached for spectators and not
    drawn again when the review is done."""
    table = _get_table(pk)
    number = _round_asked(request, table)
    seats = list(table.seats.select_related("user__player", "player").order_by("position"))
    html = signals.panels(
        signals.round_end_panels, table=table, round=number - 1, seats=seats, viewer=request.user
    )
    return HttpResponse("".join(html))


@login_required
@limit("vacation")
def vacation(request: HttpRequest) -> HttpResponse:
    """The person's vacation from correspondence tables: the one running or planned (to end or
    cancel), the days left this year, and a vacation to take from one day to another or from
    now for so many days."""
    dates, days = VacationDatesForm(prefix="dates"), VacationDaysForm(prefix="days")
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "end":
            ended = vacations.end_vacation(user=request.user)
            if ended is not None:
                messages.success(request, _("Your vacation is over; your clocks run again."))
            return redirect("play:vacation")
        form = None
        if action == "dates":
            form = dates = VacationDatesForm(request.POST, prefix="dates")
        elif action == "days":
            form = days = VacationDaysForm(request.POST, prefix="days")
        if form is not None and form.is_valid():
            starts_at, ends_at = form.span()
            try:
                vacations.take_vacation(user=request.user, starts_at=starts_at, ends_at=ends_at)
            except vacations.VacationError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Your vacation is saved."))
                return redirect("play:vacation")
    year = timezone.localdate().year
    taken = vacations.days_taken(request.user, year)
    context = {
        "current": queries.vacation_of(request.user),
        "now": timezone.now(),
        "year": year,
        "allowance": vacations.allowance(),
        "taken": taken,
        "left": max(0, vacations.allowance() - taken),
        "dates": dates,
        "days": days,
    }
    return render(request, "play/vacation.html", context)


def _round_asked(request: HttpRequest, table: PlayTable) -> int:
    """The finished round (1-based) named by `?round=`, or the last one; 404 for none."""
    current = queries.view_for(table, None)
    if current is None:
        raise Http404
    finished = current["round"] + 1 if current["round_over"] else current["round"]
    try:
        number = int(request.GET.get("round", finished))
    except ValueError:
        raise Http404 from None
    if not 1 <= number <= finished:
        raise Http404
    return number
