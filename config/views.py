"""Pages of the whole site, drawing on several apps: the home page, and what a visitor sees
when they may not do something."""

from django.contrib.auth.views import redirect_to_login
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from games import owners
from games.models import Match
from tournaments.models import Tournament
from tournaments.services import seats_now


def home(request: HttpRequest) -> HttpResponse:
    mine = owners.label(list(Match.objects.for_user(request.user).with_seats()[:5]))
    recent = Match.objects.casual().with_seats()[:10]
    tournaments = (
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .annotate(players=Count("entrants"))
        .order_by("-date", "-pk")[:5]
    )
    context = {
        "seats_now": seats_now(request.user),
        "mine": mine,
        "recent": recent,
        "tournaments": tournaments,
    }
    return render(request, "home.html", context)


def forbidden(request: HttpRequest, exception=None) -> HttpResponse:
    """A 403: a visitor who is not signed in is asked to sign in first (and comes back to the
    page, or to the page they were on when they pressed a button); anyone else is told why."""
    if not request.user.is_authenticated:
        back = request.get_full_path() if request.method == "GET" else _referring_path(request)
        return redirect_to_login(back)
    return render(request, "403.html", status=403)


def _referring_path(request: HttpRequest) -> str:
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return referer
    return "/"
