"""Pages of the whole site, drawing on several apps: the home page, and what a visitor sees
when they may not do something, or not so often, or not while the database is away."""

import functools
import math

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import defaults
from django.views.decorators.http import require_safe
from django.views.i18n import set_language

from claims.notices import to_confirm
from clubs.queries import clubs_of
from core.outages import DATABASE_UNREACHABLE
from games import owners
from games.models import Match
from notify import services as notify_services
from play.queries import moves_due
from tournaments.models import Tournament
from tournaments.queries import seats_now


@require_safe
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
        "moves_due": moves_due(request.user),
        "to_confirm": to_confirm(request.user),
        "mine": mine,
        "recent": recent,
        "tournaments": tournaments,
        "clubs": clubs_of(request.user),
    }
    return render(request, "home.html", context)


def set_language_kept(request: HttpRequest) -> HttpResponse:
    """Django's language switch; a signed-in person's messages follow it (notify)."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if (
        request.method == "POST"
        and request.user.is_authenticated
        and language in dict(settings.LANGUAGES)
    ):
        notify_services.remember_language(user=request.user, language=language)
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """What a browser asks for where a page names no icon (a CSV or JSON answer opened)."""
    return HttpResponsePermanentRedirect(static("img/icon.svg"))


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: the site installed on a phone's home screen opens as an app (and
    may show web push, notify/channels/push.py)."""
    icons = [
        {"src": static("img/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("img/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("img/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    # The same in every language, as every download of the site (tests/test_every_page.py):
    # the game's name is its Russian one in English too.
    body = {
        "id": "/",
        "name": "101 · Сто одно",
        "short_name": "101",
        "lang": "ru",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbfaf6",  # --paper in static/css/site.css
        "theme_color": "#1f6f4a",  # --felt
        "icons": icons,
    }
    return JsonResponse(
        body,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


def _or_unreachable(handler):
    """An error page answered while the database is away is the 503 page: an error page reads
    the database too (the person's top bar), and fails in Django's own handler, past the
    middleware that answers 503 (config.middleware.DatabaseUnreachableMiddleware)."""

    @functools.wraps(handler)
    def answer(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return handler(request, *args, **kwargs)
        except DATABASE_UNREACHABLE:
            return database_unreachable(request)

    return answer


@_or_unreachable
def not_found(request: HttpRequest, exception=None) -> HttpResponse:
    """A 404: Django's own (templates/404.html)."""
    return defaults.page_not_found(request, exception)


@_or_unreachable
def bad_request(request: HttpRequest, exception=None) -> HttpResponse:
    """A 400: Django's own."""
    return defaults.bad_request(request, exception)


@_or_unreachable
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


# What a post over its rate limit did not do, by the group of core/limits.py (every group of
# settings.RATE_LIMITS has one: tests/test_write_limits.py).
NOT_DONE = {
    "match": gettext_lazy(
        "You have started too many matches in a short time: this one was not started."
    ),
    "table": gettext_lazy(
        "You have opened too many tables in a short time: this one was not opened."
    ),
    "join": gettext_lazy("You have taken too many seats in a short time: this one was not taken."),
    "claim": gettext_lazy("You have sent too many claims in a short time: this one was not sent."),
    "round": gettext_lazy(
        "You have saved too many rounds in a short time: this one was not saved."
    ),
    "tournament": gettext_lazy(
        "You have created too many tournaments in a short time: this one was not created."
    ),
    "club": gettext_lazy(
        "You have created too many clubs in a short time: this one was not created."
    ),
    "move": gettext_lazy("You have made too many moves in a short time: this one was not made."),
    "deal": gettext_lazy(
        "You have started or fast-forwarded too many rounds in a short time: this was not done."
    ),
    "leave": gettext_lazy(
        "You have left or come back too often in a short time: this was not done."
    ),
    "preview": gettext_lazy(
        "You have asked for too many previews in a short time: this one was not shown."
    ),
    "correction": gettext_lazy(
        "You have corrected too many rounds in a short time: this correction was not made."
    ),
    "scorekeeper": gettext_lazy(
        "You have changed the scorekeepers too often in a short time: this change was not made."
    ),
    "rated": gettext_lazy(
        "You have changed whether matches count in the ratings too often in a short time: this "
        "change was not made."
    ),
    "delete": gettext_lazy(
        "You have deleted too many matches in a short time: this one was not deleted."
    ),
    "privacy": gettext_lazy(
        "You have changed who sees your name too often in a short time: this change was not made."
    ),
    "decide": gettext_lazy(
        "You have decided too many claims in a short time: this one was not decided."
    ),
    "withdraw": gettext_lazy(
        "You have withdrawn too many claims in a short time: this one was not withdrawn."
    ),
    "register": gettext_lazy(
        "You have registered for or left tournaments too often in a short time: this was not done."
    ),
    "director": gettext_lazy(
        "You have made too many changes to tournaments in a short time: this one was not made."
    ),
    "seating": gettext_lazy(
        "You have seated too many rounds in a short time: this one was not seated."
    ),
    "language": gettext_lazy(
        "You have switched the language too often in a short time: it was not switched."
    ),
    "display": gettext_lazy(
        "You have switched large print too often in a short time: it was not switched."
    ),
    "season": gettext_lazy(
        "You have changed seasons too often in a short time: this change was not made."
    ),
    "telegram": gettext_lazy(
        "You have linked or unlinked Telegram too often in a short time: this was not done."
    ),
    "telegram_update": gettext_lazy(
        "Too many messages came from Telegram in a short time: this one was not read."
    ),
    "telegram_login": gettext_lazy(
        "Too many sign-ins with Telegram came from here in a short time: you were not signed "
        "in. Try again in a few minutes."
    ),
    "telegram_app": gettext_lazy(
        "Too many people signed in from Telegram here in a short time: you were not signed in. "
        "Open the Mini App again in a few minutes."
    ),
    "push": gettext_lazy(
        "You have turned notifications in a browser on or off too often in a short time: this "
        "was not done."
    ),
    "vacation": gettext_lazy(
        "You have changed your vacation too often in a short time: this change was not made."
    ),
    "notify": gettext_lazy(
        "You have changed notifications or sent test messages too often in a short time: "
        "this was not done."
    ),
    "unsubscribe": gettext_lazy(
        "Too many unsubscribes came from your address in a short time: this one was not made."
    ),
    "practice": gettext_lazy(
        "You have tried too many practice moves in a short time: this one was not counted."
    ),
}


@_or_unreachable
def rate_limited(request: HttpRequest, exception=None) -> HttpResponse:
    """A 429: what was not done and when to try again (settings.RATELIMIT_VIEW for the limits
    of core/limits.py, handler429 for allauth's, which say no more than that it was too many).

    In JSON for a phone's outbox (static/js/outbox.js), which keeps the round and sends it
    again later. For htmx, a notice put at the top of the page, whose form keeps what was typed
    (base.html lets htmx take a 429)."""
    group = getattr(exception, "group", None)
    seconds = getattr(exception, "seconds", None)
    what = str(NOT_DONE.get(group, _("Too many requests in a short time.")))
    if seconds is None:
        when = _("Try again in a few minutes.")
    else:
        seconds = max(seconds, 1)
        minutes = math.ceil(seconds / 60)
        when = ngettext(
            "Try again in %(minutes)s minute.", "Try again in %(minutes)s minutes.", minutes
        ) % {"minutes": minutes}
    if request.get_preferred_type(["text/html", "application/json"]) == "application/json":
        response = JsonResponse({"error": f"{what} {when}", "retry_after": seconds}, status=429)
    elif request.headers.get("HX-Request"):
        response = render(request, "429.html#notice", {"what": what, "when": when}, status=429)
        response["HX-Retarget"] = "#main"
        response["HX-Reswap"] = "afterbegin show:top"
    else:
        response = render(request, "429.html", {"what": what, "when": when}, status=429)
    if seconds is not None:
        response["Retry-After"] = str(seconds)
    return response


# How long a page the database could not answer asks to wait before trying again.
DATABASE_RETRY_SECONDS = 5


def database_unreachable(request: HttpRequest) -> HttpResponse:
    """A 503 (config.middleware): the site cannot reach its database for a moment (it restarts,
    a connection was cut, none came free in time). Made without the database: no session, no
    account, none of the context processors, which read it.

    In JSON for a phone's outbox (static/js/outbox.js), which keeps the round and sends it again
    after `retry_after` seconds. For htmx, a notice put at the top of the page, as for a 429
    (base.html lets htmx take a 503); a board or a live page tries again by itself."""
    text = _("The site cannot reach its database for a moment: try again in a few seconds.")
    if request.get_preferred_type(["text/html", "application/json"]) == "application/json":
        body = {"error": text, "retry_after": DATABASE_RETRY_SECONDS}
        response = JsonResponse(body, status=503)
    elif request.headers.get("HX-Request"):
        response = HttpResponse(render_to_string("503.html#notice", {"text": text}), status=503)
        response["HX-Retarget"] = "#main"
        response["HX-Reswap"] = "afterbegin show:top"
    else:
        response = HttpResponse(render_to_string("503.html", {"text": text}), status=503)
    response["Retry-After"] = str(DATABASE_RETRY_SECONDS)
    return response


def button_address(request: HttpRequest) -> HttpResponse:
    """A button's address opened as a page (config.middleware.ButtonAddressMiddleware)."""
    return render(request, "405.html", {"back": _referring_path(request)}, status=405)
