"""Pages of a club's seasons: the table, awards, its files and embedded page (stubs until built)."""

from django.http import Http404, HttpRequest, HttpResponse


def season_list(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def season_new(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def season_detail(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def season_edit(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def season_close(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def season_json(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def season_csv(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def season_print(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def season_embed(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def last_night_json(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def last_night_csv(request: HttpRequest, **kwargs) -> HttpResponse:
    raise Http404  # not built yet


def club_seasons_panel(request: HttpRequest, club) -> dict:
    """What the club's page shows of its seasons (templates/clubs/_club_seasons.html):
    the context it needs. Stub until the season pages are built."""
    return {"seasons": []}
