"""Pages of a club's seasons: the list, a season's table and its settings, closing it, and the
table shared (JSON, CSV, a printable page, a page to embed on the club's own site). Views
parse, read clubs.queries or call clubs.services, render."""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from clubs import queries, rights, services
from clubs.errors import ClubError
from clubs.models import Club, Season
from clubs.season_forms import SeasonForm
from core.exports import csv_response
from core.http import unchanged
from core.limits import limit
from tournaments.models import Tournament
from tournaments.queries import cached_standing_lines

# The embedded table may be framed by any site (a club's own page), this view alone.
EMBED_CSP = {**settings.SECURE_CSP, "frame-ancestors": ["*"]}


def _number(value: Fraction | None) -> int | float | None:
    """A figure for JSON and CSV: whole numbers as such, fractions to two decimals."""
    if value is None:
        return None
    if value.denominator == 1:
        return int(value)
    return round(float(value), 2)


# --- the list, a season's page --------------------------------------------------------------


@require_safe
def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = queries.club_at(slug)
    context = {"club": club, "runs": rights.runs(request.user, club), **queries.season_list(club)}
    return render(request, "clubs/season_list.html", context)


@require_safe
def season_detail(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    season = queries.season_at(slug, season_id)
    context = _season_context(request, season)
    context["awards"] = queries.season_awards(season, context["nights"])
    return render(request, "clubs/season_detail.html", context)


def _season_context(request: HttpRequest, season: Season) -> dict:
    return {**queries.season_page(season), "runs": rights.runs(request.user, season.club)}


# --- settings and closing -------------------------------------------------------------------


def _settings(form: SeasonForm) -> dict:
    data = form.cleaned_data
    return {name: data[name] for name in ("name", "starts", "ends", "best_nights", "min_nights")}


@login_required
@limit("season")
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = queries.club_at(slug)
    rights.check_runs(request.user, club)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.create_season(club=club, by=request.user, **_settings(form))
        except ClubError as error:
            form.add_error(None, str(error))
        else:
            return redirect("clubs:season", club.slug, season.pk)
    return render(request, "clubs/season_form.html", {"club": club, "form": form})


@login_required
@limit("season")
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    season = queries.season_at(slug, season_id)
    rights.check_runs(request.user, season.club)
    form = SeasonForm.of(season, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_season(season=season, by=request.user, **_settings(form))
        except ClubError as error:
            form.add_error(None, str(error))
        else:
            return redirect("clubs:season", season.club.slug, season.pk)
    return render(
        request,
        "clubs/season_form.html",
        {"club": season.club, "season": season, "form": form},
    )


@login_required
@limit("season")
@require_http_methods(["GET", "POST"])
def season_close(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """GET asks first; POST closes the season (its table kept), or reopens a closed one."""
    season = queries.season_at(slug, season_id)
    rights.check_runs(request.user, season.club)
    error = None
    if request.method == "POST":
        try:
            if season.closed_at is None:
                services.close_season(season=season, by=request.user)
            else:
                services.reopen_season(season=season, by=request.user)
        except ClubError as refusal:
            error = str(refusal)
        else:
            return redirect("clubs:season", season.club.slug, season.pk)
    context = _season_context(request, season)
    context["error"] = error
    return render(request, "clubs/season_close.html", context)


# --- shared: JSON, CSV, printed, embedded ---------------------------------------------------


@require_safe
def season_json(request: HttpRequest, slug: str, season_id: int) -> JsonResponse:
    """{"rows": [{"player", "name", "points", "nights", "place"}, ...]}: numbers as numbers,
    a hidden player's name only for those who may read it, an unranked player's place null."""
    season = queries.season_at(slug, season_id)
    lines = queries.season_lines(season)
    return JsonResponse(
        {
            "rows": [
                {
                    "player": line.row.player_id,
                    "name": str(line.player),
                    "points": _number(line.row.points),
                    "nights": line.row.nights,
                    "place": line.row.place,
                }
                for line in lines
            ]
        },
        json_dumps_params={"ensure_ascii": False},
    )


@require_safe
def season_csv(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    season = queries.season_at(slug, season_id)
    lines = queries.season_lines(season)
    response, writer = csv_response(request, f"{season.club.slug}-season-{season.pk}.csv")
    writer.writerow(
        [
            _("Rank"),
            _("Player"),
            _("Points"),
            pgettext("season", "Nights"),
            _("Wins"),
            _("Average place"),
            _("Change"),
        ]
    )
    for line in lines:
        row = line.row
        writer.writerow(
            [
                row.place if row.place is not None else "",
                str(line.player),
                _number(row.points),
                row.nights,
                row.wins,
                _number(row.average),
                pgettext("season row", "new")
                if row.new
                else (row.change if row.change is not None else ""),
            ]
        )
    return response


@require_safe
def season_print(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    season = queries.season_at(slug, season_id)
    return render(request, "clubs/season_print.html", _season_context(request, season))


@xframe_options_exempt
@csp_override(EMBED_CSP)
@require_safe
@vary_on_headers("HX-Request")
def season_embed(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The table alone, for an iframe on any site; it asks again every minute and changes
    when the club's version has moved (a night finished or reopened, the season changed)."""
    season = queries.season_at(slug, season_id)
    if unchanged(request, Club, season.club_id):
        return HttpResponse(status=204)
    template = "clubs/season_embed.html"
    if request.htmx:
        template += "#table"
    return render(request, template, _season_context(request, season))


def _last_night(slug: str) -> Tournament:
    night = queries.last_night(queries.club_at(slug))
    if night is None:
        raise Http404(_("The club has no finished night yet."))
    return night


@require_safe
def last_night_json(request: HttpRequest, slug: str) -> JsonResponse:
    """The club's last finished night: {"night": {"id", "name", "date"}, "rows": [{"player",
    "name", "points", "place", "tables"}, ...]}."""
    night = _last_night(slug)
    return JsonResponse(
        {
            "night": {"id": night.pk, "name": night.name, "date": night.date.isoformat()},
            "rows": [
                {
                    "player": line.standing.player,
                    "name": str(line.entrant.player),
                    "points": _number(line.standing.points),
                    "place": line.standing.rank,
                    "tables": line.standing.tables,
                }
                for line in cached_standing_lines(night)
            ],
        },
        json_dumps_params={"ensure_ascii": False},
    )


@require_safe
def last_night_csv(request: HttpRequest, slug: str) -> HttpResponse:
    night = _last_night(slug)
    response, writer = csv_response(request, f"{slug}-night-{night.pk}.csv")
    writer.writerow([_("Rank"), _("Player"), _("Points"), _("Tables")])
    for line in cached_standing_lines(night):
        writer.writerow(
            [
                line.standing.rank,
                str(line.entrant.player),
                _number(line.standing.points),
                line.standing.tables,
            ]
        )
    return response
