"""The score sheet without a network: the service worker that keeps a copy of the sheets a
phone has opened (and of the site's styles and scripts), and the page it shows for any other
page while the network is down. Rounds entered offline are sent by `views.round_send`."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """Served from the root so that its scope covers every sheet; a browser checks it for a
    newer copy on each visit (no-cache), so a deploy reaches phones at once."""
    return render(request, "games/sw.js", content_type="text/javascript")


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page it has no copy of while the network is down
    (kept when the worker is installed): the sheets it does have, found on the phone."""
    return render(request, "games/offline.html")
