"""Claims of guest profiles and a player's privacy: the pages and the forms they post."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from claims import notices, queries, services
from claims.models import Claim
from core.http import local_path
from core.limits import limit
from core.validators import MAX_ID
from games import extensions
from games.models import Player
from games.services import NotAllowed, own_player

PENDING_SHOWN = 200  # pending claims looked through for the ones a judge decides
HISTORY = 50


@require_safe
@login_required
def claims(request: HttpRequest) -> HttpResponse:
    """Claims waiting for this user's decision, links to confirm, and their own requests."""
    user = request.user
    to_decide, to_confirm = queries.waiting(user, limit=PENDING_SHOWN)
    history = list(
        Claim.objects.filter(Q(asked_by=user) | Q(user=user) | Q(decided_by=user))
        .select_related("guest", "user", "asked_by", "decided_by")
        .distinct()[:HISTORY]
    )
    queries.show_deciders(claim for claim in history if claim.is_pending)
    notices.remember_count(user, len(to_decide) + len(to_confirm))
    return render(
        request,
        "claims/claims.html",
        {"to_decide": to_decide, "to_confirm": to_confirm, "history": history},
    )


@login_required
@require_POST
@limit("claim")
def ask(request: HttpRequest, guest: int) -> HttpResponse:
    player = _player(guest)
    try:
        claim = services.ask(guest=player, by=request.user)
    except NotAllowed as refusal:
        messages.error(request, str(refusal))
        return _back(request, player)
    if claim.status == Claim.Status.APPROVED:
        messages.success(
            request,
            _("%(guest)s is now you: %(count)s seats became yours.")
            % {"guest": claim.guest_name, "count": claim.seats_moved},
        )
        return _to_profile(claim.user.player)
    messages.success(
        request,
        _("Asked. Whoever added %(guest)s will approve or refuse.") % {"guest": claim.guest_name},
    )
    return _back(request, player)


@login_required
@require_POST
@limit("claim")
def link(request: HttpRequest, guest: int) -> HttpResponse:
    player = _player(guest)
    try:
        claim = services.link(
            guest=player, username=request.POST.get("username", ""), by=request.user
        )
    except NotAllowed as refusal:
        messages.error(request, str(refusal))
        return _back(request, player)
    if claim.status == Claim.Status.APPROVED:
        messages.success(request, _("%(guest)s is now you.") % {"guest": claim.guest_name})
        return _to_profile(claim.user.player)
    messages.success(
        request,
        _("Linked to %(user)s: the guest becomes theirs once they confirm.") % {"user": claim.user},
    )
    return _back(request, player)


@login_required
@require_POST
@limit("decide")
def decide(request: HttpRequest, pk: int) -> HttpResponse:
    claim = get_object_or_404(Claim.objects.select_related("user"), pk=_id(pk))
    approve = request.POST.get("decision") == "approve"
    try:
        services.decide(claim=claim, approve=approve, by=request.user)
    except NotAllowed as refusal:
        messages.error(request, str(refusal))
    else:
        if approve and claim.kind == Claim.Kind.LINK and claim.user_id == request.user.pk:
            messages.success(
                request,
                _("Confirmed: you are “%(guest)s”, and the seats and results are yours.")
                % {"guest": claim.guest_name},
            )
        elif approve:
            messages.success(
                request,
                _("%(guest)s is now %(user)s's profile.")
                % {"guest": claim.guest_name, "user": claim.user},
            )
        else:
            messages.success(
                request, _("Refused: %(guest)s stays a guest.") % {"guest": claim.guest_name}
            )
    return redirect(_safe_next(request) or "claims:claims")


@login_required
@require_POST
@limit("withdraw")
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    claim = get_object_or_404(Claim, pk=_id(pk))
    try:
        services.withdraw(claim=claim, by=request.user)
    except NotAllowed as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _("Withdrawn."))
    return redirect(_safe_next(request) or "claims:claims")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@limit("privacy")
def privacy(request: HttpRequest) -> HttpResponse:
    """The choice is posted from the owner's profile; an address opened or bookmarked leads
    there, to the choice, changing nothing."""
    if request.method != "POST":
        player = Player.objects.filter(user=request.user).first()
        messages.info(
            request, _("Who sees your profile is chosen on it, under “Who sees this profile”.")
        )
        page = extensions.player_page(player.pk) if player is not None else None
        return redirect(f"{page}#privacy-title" if page else "claims:claims")
    player = own_player(request.user)
    private = request.POST.get("private") == "on"
    services.set_private(player=player, private=private, by=request.user)
    if private:
        messages.success(
            request,
            _(
                "Your profile and your name are now shown only to the people who played at your "
                "table, kept score of your matches or directed your tournaments."
            ),
        )
    else:
        messages.success(request, _("Your profile and your name are public again."))
    return _to_profile(player)


def _id(pk: int) -> int:
    return pk if pk <= MAX_ID else 0


def _player(pk: int) -> Player:
    return get_object_or_404(Player, pk=_id(pk))


def _safe_next(request: HttpRequest) -> str | None:
    return local_path(request, request.POST.get("next", ""))


def _to_profile(player: Player) -> HttpResponse:
    return redirect(extensions.player_page(player.pk) or "claims:claims")


def _back(request: HttpRequest, player: Player) -> HttpResponse:
    return redirect(_safe_next(request) or extensions.player_page(player.pk) or "claims:claims")
