"""The site's URLs plus /bench/bare/ (a Django view rendering a 30-row table, no database)
and /bench/ok/ (a view answering "ok").

It is the yardstick for the score sheet: the same server, settings and middleware, a
page of the same shape (a table of 30 rounds x 4 players with totals), but a tiny
template and no queries, so the difference is what the sheet itself costs.
"""

from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns

ROWS = 30
PLAYERS = ("Anna", "Boris", "Vera", "Gleb")

# Compiled once per process, like the cached template loader does for the site's templates.
TEMPLATE = engines["django"].from_string(
    """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Bare table</title></head>
<body>
<table>
  <thead><tr><th>#</th>{% for name in players %}<th>{{ name }}</th>{% endfor %}</tr></thead>
  <tbody>
  {% for row in rows %}
    <tr><th>{{ row.number }}</th>{% for cell in row.cells %}
      <td><span>{{ cell.score }}</span> <span>{{ cell.total }}</span></td>{% endfor %}
    </tr>
  {% endfor %}
  </tbody>
</table>
</body></html>
"""
)

ROW_DATA = [
    {
        "number": number,
        "cells": [
            {"score": (number + seat) % 9 - 2, "total": (number * 7 + seat * 3) % 101}
            for seat in range(len(PLAYERS))
        ],
    }
    for number in range(1, ROWS + 1)
]


def bare_table(request: HttpRequest) -> HttpResponse:
    return HttpResponse(TEMPLATE.render({"players": PLAYERS, "rows": ROW_DATA}, request))


def ok(request: HttpRequest) -> HttpResponse:
    """The cheapest answer Django gives through the whole middleware: the yardstick of polls."""
    return HttpResponse("ok")


urlpatterns = [
    path("bench/bare/", bare_table, name="bench_bare"),
    path("bench/ok/", ok, name="bench_ok"),
    *site_urlpatterns,
]
