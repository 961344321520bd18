"""Pages of the whole site, drawing on several apps: the home page."""

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

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
