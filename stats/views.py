"""Player profiles and head-to-head pages."""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from claims.claim_panel import claim_panel
from claims.models import Claim
from core.exports import csv_response
from core.validators import MAX_ID
from games import audience
from games.models import NameKey, Player
from stats import charts, exports, panels, queries, signals
from stats.forms import FiltersForm, LeaderboardForm
from stats.models import Rating, RatingChange

RECENT = 10  # matches listed on a profile
PLACES = 30  # matches in the places chart
RATING_POINTS = 300  # changes in the rating chart, the latest
OPPONENTS = 30
COMMON = 100  # common matches listed on a head-to-head page
SEARCH = 30  # players found by name
PROFILE_CACHE_SECONDS = 3600


@require_safe
def profile(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's figures, ratings, charts, matches and opponents under the filters asked for;
    cached until a finished result changes anywhere (and for the day: "today" moves)."""
    if pk > MAX_ID:
        raise Http404
    player = Player.objects.select_related("user").filter(pk=pk).first()
    if player is None:
        # A guest claimed by an account: its old address leads to the account's profile.
        merged = (
            Claim.objects.filter(guest_number=pk, status=Claim.Status.APPROVED)
            .values_list("user__player", flat=True)
            .first()
        )
        if merged is None:
            raise Http404
        return redirect("stats:profile", pk=merged, permanent=True)
    if player.is_hidden:
        return _hidden(request)
    form = FiltersForm(request.GET or None)
    asked = hashlib.sha256(request.GET.urlencode().encode()).hexdigest()[:16]
    key = (
        f"stats:profile:{player.pk}:{asked}:{panels.results_version()}:"
        f"{audience.cache_key(Player, player.pk)}:{get_language()}:"
        f"{timezone.localdate().isoformat()}"
    )
    body = cache.get(key)
    if body is None:
        body = render_to_string("stats/_profile_body.html", _profile(player, form), request=request)
        cache.set(key, body, PROFILE_CACHE_SECONDS)
    context = {
        "player": player,
        "body": body,
        "claim": claim_panel(player, request.user),
        "panels": signals.panels_of(player, request.user),
    }
    return render(request, "stats/profile.html", context)


def _profile(player: Player, form: FiltersForm) -> dict:
    filters = form.filters()
    ratings = list(
        Rating.objects.filter(player=player).select_related("pool").order_by("-matches", "pk")
    )
    pool = filters.preset or (ratings[0].pool.preset if ratings else None)
    rating = next((r for r in ratings if r.pool.preset == pool), None)
    recent = queries.recent_seats(player.pk, filters, max(RECENT, PLACES))
    return {
        "player": player,
        "form": form,
        "filters": filters,
        "figures": queries.summary(player.pk, filters),
        "predicted": queries.predicted(player.pk, filters),
        "ratings": ratings,
        "rating": rating,
        "rating_chart": _rating_chart(player, pool, filters),
        "places_chart": charts.places(
            [
                (
                    seat.place,
                    seat.table_size,
                    date_format(seat.match.finished_at, "SHORT_DATE_FORMAT"),
                )
                for seat in reversed(recent[:PLACES])
            ]
        ),
        "recent": recent[:RECENT],
        "opponents": queries.opponents(player.pk, filters)[:OPPONENTS],
    }


def _rating_chart(player: Player, pool: str | None, filters: queries.Filters):
    if pool is None:
        return None
    changes = RatingChange.objects.filter(player=player, pool__preset=pool)
    if filters.kind:
        changes = changes.filter(match__kind=filters.kind)
    start = filters.start(timezone.now())
    if start is not None:
        changes = changes.filter(finished_at__gte=start)
    latest = list(
        changes.order_by("-finished_at", "-match_id").only(
            "finished_at", "mu_after", "sigma_after", "matches_after"
        )[:RATING_POINTS]
    )[::-1]
    days = [localtime(change.finished_at) for change in latest]
    # Under the axis, the day and month ("27 ноября"), with the year when the line spans two.
    across_years = bool(days) and days[0].year != days[-1].year
    return charts.line(
        [change.after.shown for change in latest],
        [date_format(day, "SHORT_DATE_FORMAT") for day in days],
        [date_format(day, "DATE_FORMAT" if across_years else "MONTH_DAY_FORMAT") for day in days],
    )


@require_safe
def head_to_head(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    if pk == other or max(pk, other) > MAX_ID:
        raise Http404
    players = Player.objects.in_bulk([pk, other])
    if len(players) != 2:
        raise Http404
    if any(player.is_hidden for player in players.values()):
        return _hidden(request)
    form = FiltersForm(request.GET or None)
    filters = form.filters()
    matches = queries.common_matches(pk, other, filters).prefetch_related("seats__player")
    rows = []
    for match in matches[:COMMON]:
        seats = {seat.player_id: seat for seat in match.seats.all()}
        rows.append((match, seats[pk], seats[other]))
    met = queries.opponents(pk, filters, only=other)
    context = {
        "player": players[pk],
        "other": players[other],
        "form": form,
        "rows": rows,
        "met": met[0] if met else None,
    }
    return render(request, "stats/head_to_head.html", context)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Ratings of one preset's pool, best first; provisional players apart; a name search."""
    form = LeaderboardForm(request.GET or None)
    choice = form.choice()
    rows = queries.leaderboard(choice)
    found = []
    if choice.search:
        # A name hidden from the person looking is not found by it either.
        found = Player.objects.named_like(choice.search).shown()
        found = list(found.order_by(NameKey("name"), "pk")[:SEARCH])
    context = {
        "form": form,
        "choice": choice,
        "ranked": [row for row in rows if not row.provisional],
        "provisional": [row for row in rows if row.provisional],
        "found": found,
    }
    return render(request, "stats/leaderboard.html", context)


@require_safe
def player_export(request: HttpRequest, pk: int, format: str) -> HttpResponse:
    """The player's finished matches as `matches.csv` or `matches.json`, under the filters."""
    player = get_object_or_404(Player, pk=pk)
    if player.is_hidden:
        return _hidden(request)
    filters = FiltersForm(request.GET or None).filters()
    if format == "json":
        response = HttpResponse(
            exports.player_json(player, filters), content_type="application/json"
        )
        response["Content-Disposition"] = f'attachment; filename="player-{player.pk}-matches.json"'
        return response
    response, writer = csv_response(request, f"player-{player.pk}-matches.csv")
    exports.player_csv(writer, player, filters)
    return response


@require_safe
def leaderboard_export(request: HttpRequest) -> HttpResponse:
    response, writer = csv_response(request, "leaderboard.csv")
    exports.leaderboard_csv(writer)
    return response


def _hidden(request: HttpRequest) -> HttpResponse:
    """A profile its player hides from the person looking: no name (a way to sign in for a
    visitor who is not)."""
    return render(request, "stats/hidden.html", status=403)
