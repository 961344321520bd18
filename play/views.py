"""Views of tables played on the site: the lobby, a new table, joining and leaving, the board
and moves."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from cards101.engine import IllegalMove, Move
from cards101.rules import RulesError, parse_card
from core.limits import limit
from core.versions import version_of
from games import audience, extensions
from games.labels import rules_message, rules_summary
from games.models import Seat
from games.sheet import Sheet
from play import services, spoken
from play.board import SUIT_SYMBOLS, board, clock
from play.forms import PlayTableForm
from play.models import PlaySeat, PlayTable
from play.queries import AtTable, at_table


def _get_table(pk: int) -> PlayTable:
    return get_object_or_404(PlayTable.objects.select_related("match"), pk=pk)


# The tables a lobby lists of each kind: a person sits at a handful at once.
LOBBY_TABLES = 20
# A spectator's board is kept for its version: every watcher of a table fetches the same one
# after each move. A newer version is another key, so this only bounds what is kept.
WATCHED_BOARD_SECONDS = 120


@dataclass(frozen=True)
class LobbyRow:
    """A table as the lobby lists it: its seats, whose decision it is (None when nobody's:
    waiting for players, between two rounds) and whether that is the viewer's."""

    table: PlayTable
    seats: list[PlaySeat]
    to_move: PlaySeat | None
    my_move: bool


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """Tables I sit at (not those I resigned and left), those where it is my move first, and
    public tables waiting for players."""
    mine = []
    if request.user.is_authenticated:
        mine = PlayTable.objects.filter(seats__user=request.user, seats__left_at=None).exclude(
            status=PlayTable.Status.FINISHED
        )[:LOBBY_TABLES]
    open_tables = (
        PlayTable.objects.filter(public=True, status=PlayTable.Status.WAITING)
        .filter(~Q(seats__user=request.user) if request.user.is_authenticated else Q())
        .distinct()[:LOBBY_TABLES]
    )
    rows = _rows([*mine, *open_tables], request.user)
    # sorted() is stable: within each group, the table that moved last first.
    mine_rows = sorted(rows[: len(mine)], key=lambda row: not row.my_move)
    return render(
        request,
        "play/lobby.html",
        {"mine": mine_rows, "open_tables": rows[len(mine) :]},
    )


def _rows(tables: list[PlayTable], user) -> list[LobbyRow]:
    """The lobby's rows of these tables, their seats read in one query."""
    seats = PlaySeat.objects.filter(table__in=tables).select_related("user__player", "player")
    by_table: dict[int, list[PlaySeat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    rows = []
    for table in tables:
        around = by_table.get(table.pk, [])
        position = services.seat_to_move(table)
        to_move = next((seat for seat in around if seat.position == position), None)
        mine = services.seat_of(around, user)
        rows.append(LobbyRow(table, around, to_move, mine is not None and to_move == mine))
    return rows


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
    if request.htmx and "v" in request.GET:
        version = version_of(PlayTable, pk)
        if version is None:
            raise Http404
        if request.GET["v"] == str(version):
            return HttpResponse(status=204)
        if not request.user.is_authenticated:
            html = cache.get(_watched_board_key(pk, version, _since(request)))
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
    mine = services.seat_of(seats, request.user)
    left = mine is None and services.has_left(seats, request.user)
    shared = mine is None and not left and _shareable(request, table, error)
    since = _since(request)
    key = _watched_board_key(table.pk, table.version, since) if shared else None
    if key is not None and (html := cache.get(key)) is not None:
        return HttpResponse(html)
    context = {
        "table": table,
        "seats": seats,
        "mine": mine,
        "summary": rules_summary(table.variant, table.preset),
        "invite": request.GET.get("invite", ""),
        "error": error,
        "left": left,
    }
    if at.game is not None:
        # What the board shows this seat: only what `services.view_of` lets it see.
        shown = board(services.view_of(at.game, mine), seats, mine, since)
        context["board"] = shown
        context["clock"] = clock(table, shown, timezone.now())
        context["ranking"] = _ranking(table) if shown.match_over and table.match_id else []
    template = "play/table.html"
    if request.htmx:
        template += "#board"
    response = render(request, template, context)
    # Defence in depth: a board with a form on it (a CSRF token) is never shared.
    if key is not None and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        cache.set(key, response.content.decode(), WATCHED_BOARD_SECONDS)
    return response


def _shareable(request: HttpRequest, table: PlayTable, error: str) -> bool:
    """Whether a spectator's board (htmx's fetch after a move) is the same for every spectator
    of this version: not at a table still waiting (each visitor is shown their own way to a
    seat), nor with a move clock (drawn against the time of the request)."""
    return bool(
        request.htmx
        and not error
        and table.status != PlayTable.Status.WAITING
        and not table.move_seconds
    )


def _since(request: HttpRequest) -> tuple[int, int] | None:
    """The board the page showed before this one, as htmx names it (the board's hx-vals, sent
    with its fetch and with every move): what to announce is what happened since."""
    return spoken.parse_seen(request.GET.get("seen") or request.POST.get("seen"))


def _watched_board_key(pk: int, version: int, since: tuple[int, int] | None) -> str:
    """Where the spectators' board of a version is kept: besides the version, it varies with
    the board the watcher saw before (what it announces), the language, the names of the
    table's players and which hidden ones the viewer may read."""
    seen = "{}.{}".format(*since) if since else "-"
    return (
        f"play:watched:{pk}:{version}:{seen}:{get_language()}:{audience.cache_key(PlayTable, pk)}"
    )


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


def _ranking(table: PlayTable) -> list[Seat]:
    """The match's seats by place, once it is over (for the board's ranking)."""
    return list(table.match.seats.select_related("player").order_by("place", "position"))


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
    current = services.view_for(table, None)
    finished = current["round"] if current["round_over"] else current["round"] - 1
    if not 1 <= number <= finished + 1:
        raise Http404
    try:
        step = max(0, int(request.GET.get("step", "0")))
    except ValueError:
        step = 0
    seats = list(table.seats.select_related("user__player", "player"))
    mine = services.seat_of(seats, request.user)
    game, count = services.replay(table, number - 1, step)
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
            "board": board(services.replay_view(game), seats, mine),
        },
    )
