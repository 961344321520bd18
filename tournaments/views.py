"""Views of tournaments: the public page and standings, running rounds, players, exports."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from claims import notices
from claims import queries as claims
from core.exports import csv_response
from core.http import local_path, unchanged
from core.limits import limit
from core.names import sort_key
from core.validators import name_problem, parse_id
from games.labels import changed_options, rules_summary
from games.models import NameKey, Seat
from tournaments import player_lists, queries, services, signals
from tournaments.forms import (
    AddPlayersForm,
    ConfirmImportForm,
    ImportPlayersForm,
    TournamentForm,
)
from tournaments.models import (
    TIE_BREAK_COLUMNS,
    TIE_BREAKS,
    Entrant,
    Table,
    Tournament,
    TournamentRound,
)
from tournaments.services import TournamentError
from tournaments.standings import table_points


def _get_tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("created_by", "club"), pk=pk)


def _get_tournament_for_director(request: HttpRequest, pk: int) -> Tournament:
    """The tournament, if this user directs it; 403 otherwise."""
    tournament = _get_tournament(pk)
    if not tournament.is_director(request.user):
        raise PermissionDenied
    return tournament


def director_action(view):
    """A POST-only change by a director, counted as a director's click (settings.RATE_LIMITS);
    a TournamentError becomes a message, nothing saved."""

    @require_POST
    @limit("director")
    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args, **kwargs):
        tournament = _get_tournament_for_director(request, pk)
        try:
            return view(request, tournament, *args, **kwargs)
        except TournamentError as error:
            messages.error(request, str(error))
            return _back_to(request, tournament)

    return wrapper


def _back_to(request: HttpRequest, fallback: Tournament) -> HttpResponse:
    """Redirect to the form's `next` when it is a page of this site, else to `fallback`."""
    target = local_path(request, request.POST.get("next", ""))
    return HttpResponseRedirect(target) if target else redirect(fallback)


# --- reading -------------------------------------------------------------------------------


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    # Aggregating queries ignore Meta.ordering: the order is given again.
    tournaments = Tournament.objects.annotate(players=Count("entrants")).order_by("-date", "-pk")
    return render(
        request,
        "tournaments/list.html",
        {
            "running": tournaments.filter(status=Tournament.Status.RUNNING),
            "upcoming": tournaments.filter(status=Tournament.Status.REGISTRATION),
            "finished": tournaments.filter(status=Tournament.Status.FINISHED)[:20],
            "mine": Tournament.objects.directed_by(request.user),
        },
    )


def _rounds_with_tables(tournament: Tournament):
    """Rounds with their tables, matches and seats, in a fixed number of queries."""
    return tournament.rounds.prefetch_related(
        Prefetch(
            "tables",
            queryset=Table.objects.select_related("match")
            .prefetch_related(
                Prefetch(
                    "match__seats",
                    queryset=Seat.objects.select_related("player").order_by("position"),
                )
            )
            .annotate(deals=Count("match__rounds"))
            .order_by("number"),
        )
    )


def _tournament_context(request: HttpRequest, tournament: Tournament) -> dict:
    """What the tournament page and the projector show. The standings are read from the cache
    (keyed on the tournament's version) and, like the current round's tables, worked out only
    when a page fragment not cached already asks for them."""
    is_director = tournament.is_director(request.user)
    rounds = list(tournament.rounds.all())
    current = rounds[-1] if rounds else None
    my_entry = None
    if request.user.is_authenticated:
        my_entry = tournament.entrants.filter(player__user=request.user).first()
    variant = tournament.variant
    return {
        "tournament": tournament,
        "is_director": is_director,
        "is_owner": request.user.pk == tournament.created_by_id,
        "lines": SimpleLazyObject(lambda: queries.cached_standing_lines(tournament)),
        "rounds": rounds,
        "current": current,
        "current_tables": SimpleLazyObject(
            lambda: (
                list(_rounds_with_tables(tournament).get(pk=current.pk).tables.all())
                if current
                else []
            )
        ),
        "my_entry": my_entry,
        "my_sitting_out": queries.sitting_out(tournament, [my_entry]) if my_entry else None,
        "my_seats": queries.seats_now(request.user, tournament) if my_entry else [],
        # Entered by a director as a guest of their name: asked to confirm it is them.
        "to_confirm": (
            []
            if my_entry
            else notices.to_confirm(request.user, tournament.entrants.values("player_id"))
        ),
        "summary": rules_summary(variant, tournament.preset),
        "house_rules": changed_options(variant, tournament.preset),
        "tie_break_labels": [_tie_break_label(name) for name in tournament.tie_breaks],
        "tie_break_columns": [
            (str(TIE_BREAK_COLUMNS[name]), _tie_break_label(name)) for name in tournament.tie_breaks
        ],
        # A callable (the template calls it, when it shows it) rather than a lazy object:
        # Russian plural forms do arithmetic on the count, which a lazy object does not.
        "entrant_count": tournament.entrants.count,
        # What apps built on this one add (a club night's awards), cached with the standings.
        "panels": SimpleLazyObject(lambda: signals.panels_of(tournament)),
        "can_finish": is_director
        and tournament.status == Tournament.Status.RUNNING
        and queries.can_finish(tournament),
    }


def _tie_break_label(name: str) -> str:
    return str(TIE_BREAKS[name])


@require_safe
@vary_on_headers("HX-Request")
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    if unchanged(request, Tournament, pk):
        return HttpResponse(status=204)  # htmx leaves the page as it is
    tournament = _get_tournament(pk)
    template = "tournaments/detail.html"
    if request.htmx:
        template += "#live"
    return render(request, template, _tournament_context(request, tournament))


# Standings lines a projector shows at once, at most: static/css/site.css gives a page of up to
# 12 lines twelve rows of the room left for them (.projector-standings), and more lines rows of
# their own, up to this many, so a change here is made there too. More players page, the
# pages balanced (20 players: two pages of 10, not 16 and 4).
PROJECTOR_LINES = 16


@require_safe
@vary_on_headers("HX-Request")
def projector(request: HttpRequest, pk: int) -> HttpResponse:
    """Large type for a projector: standings, the current round's tables and its clock."""
    tournament = _get_tournament(pk)
    template = "tournaments/projector.html"
    if request.htmx:
        template += "#screen"
    context = _tournament_context(request, tournament)
    current = context["current"]
    context["clock_ends_at"] = (
        current.clock_started_at + timezone.timedelta(minutes=current.clock_minutes)
        if current and current.clock_started_at and not current.is_closed
        else None
    )
    # Many players: the standings page through by themselves, a page at each refresh. A line
    # for every entrant: counted, so that a cached screen never reads the standings.
    entrants = tournament.entrants.count()
    pages = max(1, -(-entrants // PROJECTOR_LINES))
    per_page = max(1, -(-entrants // pages))
    if pages == 1 and unchanged(request, Tournament, tournament.pk):
        return HttpResponse(status=204)
    page = min(max(parse_id(request.GET.get("page")) or 1, 1), pages)
    over = tournament.status == Tournament.Status.FINISHED or queries.can_finish(tournament)
    lines = context["lines"]
    between_rounds = current is None or current.is_closed or over
    context.update(
        # What apps built on this one show between rounds (a club's season table).
        panels=SimpleLazyObject(
            lambda: (
                [
                    panel
                    for _receiver, answer in signals.projector_panels.send(
                        sender=Tournament, tournament=tournament, request=request
                    )
                    for panel in answer or []
                ]
                if between_rounds
                else []
            )
        ),
        page_lines=SimpleLazyObject(lambda: lines[(page - 1) * per_page : page * per_page]),
        page=page,
        pages=pages,
        next_page=page % pages + 1,
        over=over,
        winners=SimpleLazyObject(
            lambda: [line for line in lines if line.standing.rank == 1] if over else []
        ),
    )
    return render(request, template, context)


@require_safe
@vary_on_headers("HX-Request")
def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _get_tournament(pk)
    round_ = get_object_or_404(_rounds_with_tables(tournament), number=number)
    template = "tournaments/round.html"
    if request.htmx:
        template += "#tables"
    is_director = tournament.is_director(request.user)
    tables = list(round_.tables.all())
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "round": round_,
            "tables": tables,
            "is_director": is_director,
            "is_latest": round_.number == tournament.rounds.count(),
            "unscored": not any(table.deals for table in tables),
            "all_done": all(table.match.is_done for table in tables),
            "to_confirm": [table for table in tables if table.match.unconfirmed_rounds],
            "players": sorted(
                (seat for table in tables for seat in table.match.seats.all()),
                key=lambda seat: (sort_key(seat.player.name), seat.player_id),
            ),
        },
    )


@require_safe
def table_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Printable cards, one per table: who sits where and the rules in force."""
    tournament = _get_tournament(pk)
    round_ = get_object_or_404(_rounds_with_tables(tournament), number=number)
    return render(
        request,
        "tournaments/table_cards.html",
        {
            "tournament": tournament,
            "round": round_,
            "summary": rules_summary(tournament.variant, tournament.preset),
            "house_rules": changed_options(tournament.variant, tournament.preset),
        },
    )


@require_safe
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _get_tournament(pk)
    response, writer = csv_response(request, f"tournament-{tournament.pk}-standings.csv")
    names = [_tie_break_label(name) for name in tournament.tie_breaks]
    numbers = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    per_round = [pgettext("tournament", "Round %(number)s") % {"number": n} for n in numbers]
    writer.writerow(
        [_("Rank"), _("Player"), _("Points"), *per_round, _("Tables"), *names, _("Dropped")]
    )
    for line in queries.standing_lines(tournament):
        s = line.standing
        writer.writerow(
            [
                s.rank,
                str(line.entrant.player),
                _number(s.points),
                # Empty where the player had no finished table in that round.
                *(
                    _number(s.round_points[number]) if number in s.round_points else ""
                    for number in numbers
                ),
                s.tables,
                *(_number(value) for value in line.tie_breaks),
                _("yes") if line.entrant.has_dropped else "",
            ]
        )
    return response


@require_safe
def results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table's result: round, table, seat, player, place, the tournament points it earned,
    total, deals played."""
    tournament = _get_tournament(pk)
    response, writer = csv_response(request, f"tournament-{tournament.pk}-tables.csv")
    writer.writerow(
        [
            pgettext("tournament", "Round"),
            _("Table"),
            _("Seat"),
            _("Player"),
            _("Place"),
            _("Points"),
            _("Total"),
            _("Deals"),
            pgettext("a CSV column: the table's match is over", "Finished"),
        ]
    )
    scheme = {int(size): values for size, values in tournament.points_by_place.items()}
    for round_ in _rounds_with_tables(tournament):
        for table in round_.tables.all():
            seats = list(table.match.seats.all())
            # The tournament points each place earned (shared by players tied for it).
            earned = (
                table_points({seat.player_id: seat.place for seat in seats}, scheme)
                if table.match.is_done
                else {}
            )
            for seat in seats:
                writer.writerow(
                    [
                        round_.number,
                        table.number,
                        seat.position + 1,
                        str(seat.player),
                        seat.place,
                        _number(earned[seat.player_id]) if earned else "",
                        seat.total,
                        table.deals,
                        _("yes") if table.match.is_done else _("no"),
                    ]
                )
    return response


def _number(value) -> str:
    return format(float(value), "g")


# --- creating and settings -----------------------------------------------------------------


@login_required
@vary_on_headers("HX-Request")
@limit("tournament")
def tournament_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = TournamentForm(request.POST, preset=request.POST.get("preset"))
        if form.is_valid() and form.cleaned_data["variant"] is not None:
            tournament = services.create_tournament(
                created_by=request.user, variant=form.cleaned_data["variant"], **form.settings()
            )
            messages.success(request, _("The tournament has been created. Now add the players."))
            return redirect("tournaments:players", pk=tournament.pk)
    else:
        form = TournamentForm(
            preset=request.GET.get("preset"), initial={"date": timezone.localdate()}
        )
    template = "tournaments/form.html"
    if request.htmx and request.method == "GET":
        template = form.options_template_name
    return render(request, template, {"form": form, "tournament": None})


@limit("director")
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _get_tournament_for_director(request, pk)
    if request.method == "POST":
        form = TournamentForm(request.POST, instance=tournament, preset=request.POST.get("preset"))
        if form.is_valid() and form.cleaned_data["variant"] is not None:
            try:
                services.update_tournament(
                    tournament=Tournament.objects.get(pk=pk),
                    variant=form.cleaned_data["variant"],
                    **form.settings(),
                )
            except TournamentError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("The tournament's settings have been saved."))
                return redirect(tournament)
    else:
        form = TournamentForm(instance=tournament)
    return render(request, "tournaments/form.html", {"form": form, "tournament": tournament})


@limit("director")
def directors(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator adds or removes co-directors."""
    tournament = _get_tournament(pk)
    if request.user.pk != tournament.created_by_id:
        raise PermissionDenied
    error = ""
    if request.method == "POST":
        username = request.POST.get("username", "").strip()
        if request.POST.get("action") == "remove":
            # A NUL byte would reach the database (PostgreSQL refuses it): check the text first.
            user = (
                None
                if name_problem(username)
                else tournament.directors.filter(username=username).first()
            )
            if user is not None:
                services.remove_director(tournament=tournament, user=user)
            return redirect("tournaments:directors", pk=pk)
        if not username:
            error = _("Enter the username of the new director.")
        else:
            try:
                services.add_director(tournament=tournament, username=username)
            except TournamentError as failure:
                error = str(failure)
            else:
                messages.success(request, _("%(name)s is now a director.") % {"name": username})
                return redirect("tournaments:directors", pk=pk)
    return render(
        request,
        "tournaments/directors.html",
        {
            "tournament": tournament,
            "directors": tournament.directors.order_by(NameKey("username")),
            "error": error,
        },
    )


# --- players -------------------------------------------------------------------------------


@limit("director")
def players(request: HttpRequest, pk: int) -> HttpResponse:
    """The director's list: add, import, check in, drop out."""
    tournament = _get_tournament_for_director(request, pk)
    add_form, import_form = AddPlayersForm(prefix="add"), ImportPlayersForm(prefix="import")
    if request.method == "POST":
        which = request.POST.get("form")
        try:
            if which == "add":
                add_form = AddPlayersForm(request.POST, prefix="add")
                if add_form.is_valid():
                    added = services.add_entrants(
                        tournament=tournament,
                        names=add_form.cleaned_data["names"],
                        by=request.user,
                        checked_in=add_form.cleaned_data["checked_in"],
                    )
                    if added.entrants:
                        messages.success(
                            request,
                            _("Added: %(names)s.") % {"names": ", ".join(map(str, added.entrants))},
                        )
                    _report_sitting_out(request, tournament, added.entrants)
                    _report_skipped(request, added)
                    _report_stand_ins(request, added)
                    return redirect("tournaments:players", pk=pk)
            elif which == "import":
                # A file is read and shown first; nobody is added until the director confirms.
                import_form = ImportPlayersForm(request.POST, request.FILES, prefix="import")
                if import_form.is_valid():
                    table = import_form.cleaned_data["file"]
                    found = player_lists.read_player_list(table.text, table.separator)
                    return render(
                        request,
                        "tournaments/import_preview.html",
                        {
                            "tournament": tournament,
                            "table": table,
                            "found": found,
                            "filename": request.FILES["import-file"].name,
                            "confirm_form": ConfirmImportForm(
                                initial={"text": table.text, "separator": table.separator}
                            ),
                        },
                    )
            elif which == "import_confirm":
                confirm = ConfirmImportForm(request.POST)
                if not confirm.is_valid():
                    raise TournamentError(_("The list was not sent whole; choose the file again."))
                added = services.import_entrants(
                    tournament=tournament,
                    text=confirm.cleaned_data["text"],
                    separator=confirm.cleaned_data["separator"],
                    by=request.user,
                )
                count = len(added.entrants)
                messages.success(
                    request,
                    ngettext("%(count)s player imported.", "%(count)s players imported.", count)
                    % {"count": count},
                )
                _report_sitting_out(request, tournament, added.entrants)
                _report_skipped(request, added)
                _report_stand_ins(request, added)
                return redirect("tournaments:players", pk=pk)
        except TournamentError as error:
            if which == "import_confirm":
                messages.error(request, str(error))
            else:
                (add_form if which == "add" else import_form).add_error(None, str(error))
    entrants = (
        tournament.entrants.select_related("player__user")
        .annotate(
            tables=Count(
                "player__seats",
                filter=Q(player__seats__match__table__round__tournament=tournament),
            )
        )
        .order_by(NameKey("player__name"), "pk")
    )
    return render(
        request,
        "tournaments/players.html",
        {
            "tournament": tournament,
            "entrants": entrants,
            "add_form": add_form,
            "import_form": import_form,
            "checked_in": sum(e.checked_in and not e.has_dropped for e in entrants),
            "not_checked_in": sum(not e.checked_in and not e.has_dropped for e in entrants),
        },
    )


def _report_skipped(request: HttpRequest, added: services.Added) -> None:
    if added.skipped:
        messages.warning(
            request,
            _("Skipped, entered already or listed twice: %(names)s.")
            % {"names": ", ".join(added.skipped)},
        )


def _report_stand_ins(request: HttpRequest, added: services.Added) -> None:
    """Tell the director at once which names were accounts entered as guests of their name
    (games.services.players_for_names), until their people confirm it is them."""
    asked = claims.asked_to_confirm([entrant.player_id for entrant in added.entrants])
    if asked:
        messages.warning(
            request,
            ngettext(
                "%(names)s has an account: a guest of that name is entered until they confirm "
                "it is them, which their home page, this tournament's page and their table ask "
                "them to do in one tap. Until then their results do not count on their record.",
                "%(names)s have accounts: guests of those names are entered until they confirm "
                "it is them, which their home pages, this tournament's page and their tables "
                "ask them to do in one tap. Until then their results do not count on their "
                "records.",
                len(asked),
            )
            % {"names": ", ".join(asked)},
        )


def _report_sitting_out(request: HttpRequest, tournament: Tournament, entrants) -> None:
    """Tell the director who, checked in just now, sits out the round being played."""
    out = queries.sitting_out(tournament, entrants)
    if out is None:
        return
    one = len(out.entrants) == 1
    if out.next_round is None:
        text = (
            _(
                "%(names)s is checked in after round %(round)s, the last one, was seated: "
                "they sit it out."
            )
            if one
            else _(
                "%(names)s are checked in after round %(round)s, the last one, was seated: "
                "they sit it out."
            )
        )
    elif one:
        text = _(
            "%(names)s is checked in after round %(round)s was seated: they sit out this round "
            "and are seated from round %(next)s."
        )
    else:
        text = _(
            "%(names)s are checked in after round %(round)s was seated: they sit out this round "
            "and are seated from round %(next)s."
        )
    if out.reseat:
        text += " " + _(
            "No score has been entered in round %(round)s yet: seating it again seats every "
            "checked-in player now."
        )
    names = ", ".join(map(str, out.entrants))
    messages.info(request, text % {"names": names, "round": out.round, "next": out.next_round})


@director_action
def check_in_everyone(request: HttpRequest, tournament: Tournament):
    waiting = list(tournament.entrants.filter(checked_in=False).values_list("pk", flat=True))
    count = services.check_in_everyone(tournament=tournament)
    messages.success(
        request,
        ngettext("%(count)s player checked in.", "%(count)s players checked in.", count)
        % {"count": count},
    )
    _report_sitting_out(
        request, tournament, tournament.entrants.filter(pk__in=waiting).select_related("player")
    )
    return redirect("tournaments:players", pk=tournament.pk)


@director_action
def entrant_action(request: HttpRequest, tournament: Tournament, entrant_pk: int):
    entrant = get_object_or_404(Entrant, pk=entrant_pk, tournament=tournament)
    action = request.POST.get("action")
    if action == "check_in":
        services.set_checked_in(entrant=entrant, checked_in=True)
        _report_sitting_out(request, tournament, [entrant])
    elif action == "check_out":
        services.set_checked_in(entrant=entrant, checked_in=False)
    elif action == "drop":
        services.drop(entrant=entrant)
        messages.success(request, _("%(name)s has dropped out.") % {"name": entrant})
    elif action == "undrop":
        services.undrop(entrant=entrant)
    elif action == "remove":
        services.withdraw(entrant=entrant)
        messages.success(request, _("%(name)s has been removed.") % {"name": entrant})
    else:
        raise TournamentError(_("Unknown action."))
    return redirect("tournaments:players", pk=tournament.pk)


@login_required
@require_POST
@limit("register")
def register(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _get_tournament(pk)
    try:
        services.register(tournament=tournament, user=request.user)
    except TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("You are registered. Check in with the director on the day."))
    return redirect(tournament)


@login_required
@require_POST
@limit("register")
def unregister(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _get_tournament(pk)
    entrant = tournament.entrants.filter(player__user=request.user).first()
    if entrant is not None:
        services.withdraw(entrant=entrant)
        messages.success(request, _("You have left the tournament."))
    return redirect(tournament)


# --- running rounds ------------------------------------------------------------------------


@director_action
def reopen(request: HttpRequest, tournament: Tournament):
    services.reopen_tournament(tournament=tournament, by=request.user)
    messages.success(
        request,
        _("The tournament is open for corrections. Finish it again when they are done."),
    )
    return redirect(tournament)


@director_action
def finish(request: HttpRequest, tournament: Tournament):
    services.finish_tournament(tournament=tournament, by=request.user)
    messages.success(request, _("The tournament is finished."))
    return redirect(tournament)


@limit("seating")
@director_action
def seat_round(request: HttpRequest, tournament: Tournament):
    round_ = services.seat_next_round(tournament=tournament, by=request.user)
    messages.success(request, _("Round %(number)s has been seated.") % {"number": round_.number})
    return redirect("tournaments:round", pk=tournament.pk, number=round_.number)


@limit("seating")
@director_action
def reseat_round(request: HttpRequest, tournament: Tournament, number: int):
    round_ = get_object_or_404(TournamentRound, tournament=tournament, number=number)
    seed = parse_id(request.POST.get("seed"))
    try:
        round_ = services.reseat_round(
            round_=round_, by=request.user, seed=seed, confirmed=seed is not None
        )
    except services.RepeatMeetings as warning:
        return _ask_first(request, tournament, round_, warning, {"seed": warning.seed})
    messages.success(
        request, _("Round %(number)s has been seated again.") % {"number": round_.number}
    )
    return redirect("tournaments:round", pk=tournament.pk, number=round_.number)


@director_action
def swap(request: HttpRequest, tournament: Tournament, number: int):
    round_ = get_object_or_404(TournamentRound, tournament=tournament, number=number)
    first, second = parse_id(request.POST.get("first")), parse_id(request.POST.get("second"))
    if first is None or second is None:
        raise TournamentError(_("Choose two different players of this round."))
    try:
        services.swap_players(
            round_=round_,
            first=first,
            second=second,
            confirmed=request.POST.get("confirmed") == "yes",
        )
    except services.RepeatMeetings as warning:
        return _ask_first(request, tournament, round_, warning, {"first": first, "second": second})
    messages.success(request, _("The two players have swapped seats."))
    return redirect("tournaments:round", pk=tournament.pk, number=number)


def _ask_first(request, tournament, round_, warning, fields: dict) -> HttpResponse:
    """A swap or seating that makes players meet again, shown before it is made: the director
    confirms (the same form again, confirmed) or goes back to the round."""
    return render(
        request,
        "tournaments/confirm_repeats.html",
        {
            "tournament": tournament,
            "round": round_,
            "pairs": warning.pairs,
            "fields": {**fields, "confirmed": "yes"},
            "action": request.path,
        },
    )


@director_action
def close_table(request: HttpRequest, tournament: Tournament, number: int, table: int):
    table_ = get_object_or_404(
        Table.objects.select_related("match", "round"),
        round__tournament=tournament,
        round__number=number,
        number=table,
    )
    if request.POST.get("action") == "reopen":
        services.reopen_table(table=table_, by=request.user)
        messages.success(
            request, _("Table %(number)s has been reopened.") % {"number": table_.number}
        )
    else:
        services.close_table(table=table_, by=request.user)
        messages.success(
            request, _("Table %(number)s has been closed.") % {"number": table_.number}
        )
    return redirect("tournaments:round", pk=tournament.pk, number=number)


@director_action
def close_round(request: HttpRequest, tournament: Tournament, number: int):
    round_ = get_object_or_404(TournamentRound, tournament=tournament, number=number)
    services.close_round(round_=round_, by=request.user)
    messages.success(
        request,
        _("Round %(number)s is closed; the standings are updated.") % {"number": round_.number},
    )
    return redirect(tournament)


@director_action
def start_clock(request: HttpRequest, tournament: Tournament, number: int):
    round_ = get_object_or_404(TournamentRound, tournament=tournament, number=number)
    try:
        minutes = int(request.POST.get("minutes", ""))
    except ValueError:
        minutes = 0
    if not 1 <= minutes <= 600:
        raise TournamentError(_("The round clock runs for 1 to 600 minutes."))
    services.start_clock(round_=round_, minutes=minutes)
    messages.success(request, _("The round clock has started."))
    return redirect("tournaments:round", pk=tournament.pk, number=number)
