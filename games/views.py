"""Views of the score sheet: match list, new match, the sheet, entering and changing rounds."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRefresh

from cards101.engine.game import MOVE_LIMIT
from cards101.rules import RulesError
from cards101.rules.cards import RANKS, RUSSIAN_RANKS, RUSSIAN_SUITS, SUIT_SYMBOLS, SUITS
from core.http import local_path, unchanged
from core.limits import limit
from core.names import sort_key
from core.validators import name_problem
from games import audience, extensions, labels, large_print, owners, queries, services, signals
from games.forms import MatchFilterForm, NewMatchForm, RoundForm, initial_from_entries
from games.labels import outcome_label, rules_message
from games.models import Entry, Match, NameKey, Player, Round, Seat
from games.sheet import Sheet, card_grid

PAGE_SIZE = 20
SAVED = "round-saved"  # the tag of the message that a round was saved or changed
ROUND_FIELDS_CACHE_SECONDS = 24 * 3600


def _get_match(pk: int) -> Match:
    return get_object_or_404(Match, pk=pk)


def _get_match_for_edit(request: HttpRequest, pk: int) -> Match:
    """The match, if this user may change its rounds (its owner decides); 403 otherwise."""
    match = _get_match(pk)
    if not owners.may_change(match, request.user):
        raise PermissionDenied
    return match


def _get_match_for_creator(request: HttpRequest, pk: int) -> Match:
    match = _get_match(pk)
    if request.user.pk != match.created_by_id:
        raise PermissionDenied
    return match


def _posted_int(request: HttpRequest, name: str) -> int | None:
    try:
        value = int(request.POST.get(name, ""))
    except ValueError:
        return None
    return value if 0 <= value < 2**31 else None


@require_safe
@vary_on_headers("HX-Request")
def match_list(request: HttpRequest) -> HttpResponse:
    """Matches: mine, recent score sheets or tournament tables; running or finished; found by
    a player's name."""
    form = MatchFilterForm(request.GET or None, signed_in=request.user.is_authenticated)
    choice = form.choice()
    if choice["show"] == "mine":
        matches = Match.objects.for_user(request.user)
    elif choice["show"] == "tables":
        matches = Match.objects.filter(kind=Match.Kind.TOURNAMENT)
    else:
        matches = Match.objects.casual()
    if choice["status"]:
        matches = matches.filter(status=choice["status"])
    if choice["player"]:
        # A name hidden from the person looking finds nothing.
        named = Player.objects.named_like(choice["player"]).shown()
        matches = matches.filter(seats__player__in=named).distinct()
    # A list shows no rows: their stored copy is not read.
    listed = matches.with_seats().defer("scored_rows")
    page = Paginator(listed, PAGE_SIZE).get_page(request.GET.get("page"))
    page.object_list = owners.label(list(page.object_list))
    template = "games/match_list.html"
    if request.htmx:
        template += "#match-list"
    context = {"page": page, "form": form, "show": choice["show"], "query": form.query()}
    return render(request, template, context)


@login_required
@vary_on_headers("HX-Request")
@limit("match")
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
            _say_who_is_asked(request, match)
            return redirect(match)
    else:
        initial = {"player_1": request.user.get_username()}
        form = NewMatchForm(initial=initial, preset=request.GET.get("preset"))
    template = "games/new_match.html"
    if request.htmx and request.method == "GET":
        # Choosing another preset refills the options from it.
        template = form.options_template_name
    known = queries.known_player_names(request.user)
    return render(request, template, {"form": form, "known_names": known})


def _match_context(
    request: HttpRequest,
    match: Match,
    round_form: RoundForm | None = None,
    read_only=False,
    focus=False,
    refused=False,
) -> dict:
    """What the sheet shows. `focus`: a round was just saved, so the keyboard goes to the next
    round's first field (autofocus; htmx honours it in a swapped fragment too), or to the
    message that says so when the match is over. `refused`: a save was refused with a message,
    and the keyboard goes to it."""
    sheet = Sheet(match)
    refusal = None if read_only else owners.refusal(match, request.user)
    can_edit = not read_only and refusal is None
    waiting = [] if read_only else _waiting(request, match, sheet)
    check_form = None
    if round_form is None and waiting and waiting[-1]["check"]:
        check_form = _check_form(waiting[-1]["round"])
    fields_html = ""
    if round_form is None and check_form is None and can_edit and not match.is_finished:
        fields_html = _new_round_fields(request, match, sheet, focus)
    return {
        "waiting_rounds": waiting,
        "check_form": check_form,
        "is_director": bool(waiting) and owners.directs(match, request.user),
        "match": match,
        "sheet": sheet,
        "can_edit": can_edit,
        "refusal": refusal,
        "is_owner": request.user.pk == match.created_by_id and match.is_casual,
        "round_form": round_form or bool(fields_html),
        "fields_html": fields_html,
        # The round form rendered here (a correction's, a second entry's) taps cards too.
        "card_grid": card_grid(match) if (round_form or check_form) and not fields_html else "",
        # The live view shows no panels.
        "panels": [] if read_only else extensions.match_panels(match, sheet),
        "focus_message": (focus and not fields_html) or refused,
    }


def _waiting(request: HttpRequest, match: Match, sheet: Sheet) -> list[dict]:
    """The rounds waiting for confirmation as this user sees them: whether they may confirm
    each, and whether the round form is, for them, the last one's second entry (they may
    confirm it and have not entered it again yet)."""
    user = request.user
    last = sheet.rows[-1].round.pk if sheet.rows else None
    waiting = []
    for round_id, wait in sheet.awaiting.items():
        round_ = wait.round
        may = queries.confirm_refusal(match, round_, user) is None
        entered_again = any(e.entry.by_id == user.pk for e in wait.second_entries)
        check = (
            round_id == last
            and not entered_again
            and not owners.directs(match, user)
            and queries.confirm_refusal(match, round_, user, second_entry=True) is None
        )
        waiting.append({"wait": wait, "round": round_, "may_confirm": may, "check": check})
    return waiting


def _check_form(round_: Round, data=None) -> RoundForm:
    """A second entry of a waiting round: empty, to be entered as the person saw it."""
    seats = sorted((entry.seat for entry in round_.entries.all()), key=lambda s: s.position)
    return RoundForm(
        seats=seats, number=round_.number, version=round_.version, round_id=round_.pk, data=data
    )


def _new_round_fields(request: HttpRequest, match: Match, sheet: Sheet, focus=False) -> str:
    """The fields of the form for the next round, rendered once per version of the match (and
    language and audience, and whether its first field takes the focus): every scorekeeper's
    empty form is the same until the match changes, so a cached one needs neither the form nor
    the sheet's rounds."""
    key = (
        f"games:round-fields:{match.pk}:{match.version}:{get_language()}:"
        f"{audience.cache_key(Match, match.pk)}"
        f"{':focus' if focus else ''}"
    )
    html = cache.get(key)
    if html is None:
        context = {
            "match": match,
            "round_form": _new_round_form(match, sheet),
            "is_new": True,
            "action": reverse("games:round_new", args=[match.pk]),
            "card_grid": card_grid(match),
            "autofocus": focus,
        }
        html = render_to_string("games/_round_form_fields.html", context, request=request)
        cache.set(key, html, ROUND_FIELDS_CACHE_SECONDS)
    return html


def _new_round_form(match: Match, sheet: Sheet, data=None) -> RoundForm:
    return RoundForm(
        seats=sheet.in_play, number=sheet.round_count + 1, version=match.version, data=data
    )


@require_safe
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match(pk)
    # Back from saving a round without htmx (the form posted, the sheet redirected here): the
    # keyboard goes on where it was, at the next round's form.
    saved = any(SAVED in m.tags.split() for m in messages.get_messages(request))
    context = _match_context(request, match, focus=saved)
    user = request.user
    # Someone seated by another's hand may leave (the creator deletes instead).
    context["can_leave"] = (
        user.is_authenticated
        and match.is_casual
        and user.pk != match.created_by_id
        and match.seats.filter(player__user=user).exists()
    )
    # Seated by another's hand as a guest of their name: the request to confirm it, here.
    context["to_confirm"] = (
        [
            request_
            for _receiver, answer in signals.confirmations_waiting.send(
                sender=Match, match=match, user=user
            )
            for request_ in answer
        ]
        if user.is_authenticated and context["refusal"]
        else []
    )
    return render(request, "games/match.html", context)


@login_required
@require_POST
@limit("leave")
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match(pk)
    try:
        services.leave_match(match=match, by=request.user)
    except (services.NotAllowed, services.RoundConflict) as refusal:
        messages.error(request, str(refusal))
        return redirect(match)
    messages.success(
        request,
        _("You have left %(match)s: your seat is a guest of its creator now.") % {"match": match},
    )
    return redirect("games:match_list")


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The game's rules, the three presets side by side and the card notation."""
    context = {
        "move_limit": MOVE_LIMIT,
        "presets": [
            (labels.preset_label(name), labels.PRESET_DESCRIPTIONS[name])
            for name in labels.PRESET_LABELS
        ],
        "options": labels.presets_table(),
        # What a score sheet accepts: English and Russian letters, either case.
        "ranks": [(rank, RUSSIAN_RANKS.get(rank, rank), labels.RANK_NAMES[rank]) for rank in RANKS],
        "suits": [
            (
                suit,
                ", ".join(letter.lower() for letter in RUSSIAN_SUITS[suit]),
                SUIT_SYMBOLS[suit],
                labels.SUIT_NAMES[suit],
            )
            for suit in SUITS
        ],
    }
    return render(request, "games/rules.html", context)


@require_safe
@vary_on_headers("HX-Request")
def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """Read-only, large, refreshing itself: for a TV at the club or the other players' phones.
    A refresh that names the version it shows, still the match's, is answered 204 after one
    plain query."""
    if unchanged(request, Match, pk):
        return HttpResponse(status=204)
    match = _get_match(pk)
    template = "games/match_live.html"
    if request.htmx:
        template += "#live"
    context = _match_context(request, match, read_only=True)
    # TV mode: the totals filling the screen, no menu and no sheet (a screen across the room).
    context["tv"] = request.GET.get("tv") == "1"
    return render(request, template, context)


@require_safe
def match_history(request: HttpRequest, pk: int) -> HttpResponse:
    """Every correction of the match's rounds: who, when, before and after."""
    match = _get_match(pk)
    sheet = Sheet(match)
    names = sheet.names
    corrections = [
        (
            correction,
            [
                (
                    names.get(int(position), "?"),
                    outcome_label(before),
                    outcome_label(correction.after[position])
                    if correction.after and position in correction.after
                    else "",
                )
                for position, before in correction.before.items()
            ],
        )
        for correction in sheet.corrections
    ]
    return render(
        request,
        "games/match_history.html",
        {
            "match": match,
            "sheet": sheet,
            "corrections": corrections,
            "what": owners.describe(match),
        },
    )


def _save_round(request: HttpRequest, match: Match, form: RoundForm, names, save) -> tuple:
    """Preview or save (with `save`) one round from the posted form.

    Returns (preview, saved); errors are put on the form and nothing is saved. A
    RoundConflict or NotAllowed is left to the caller.
    """
    if not form.is_valid():
        return None, False
    try:
        if request.POST.get("action") == "preview":
            preview = queries.preview_round(
                match=match, outcomes=form.outcomes(), round_id=form.round_id
            )
            return preview, False
        save(form.outcomes(), _posted_int(request, "version"))
    except RulesError as error:
        form.add_rules_error(error, names)
        return None, False
    return None, True


def _saving(request: HttpRequest) -> bool:
    """A post of the round form that saves; its live preview (action=preview) saves nothing."""
    return request.POST.get("action") != "preview"


def _previewing(request: HttpRequest) -> bool:
    return not _saving(request)


@require_POST
@limit("round", counts=_saving)
@limit("preview", counts=_previewing)
def round_new(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_edit(request, pk)
    sheet = Sheet(match)
    form = _new_round_form(match, sheet, data=request.POST)

    def save(outcomes, version):
        services.record_round(match=match, outcomes=outcomes, version=version, by=request.user)

    try:
        preview, saved = _save_round(request, match, form, sheet.names, save)
    except services.RoundConflict as error:
        match.refresh_from_db()
        if error.repeat or match.is_finished:
            messages.info(request, str(error))
            return _reload(request, match, refused=True)
        # Keep what was typed, on the sheet as it is now, with the version it now has.
        sheet = Sheet(match)
        form = _new_round_form(match, sheet, data=request.POST)
        form.is_valid()
        form.add_error(str(error))
        return _render_sheet(request, match, form)
    except services.NotAllowed as error:
        messages.error(request, str(error))
        return _reload(request, match, refused=True)
    if saved:
        messages.success(
            request, _("Round %(number)s saved.") % {"number": form.number}, extra_tags=SAVED
        )
        return _reload(request, match, focus=True)
    return _render_sheet(request, match, form, preview)


def _error_focus(request: HttpRequest, form: RoundForm) -> str:
    """Where the keyboard goes when a save is refused, so that the person (on a phone, far
    below it) is taken to why: the form's own error above it ("form"), else the first player's
    marked field (their prefix); "" for a preview, which leaves the focus where it was."""
    if not _saving(request):
        return ""
    if form.non_field_errors:
        return "form"
    return next((entry.prefix for entry in form if entry.errors), "")


def _render_sheet(request: HttpRequest, match: Match, form: RoundForm, preview=None):
    context = _match_context(request, match, form) | _preview_context(preview, form.seats)
    context["error_focus"] = _error_focus(request, form)
    if request.htmx and request.htmx.target == "preview":
        return render(request, "games/_round_form_fields.html#preview", context | {"oob": True})
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
        event = events.get(seat.position, "")
        label = Entry.Event(event).label if event else ""
        rows.append(
            (
                str(seat.player),
                preview.scores[seat.position],
                preview.totals[seat.position],
                event,
                label,
            )
        )
    return {"preview": preview, "preview_rows": rows}


def _reload(request: HttpRequest, match: Match, focus=False, refused=False) -> HttpResponse:
    """After a save (or a save refused with a message): the fresh sheet, as a fragment for
    htmx."""
    if request.htmx and request.htmx.target == "preview":
        # A live preview of a round that is no longer the next one: show the page afresh.
        return HttpResponseClientRefresh()
    if request.htmx:
        match.refresh_from_db()
        context = _match_context(request, match, focus=focus, refused=refused)
        return render(request, "games/match.html#match-body", context)
    return redirect(match)


def _round_or_none(match: Match, round_id: int) -> Round | None:
    if not 0 < round_id < 2**63:
        return None  # no such row, and the database would refuse the number
    return match.rounds.prefetch_related("entries__seat__player").filter(pk=round_id).first()


def _round_now(round_: Round) -> list[tuple[str, str]]:
    """The round as it is now, for people: (player, outcome) in seat order."""
    entries = sorted(round_.entries.all(), key=lambda entry: entry.seat.position)
    return [(str(e.seat.player), outcome_label(queries.entry_outcome(e))) for e in entries]


def _edit_form(round_: Round, data=None) -> RoundForm:
    entries = list(round_.entries.all())
    seats = sorted((entry.seat for entry in entries), key=lambda seat: seat.position)
    return RoundForm(
        seats=seats,
        number=round_.number,
        version=round_.version,
        round_id=round_.pk,
        data=data,
        initial=None if data is not None else initial_from_entries(entries),
    )


@require_POST
@limit("round", counts=_saving)
@limit("preview", counts=_previewing)
def round_confirm(request: HttpRequest, pk: int, round_id: int) -> HttpResponse:
    """Confirm a round that waits (`action=confirm`), enter it a second time as one saw it
    (the round form: the same confirms it, another is kept beside it), or, for a director,
    settle it with a second entry (`action=choose`, `entry`)."""
    match = _get_match(pk)
    action = request.POST.get("action", "")
    try:
        if action == "confirm":
            round_ = services.confirm_round(match=match, round_id=round_id, by=request.user)
            messages.success(request, _("Round %(number)s confirmed.") % {"number": round_.number})
        elif action == "choose":
            round_ = services.choose_entry(
                match=match,
                round_id=round_id,
                dispute_id=_posted_int(request, "entry") or 0,
                by=request.user,
            )
            messages.success(
                request,
                _("Round %(number)s changed to the second entry and confirmed.")
                % {"number": round_.number},
            )
        else:
            return _enter_again(request, match, round_id)
    except services.GameError as error:
        messages.error(request, str(error))
        return _reload(request, match, refused=True)
    return _reload(request, match, focus=True)


def _enter_again(request: HttpRequest, match: Match, round_id: int) -> HttpResponse:
    """The round form of a second entry: preview it, or save it (see round_confirm)."""
    round_ = _round_or_none(match, round_id)
    if round_ is None:
        messages.error(request, _("This round has been deleted meanwhile."))
        return _reload(request, match, refused=True)
    form = _check_form(round_, data=request.POST)
    disputed = None

    def save(outcomes, version):
        nonlocal disputed
        disputed = services.enter_again(
            match=match, round_id=round_id, version=version, outcomes=outcomes, by=request.user
        )

    names = {seat.position: str(seat.player) for seat in form.seats}
    try:
        preview, saved = _save_round(request, match, form, names, save)
    except services.GameError as error:
        messages.error(request, str(error))
        return _reload(request, match, refused=True)
    if saved:
        number = {"number": round_.number}
        if disputed is None:
            messages.success(request, _("Round %(number)s confirmed.") % number)
        else:
            messages.warning(
                request,
                _(
                    "Your entry of round %(number)s differs from the first: both are shown "
                    "on the sheet until a director chooses one."
                )
                % number,
            )
        return _reload(request, match, focus=True)
    context = _match_context(request, match) | _preview_context(preview, form.seats)
    context |= {"check_form": form, "error_focus": _error_focus(request, form)}
    if request.htmx and request.htmx.target == "preview":
        # The preview's fragment is the round form's own partial: it reads `round_form`.
        context |= {"round_form": form, "oob": True}
        return render(request, "games/_round_form_fields.html#preview", context)
    if request.htmx:
        return render(request, "games/match.html#match-body", context)
    return render(request, "games/match.html", context)


@limit("correction", counts=_saving)
@limit("preview", counts=_previewing)
def round_edit(request: HttpRequest, pk: int, round_id: int) -> HttpResponse:
    match = _get_match_for_edit(request, pk)
    round_ = _round_or_none(match, round_id)
    if round_ is None:
        messages.error(request, _("This round has been deleted, so it cannot be changed."))
        return redirect(match)
    preview, now = None, None
    form = _edit_form(round_, request.POST if request.method == "POST" else None)
    if request.method == "POST":

        def save(outcomes, version):
            services.change_round(
                match=match, round_id=round_id, version=version, outcomes=outcomes, by=request.user
            )

        names = {seat.position: str(seat.player) for seat in form.seats}
        try:
            preview, saved = _save_round(request, match, form, names, save)
        except services.RoundConflict as error:
            round_ = _round_or_none(match, round_id)
            if error.repeat or round_ is None:
                messages.info(request, str(error))
                return redirect(match)
            # Keep what was typed, on the round as it is now, with its new version.
            form = _edit_form(round_, request.POST)
            form.is_valid()
            form.add_error(str(error))
            now = _round_now(round_)
        except services.NotAllowed as error:
            messages.error(request, str(error))
            return redirect(match)
        else:
            if saved:
                messages.success(
                    request,
                    _("Round %(number)s changed.") % {"number": round_.number},
                    extra_tags=SAVED,
                )
                return redirect(match)
    context = {
        "match": match,
        "round": round_,
        "round_form": form,
        "round_now": now,
        "card_grid": card_grid(match),
        "sheet": Sheet(match),
        "error_focus": _error_focus(request, form) if request.method == "POST" else "",
    } | _preview_context(preview, form.seats)
    if request.htmx and request.htmx.target == "preview":
        return render(request, "games/_round_form_fields.html#preview", context | {"oob": True})
    return render(request, "games/round_edit.html", context | {"what": owners.describe(match)})


@limit("correction")
def round_delete(request: HttpRequest, pk: int, round_id: int) -> HttpResponse:
    match = _get_match_for_edit(request, pk)
    round_ = _round_or_none(match, round_id)
    if round_ is None:
        messages.info(request, _("This round has already been deleted."))
        return redirect(match)
    now = None
    if request.method == "POST":
        try:
            number = services.delete_round(
                match=match,
                round_id=round_id,
                version=_posted_int(request, "version"),
                by=request.user,
            )
        except services.RoundConflict as error:
            round_ = _round_or_none(match, round_id)
            if error.repeat or round_ is None:
                messages.info(request, str(error))
                return redirect(match)
            messages.error(request, str(error))
            now = _round_now(round_)
        except services.NotAllowed as error:
            messages.error(request, str(error))
            return redirect(match)
        except RulesError as error:
            # Only possible when a later round depends on this one.
            messages.error(
                request,
                _("Round %(number)s cannot be deleted: a later round depends on it (%(reason)s).")
                % {"number": round_.number, "reason": rules_message(error, Sheet(match).names)},
            )
            return redirect(match)
        else:
            messages.success(request, _("Round %(number)s deleted.") % {"number": number})
            return redirect(match)
    later = match.rounds.filter(number__gt=round_.number).count()
    return render(
        request,
        "games/round_delete.html",
        {
            "match": match,
            "what": owners.describe(match),
            "round": round_,
            "later": later,
            "round_now": now,
        },
    )


@require_POST
@limit("rated")
def set_rated(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator counts a score sheet in the ratings or keeps it out (a practice match)."""
    match = _get_match_for_creator(request, pk)
    rated = {"1": True, "0": False}.get(request.POST.get("rated", ""))
    if rated is None or not match.is_casual:
        messages.error(request, _("Only a score sheet's creator can choose whether it is rated."))
        return redirect(match)
    services.set_rated(match=match, rated=rated, by=request.user)
    if rated:
        messages.success(request, _("The match counts in the ratings."))
    else:
        messages.success(request, _("The match is kept out of the ratings: a practice match."))
    return redirect(match)


@require_POST
@limit("match")
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_edit(request, pk)
    try:
        new = services.rematch(match=match, by=request.user)
    except services.NotAllowed as error:
        messages.error(request, str(error))
        return redirect(match)
    messages.success(request, _("A new match with the same players has started."))
    _say_who_is_asked(request, new)
    return redirect(new)


def _say_who_is_asked(request: HttpRequest, match: Match) -> None:
    """Tell the scorekeeper which accounts they named sit as guests until they confirm."""
    answers = signals.stand_ins_waiting.send(sender=Match, match=match, by=request.user)
    asked = sorted({name for _receiver, names in answers for name in names}, key=sort_key)
    if asked:
        messages.info(
            request,
            ngettext(
                "%(names)s sits as a guest of that name until they confirm it is them: only "
                "then does this match count on their record and rating.",
                "%(names)s sit as guests of those names until they confirm it is them: only "
                "then does this match count on their record and rating.",
                len(asked),
            )
            % {"names": ", ".join(asked)},
        )


@limit("scorekeeper")
def scorekeepers(request: HttpRequest, pk: int) -> HttpResponse:
    """The creator adds or removes the accounts that may keep this match's score."""
    match = _get_match_for_creator(request, pk)
    if not match.is_casual:
        messages.error(
            request, _("A tournament table's score is kept by its players and directors.")
        )
        return redirect(match)
    error = ""
    if request.method == "POST":
        username = request.POST.get("username", "")
        try:
            if request.POST.get("action") == "remove":
                # A NUL byte would reach the database (PostgreSQL refuses it): check first.
                user = None
                if not name_problem(username.strip()):
                    user = match.scorekeepers.filter(username__iexact=username.strip()).first()
                if user is not None:
                    services.remove_scorekeeper(match=match, user=user, by=request.user)
                    messages.success(request, _("%(name)s no longer keeps score.") % {"name": user})
                return redirect("games:scorekeepers", pk=match.pk)
            user = services.add_scorekeeper(match=match, username=username, by=request.user)
        except services.NotAllowed as failure:
            error = str(failure)
        else:
            messages.success(request, _("%(name)s can now keep score.") % {"name": user})
            return redirect("games:scorekeepers", pk=match.pk)
    return render(
        request,
        "games/scorekeepers.html",
        {
            "match": match,
            "what": owners.describe(match),
            "keepers": match.scorekeepers.order_by(NameKey("username")),
            "error": error,
        },
    )


@limit("delete")
def match_delete(request: HttpRequest, pk: int) -> HttpResponse:
    match = _get_match_for_creator(request, pk)
    if request.method == "POST":
        try:
            services.delete_match(match=match, by=request.user)
        except (services.NotAllowed, services.RoundConflict) as error:
            messages.error(request, str(error))
            return redirect(match)
        messages.success(request, _("The match has been deleted."))
        return redirect("games:match_list")
    return render(
        request, "games/match_delete.html", {"match": match, "what": owners.describe(match)}
    )


@require_POST
@limit("round")
def round_send(request: HttpRequest, pk: int) -> JsonResponse:
    """A round entered while the phone had no network, sent when it is back: the same fields
    as the round form, answered in JSON for the sheet's outbox (static/js/outbox.js).

    The round names the version it was made on and the seats it was entered for; if the sheet
    has moved on since (another scorekeeper's round, a player out), it is refused with the
    reason and the current version, never fitted onto the new sheet. A round the server
    already has (its answer was lost with the network) is answered as saved."""
    match = _get_match(pk)
    refusal = owners.refusal(match, request.user)
    if refusal is not None:
        return JsonResponse({"error": str(refusal)}, status=403)
    sheet = Sheet(match)
    form = _new_round_form(match, sheet, data=request.POST)
    version = _posted_int(request, "version")
    sent_for = request.POST.get("seats", "")
    in_play = ",".join(str(seat.position) for seat in sheet.in_play)
    if version == match.version and sent_for != in_play and not match.is_finished:
        # The page it was entered on showed other players in play than the sheet has.
        return _send_refused(match, _("The players in this round are not the sheet's."))
    try:
        if not form.is_valid():
            return JsonResponse({"error": _form_errors(form)}, status=400)
        services.record_round(
            match=match, outcomes=form.outcomes(), version=version, by=request.user
        )
    except RulesError as error:
        form.add_rules_error(error, sheet.names)
        return JsonResponse({"error": _form_errors(form)}, status=400)
    except services.RoundConflict as error:
        if error.repeat:
            match.refresh_from_db()
            return JsonResponse({"version": match.version, "repeat": True})
        return _send_refused(match, str(error))
    except services.NotAllowed as error:
        return JsonResponse({"error": str(error)}, status=403)
    match.refresh_from_db()
    return JsonResponse({"number": form.number, "version": match.version}, status=201)


def _send_refused(match: Match, reason: str) -> JsonResponse:
    match.refresh_from_db()
    return JsonResponse({"error": reason, "version": match.version}, status=409)


def _form_errors(form: RoundForm) -> str:
    """Every error of a round form in one line, each with the player it is about."""
    found = list(form.non_field_errors)
    for entry in form:
        for errors in entry.errors.values():
            found += [f"{entry.seat.player}: {error}" for error in errors]
    return " ".join(found)


@login_required
@require_POST
@limit("display")
def switch_large_print(request: HttpRequest) -> HttpResponse:
    """The account's large print on (`large=1`) or off, here and at its next logins; back to
    the page the toggle was on."""
    large = request.POST.get("large") == "1"
    services.set_large_print(user=request.user, large=large)
    large_print.remember_account_choice(request, large)
    return redirect(local_path(request, request.POST.get("next", "")) or "home")
