"""Pages of a club: its page, settings, members, invitations, and its nights (a new night from
the club's defaults, the roll call). Views parse, read clubs.queries or call clubs.services,
render; who may do what is clubs.rights."""

from __future__ import annotations

import io

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from cards101.rules import Variant
from clubs import queries, rights, services, signals
from clubs.errors import ClubError
from clubs.forms import AddMembersForm, ClubForm, NewClubForm, night_initial
from clubs.models import Club, Member
from core.limits import limit
from core.names import sort_key
from core.validators import parse_id
from games.labels import changed_options, rules_summary
from tournaments.forms import TournamentForm
from tournaments.services.tournaments import renamed_for_date


def _get_club_to_run(request: HttpRequest, slug: str) -> Club:
    """The club, if this user owns or directs it; 403 otherwise (rights.NotAllowed)."""
    club = queries.club_at(slug)
    rights.check_runs(request.user, club)
    return club


def _invitation_url(request: HttpRequest, club: Club) -> str:
    return request.build_absolute_uri(reverse("clubs:join", args=[club.slug, club.invite_code]))


# --- reading ---------------------------------------------------------------------------------


@require_safe
def club_list(request: HttpRequest) -> HttpResponse:
    return render(request, "clubs/list.html", {"clubs": queries.clubs_listed(request.user)})


@require_safe
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = queries.club_at(slug)
    membership = queries.member_of(club, request.user)
    upcoming = list(queries.upcoming_nights(club))
    running = next((night for night in upcoming if night.status == "running"), None)
    asked = membership is None and queries.has_asked_to_join(club, request.user)
    runs = rights.runs(request.user, club)
    context = {
        "club": club,
        "runs": runs,
        "requests_count": queries.requests_waiting(club).count() if runs else 0,
        "membership": membership,
        "asked": asked,
        "upcoming": upcoming,
        "last_nights": queries.last_nights(club),
        "projector_night": running or (upcoming[0] if upcoming else None),
        "members": queries.member_lines(club),
        **_house_rules(club),
        **queries.club_seasons(club),
        "panels": signals.panels_of(club, request),
    }
    return render(request, "clubs/detail.html", context)


def _house_rules(club: Club) -> dict:
    """The club's rules as its nights play them: the preset, its summary, what differs."""
    variant = Variant.from_dict(club.options)
    return {
        "rules_line": rules_summary(variant, club.preset),
        "house_rules": changed_options(variant, club.preset),
    }


# --- creating and settings -------------------------------------------------------------------


@login_required
@vary_on_headers("HX-Request")
@limit("club")
def club_new(request: HttpRequest) -> HttpResponse:
    if request.htmx and request.method == "GET":
        # The settings' preset picker asks here for the options a preset sets.
        form = ClubForm(preset=request.GET.get("preset"))
        return render(request, form.options_template_name, {"form": form})
    if request.method == "POST":
        form = NewClubForm(request.POST)
        if form.is_valid():
            try:
                club = services.create_club(owner=request.user, **form.cleaned_data)
            except ClubError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    _("The club has been created. Now set its house rules and its nights."),
                )
                return redirect("clubs:edit", slug=club.slug)
    else:
        form = NewClubForm()
    return render(request, "clubs/new.html", {"form": form})


@login_required
@limit("director")
def club_edit(request: HttpRequest, slug: str) -> HttpResponse:
    club = _get_club_to_run(request, slug)
    if request.method == "POST":
        form = ClubForm(request.POST, instance=club, preset=request.POST.get("preset"))
        if form.is_valid() and form.cleaned_data["variant"] is not None:
            try:
                services.update_club(
                    club=queries.club_at(slug),
                    by=request.user,
                    variant=form.cleaned_data["variant"],
                    **form.settings(),
                )
            except ClubError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("The club's settings have been saved."))
                return redirect("clubs:detail", slug=club.slug)
    else:
        form = ClubForm(instance=club)
    return render(request, "clubs/edit.html", {"form": form, "club": club})


# --- members ---------------------------------------------------------------------------------


@limit("director")
def members(request: HttpRequest, slug: str) -> HttpResponse:
    """The members and their roles, for everyone; for the owner and directors also the
    invitation link, the requests to join, and one line adding a member."""
    club = queries.club_at(slug)
    runs = rights.runs(request.user, club)
    form = AddMembersForm()
    if request.method == "POST":
        rights.check_runs(request.user, club)
        form = AddMembersForm(request.POST)
        if form.is_valid():
            try:
                added = services.add_members_named(
                    club=club, names=[form.cleaned_data["name"]], by=request.user
                )
            except ClubError as error:
                form.add_error("name", str(error))
            else:
                messages.success(
                    request, _("%(name)s is a member of the club.") % {"name": added[0].player}
                )
                return redirect("clubs:members", slug=club.slug)
    context = {
        "club": club,
        "runs": runs,
        "is_owner": rights.owns(request.user, club),
        "membership": queries.member_of(club, request.user),
        "members": queries.member_lines(club),
        "form": form,
        "requests": queries.requests_waiting(club) if runs else [],
        "invitation_url": _invitation_url(request, club) if runs else "",
        # The history of roles, removals and names: for members and those who run the club.
        "history": queries.club_history(club) if rights.belongs(request.user, club) else None,
        "history_lines": queries.HISTORY_LINES,
    }
    return render(request, "clubs/members.html", context)


@login_required
@require_POST
@limit("director")
def member_action(request: HttpRequest, slug: str, member_pk: int) -> HttpResponse:
    """The owner makes a member a director or not; the owner or a director removes a member;
    a member leaves."""
    club = queries.club_at(slug)
    member = queries.member_at(club, member_pk)
    action = request.POST.get("action")
    try:
        if action == "director":
            services.set_role(member=member, role=Member.Role.DIRECTOR, by=request.user)
        elif action == "member":
            services.set_role(member=member, role=Member.Role.MEMBER, by=request.user)
        elif action == "remove":
            services.remove_member(member=member, by=request.user)
            if member.player.user_id == request.user.pk:
                messages.success(request, _("You have left the club."))
                return redirect("clubs:detail", slug=club.slug)
        else:
            messages.error(request, _("Choose what to do with this member."))
    except ClubError as error:
        messages.error(request, str(error))
    return redirect("clubs:members", slug=club.slug)


@login_required
@limit("director")
def new_invitation(request: HttpRequest, slug: str) -> HttpResponse:
    """Asks first (GET), then makes a new invitation link (POST): the old one stops working."""
    club = _get_club_to_run(request, slug)
    if request.method == "POST":
        services.renew_invitation(club=club, by=request.user)
        messages.success(
            request, _("A new invitation link has been made; the old one no longer works.")
        )
        return redirect("clubs:members", slug=club.slug)
    return render(request, "clubs/new_invitation.html", {"club": club})


@login_required
@require_safe
def invitation_qr(request: HttpRequest, slug: str) -> HttpResponse:
    """The invitation link as a QR code (SVG): only for those who may hand the link out."""
    club = _get_club_to_run(request, slug)
    svg = io.BytesIO()
    # A file of its own (with its namespace, unlike an inline SVG), light modules included:
    # shown on a dark screen it still scans.
    segno.make(_invitation_url(request, club), error="m").save(
        svg, kind="svg", scale=6, dark="#000", light="#fff", xmldecl=False
    )
    response = HttpResponse(svg.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


@limit("register")
def join(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """The invitation link: the club and a "Join" button (sign in first); joining posts here."""
    club = queries.club_at(slug)
    valid = code == club.invite_code
    membership = queries.member_of(club, request.user)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.path)
        try:
            services.join(club=club, user=request.user, code=code)
        except ClubError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Welcome to %(club)s!") % {"club": club.name})
            return redirect("clubs:detail", slug=club.slug)
        valid = False
    context = {"club": club, "valid": valid, "membership": membership, "code": code}
    return render(request, "clubs/join.html", context, status=200 if valid else 404)


@login_required
@require_POST
@limit("register")
def ask_to_join(request: HttpRequest, slug: str) -> HttpResponse:
    club = queries.club_at(slug)
    try:
        services.ask_to_join(club=club, user=request.user)
    except ClubError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("You have asked to join; the club's directors will answer."))
    return redirect("clubs:detail", slug=club.slug)


@login_required
@require_POST
@limit("director")
def join_request(request: HttpRequest, slug: str, request_pk: int) -> HttpResponse:
    club = _get_club_to_run(request, slug)
    asked = queries.join_request_at(club, request_pk)
    accept = request.POST.get("decision") == "accept"
    services.decide_request(join_request=asked, accept=accept, by=request.user)
    if accept:
        messages.success(request, _("%(name)s is a member of the club.") % {"name": asked.user})
    else:
        messages.success(request, _("The request has been declined."))
    return redirect("clubs:members", slug=club.slug)


# --- nights ----------------------------------------------------------------------------------


@login_required
@vary_on_headers("HX-Request")
@limit("tournament")
def night_new(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament form, filled from the club's defaults; then the roll call."""
    club = _get_club_to_run(request, slug)
    if request.method == "POST":
        form = TournamentForm(request.POST, preset=request.POST.get("preset"))
        if form.is_valid() and form.cleaned_data["variant"] is not None:
            fields = form.settings()
            # The form was filled for today: a night set for Friday is named for Friday.
            today = timezone.localdate()
            if fields["name"] == night_initial(club, today)["name"]:
                fields["name"] = renamed_for_date(fields["name"], today, fields["date"])
            try:
                night = services.create_night(
                    club=club,
                    by=request.user,
                    variant=form.cleaned_data["variant"],
                    **fields,
                )
            except ClubError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("The night has been created. Who came?"))
                return redirect("clubs:roll_call", slug=club.slug, pk=night.pk)
    else:
        form = TournamentForm(
            preset=request.GET.get("preset") or club.preset,
            initial=night_initial(club, timezone.localdate()),
        )
    if request.htmx and request.method == "GET":
        return render(request, form.options_template_name, {"form": form})
    return render(request, "clubs/night_new.html", {"form": form, "club": club})


@limit("director")
def roll_call(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The members as big buttons: tap who came (checked in), tap again (not); one line adds
    a guest or a newcomer, who becomes a member and is checked in."""
    club = _get_club_to_run(request, slug)
    night = queries.night_at(club, pk)
    form = AddMembersForm()
    if request.method == "POST":
        try:
            if "name" in request.POST:
                form = AddMembersForm(request.POST)
                if form.is_valid():
                    member = services.add_newcomer(
                        night=night, name=form.cleaned_data["name"], by=request.user
                    )
                    messages.success(
                        request, _("%(name)s is checked in.") % {"name": member.player}
                    )
                    return redirect("clubs:roll_call", slug=club.slug, pk=night.pk)
            else:
                player = queries.player_at(parse_id(request.POST.get("player")))
                present = request.POST.get("present") == "1"
                services.roll_call(night=night, player=player, present=present, by=request.user)
                return redirect("clubs:roll_call", slug=club.slug, pk=night.pk)
        except ClubError as error:
            messages.error(request, str(error))
    checked = queries.checked_in(night)
    context = {
        "club": club,
        "night": night,
        # Called by name: alphabetical, not by rating.
        "members": sorted(queries.member_lines(club), key=lambda line: sort_key(line.name)),
        "checked": checked,
        "form": form,
    }
    template = "clubs/roll_call.html"
    if request.htmx:
        template += "#roll"
    return render(request, template, context)
