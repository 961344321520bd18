"""Pages of the whole site, drawing on several apps: the home page."""

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.models import Match
from tournaments.models import Tournament


def home(request: HttpRequest) -> HttpResponse:
    mine = Match.objects.for_user(request.user).with_seats()[:5]
    recent = Match.objects.casual().with_seats()[:10]
    tournaments = (
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .annotate(players=Count("entrants"))
        .order_by("-date", "-pk")[:5]
    )
    return render(
        request, "home.html", {"mine": mine, "recent": recent, "tournaments": tournaments}
    )
