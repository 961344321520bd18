"""Views of the score sheet: match list, new match, the sheet, entering and changing rounds."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from functools import cached_property

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRefresh

from games import services
from games.forms import NewMatchForm, RoundForm, initial_from_entries
from games.labels import card_name, card_notation, changed_options, rules_message, rules_summary
from games.models import Entry, Match, Round, Seat
from games.rules import RulesError, deck
from games.validators import name_problem
from tournaments.models import Tournament

PAGE_SIZE = 20


def _get_match(pk: int) -> Match:
    return get_object_or_404(Match.objects.select_related("created_by"), pk=pk)


def _get_match_for_edit(request: HttpRequest, pk: int) -> Match:
    """The match, if this user may change it (creator or scorekeeper); 403 otherwise."""
    match = _get_match(pk)
    if not match.can_edit(request.user):
        raise PermissionDenied
    return match


def _get_match_for_owner(request: HttpRequest, pk: int) -> Match:
    match = _get_match(pk)
    if request.user.pk != match.created_by_id:
        raise PermissionDenied
    return match


def home(request: HttpRequest) -> HttpResponse:
    mine = Match.objects.for_user(request.user).with_seats()[:5]
    recent = Match.objects.casual().with_seats()[:10]
    tournaments = (
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .annotate(players=Count("entrants"))
        .order_by("-date", "-pk")[:5]
    )
    return render(
        request,
        "games/home.html",
        {"mine": mine, "recent": recent, "tournaments": tournaments},
    )


@vary_on_headers("HX-Request")
def match_list(request: HttpRequest) -> HttpResponse:
    show = request.GET.get("show", "mine" if request.user.is_authenticated else "recent")
    if show == "mine" and request.user.is_authenticated:
        matches = Match.objects.for_user(request.user)
    else:
        show, matches = "recent", Match.objects.casual()
    page = Paginator(matches.with_seats(), PAGE_SIZE).get_page(request.GET.get("page"))
    template = "games/match_list.html"
    if request.htmx:
        template += "#match-list"
    return render(request, template, {"page": page, "show": show})


@login_required
@vary_on_headers("HX-Request")
def new_match(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = NewMatchForm(request.POST, preset=request.POST.get("preset"))
        if form.is_valid():
            match = services.start_match(
                created_by=request.user,
                names=form.cleaned_data["names"],
                preset=form.cleaned_data["preset"],
                variant=form.cleaned_data["variant"],
            )
            return redirect(match)
    else:
        initial = {"player_1": request.user.get_username()}
        form = NewMatchForm(initial=initial, preset=request.GET.get("preset"))
    template = "games/new_match.html"
    if request.htmx and request.method == "GET":
        # Choosing another preset refills the options from it.
        template += "#options"
    known = services.known_player_names(request.user)
    return render(request, template, {"form": form, "known_names": known})


@dataclass
class SheetRow:
    round: Round
    cells: list[Entry | None]


class Sheet:
    """What the score sheet shows, loaded on first use.

    Pages cache the rendered sheet per match version (`Match.updated_at`), so a cached
    page reads none of this and costs one query whatever the number of rounds.
    """

    def __init__(self, match: Match):
        self.match = match

    @cached_property
    def seats(self) -> list[Seat]:
        return list(self.match.seats.select_related("player").order_by("position"))

    @cached_property
    def rows(self) -> list[SheetRow]:
        rounds = self.match.rounds.order_by("number").prefetch_related(
            Prefetch("entries", queryset=Entry.objects.order_by())
        )
        rows = []
        for round_ in rounds:
            by_seat = {entry.seat_id: entry for entry in round_.entries.all()}
            rows.append(SheetRow(round_, [by_seat.get(seat.pk) for seat in self.seats]))
        return rows

    @cached_property
    def round_count(self) -> int:
        if "rows" in self.__dict__:
            return len(self.rows)
        return self.match.rounds.count()

    @cached_property
    def standings(self) -> list[Seat]:
        return sorted(self.seats, key=lambda seat: (seat.place, seat.position))

    @cached_property
    def in_play(self) -> list[Seat]:
        return [seat for seat in self.seats if not seat.has_lost]

    @cached_property
    def leads_next(self) -> Seat | None:
        """The winner of the last round leads, when the sheet can tell who that was."""
        match = self.match
        if match.is_finished or not self.rows or match.variant.leader != "previous_winner":
            return None
        last = self.rows[-1].cells
        went_out = [e.seat_id for e in last if e is not None and e.kind == Entry.Kind.OUT]
        if len(went_out) != 1:
            return None
        return next((seat for seat in self.in_play if seat.pk == went_out[0]), None)

    @cached_property
    def summary(self) -> str:
        return rules_summary(self.match.variant, self.match.preset)

    @cached_property
    def house_rules(self) -> list[tuple[str, str]]:
        return changed_options(self.match.variant, self.match.preset)


@functools.lru_cache(maxsize=8)
def _card_grid(deck_size: int, language: str) -> str:
    """The buttons of the card grid, the same for every player: rendered once per language."""
    cards = [
        {"code": c.code, "suit": c.suit, "label": card_notation(c), "title": card_name(c)}
        for c in deck(deck_size)
    ]
    # render_to_string returns a SafeString: the page inserts it as HTML.
    return render_to_string("games/_card_grid.html", {"cards": cards})


def card_grid(match: Match) -> str:
    return _card_grid(match.variant.deck_size, get_language())


def _match_context(
    request: HttpRequest, match: Match, round_form: RoundForm | None = None, read_only=False
):
    sheet = Sheet(match)
    can_edit = not read_only and match.can_edit(request.user)
    if round_form is None and can_edit and not match.is_finished:
        round_form = RoundForm(seats=sheet.in_play, number=sheet.round_count + 1)
    return {
        "match": match,
        "sheet": sheet,
        "can_edit": can_edit,
        "is_owner": request.user.pk == match.created_by_id,
        "round_form": round_form,
        "card_grid": card_grid(match) if round_form else "",
        "form_number": round_form.number if round_form else None,
    }


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match(pk)
    return render(request, "games/match.html", _match_context(request, match))


@vary_on_headers("HX-Request")
def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """Read-only, large, refreshing itself: for a TV at the club or the other players' phones."""
    match = _get_match(pk)
    template = "games/match_live.html"
    if request.htmx:
        template += "#live"
    return render(request, template, _match_context(request, match, read_only=True))


def _round_number(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("number", ""))
    except ValueError:
        return None


def _handle_round(request: HttpRequest, match: Match, number: int, seats: list[Seat], save):
    """Preview or save (with the service `save`) one round from the posted form.

    Returns (form, preview, saved): errors are put on the form and nothing is saved.
    A RoundConflict (the round changed meanwhile) is left to the caller.
    """
    form = RoundForm(seats=seats, number=number, data=request.POST)
    if not form.is_valid():
        return form, None, False
    try:
        if request.POST.get("action") == "preview":
            preview = services.preview_round(match=match, number=number, outcomes=form.outcomes())
            return form, preview, False
        save(match=match, number=number, outcomes=form.outcomes(), by=request.user)
    except RulesError as error:
        form.add_rules_error(error)
        return form, None, False
    return form, None, True


@require_POST
def round_new(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_edit(request, pk)
    number = _round_number(request)
    expected = match.rounds.count() + 1
    if number != expected or match.is_finished:
        # A form sent twice, or a round someone else entered meanwhile: nothing is saved.
        if match.is_finished:
            text = _("The match is over; no more rounds can be entered.")
        elif number is not None and number < expected:
            text = _("Round %(number)s has already been entered, so this form was not saved.") % {
                "number": number
            }
        else:
            text = _("This form was out of date, so it was not saved. Here is the sheet as it is.")
        messages.error(request, text)
        return _reload(request, match)
    seats = Sheet(match).in_play
    try:
        form, preview, saved = _handle_round(request, match, number, seats, services.record_round)
    except services.RoundConflict as error:
        messages.error(request, str(error))
        return _reload(request, match)
    if saved:
        messages.success(request, _("Round %(number)s saved.") % {"number": number})
        return _reload(request, match)
    context = _match_context(request, match, form) | _preview_context(preview, seats)
    if request.htmx and request.htmx.target == "preview":
        return render(request, "games/_round_form.html#preview", context | {"oob": True})
    if request.htmx:
        return render(request, "games/match.html#match-body", context)
    return render(request, "games/match.html", context)


def _preview_context(preview, seats: list[Seat]) -> dict:
    """The preview table: each player's score, new total and event if the round were saved."""
    if preview is None:
        return {"preview": None, "preview_rows": []}
    events = dict(preview.events)
    rows = []
    for seat in seats:
        name = seat.player.name
        event = events.get(name, "")
        label = Entry.Event(event).label if event else ""
        rows.append((name, preview.scores[name], preview.totals[name], event, label))
    return {"preview": preview, "preview_rows": rows}


def _reload(request: HttpRequest, match: Match) -> HttpResponse:
    """After a save (or a refused save): the fresh sheet, as a fragment for htmx."""
    if request.htmx and request.htmx.target == "preview":
        # A live preview of a round that is no longer the next one: show the page afresh.
        return HttpResponseClientRefresh()
    if request.htmx:
        match.refresh_from_db()
        return render(request, "games/match.html#match-body", _match_context(request, match))
    return redirect(match)


def _round_or_404(match: Match, number: int) -> Round:
    return get_object_or_404(match.rounds.prefetch_related("entries__seat__player"), number=number)


def round_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    match = _get_match_for_edit(request, pk)
    round_ = _round_or_404(match, number)
    entries = list(round_.entries.all())
    seats = sorted((entry.seat for entry in entries), key=lambda seat: seat.position)
    preview = None
    if request.method == "POST":
        try:
            form, preview, saved = _handle_round(
                request, match, number, seats, services.change_round
            )
        except services.RoundConflict as error:
            messages.error(request, str(error))
            return redirect(match)
        if saved:
            messages.success(request, _("Round %(number)s changed.") % {"number": number})
            return redirect(match)
    else:
        form = RoundForm(seats=seats, number=number, initial=initial_from_entries(entries))
    context = {
        "match": match,
        "round": round_,
        "round_form": form,
        "form_number": number,
        "card_grid": card_grid(match),
        "sheet": Sheet(match),
    } | _preview_context(preview, seats)
    if request.htmx and request.htmx.target == "preview":
        return render(request, "games/_round_form.html#preview", context | {"oob": True})
    return render(request, "games/round_edit.html", context)


def round_delete(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    match = _get_match_for_edit(request, pk)
    round_ = _round_or_404(match, number)
    if request.method == "POST":
        try:
            services.delete_round(match=match, number=number, by=request.user)
        except services.RoundConflict as error:
            messages.error(request, str(error))
        except RulesError as error:
            # Only possible when a later round depends on this one (a player who lost here).
            messages.error(
                request,
                _("Round %(number)s cannot be deleted: a later round depends on it (%(reason)s).")
                % {"number": number, "reason": rules_message(error)},
            )
        else:
            messages.success(request, _("Round %(number)s deleted.") % {"number": number})
        return redirect(match)
    later = match.rounds.filter(number__gt=number).count()
    return render(
        request,
        "games/round_delete.html",
        {"match": match, "round": round_, "later": later},
    )


@require_POST
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_edit(request, pk)
    if hasattr(match, "table"):
        messages.error(
            request, _("A tournament table is not played again; the next round is seated.")
        )
        return redirect(match)
    new = services.rematch(match=match, created_by=request.user)
    messages.success(request, _("A new match with the same players has started."))
    return redirect(new)


def scorekeepers(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator adds or removes the accounts that may keep this match's score."""
    match = _get_match_for_owner(request, pk)
    error = ""
    if request.method == "POST":
        username = request.POST.get("username", "").strip()
        # A NUL byte would reach the database (PostgreSQL refuses it): check the text first.
        problem = name_problem(username)
        accounts = get_user_model().objects
        user = (
            accounts.filter(username__iexact=username).first() if username and not problem else None
        )
        if request.POST.get("action") == "remove":
            if user is not None:
                match.scorekeepers.remove(user)
                messages.success(request, _("%(name)s no longer keeps score.") % {"name": user})
            return redirect("games:scorekeepers", pk=match.pk)
        if not username:
            error = _("Enter the username of the account that should keep score.")
        elif problem:
            error = problem
        elif user is None:
            error = _("There is no account called “%(name)s”.") % {"name": username}
        elif user.pk == match.created_by_id:
            error = _("You created this match, so you can already keep its score.")
        else:
            match.scorekeepers.add(user)
            messages.success(request, _("%(name)s can now keep score.") % {"name": user})
            return redirect("games:scorekeepers", pk=match.pk)
    return render(
        request,
        "games/scorekeepers.html",
        {"match": match, "keepers": match.scorekeepers.order_by("username"), "error": error},
    )


def match_delete(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_owner(request, pk)
    if hasattr(match, "table"):
        # A tournament's table: its results belong to the tournament's standings.
        messages.error(request, _("This match is a tournament table and cannot be deleted."))
        return redirect(match)
    if request.method == "POST":
        match.delete()
        messages.success(request, _("The match has been deleted."))
        return redirect("games:match_list")
    return render(request, "games/match_delete.html", {"match": match})
