"""Requests refused before anything reads them (text the database cannot store), and those
answered "try again in a moment" when the database is away."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

from django.contrib.sessions import middleware as sessions
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _

from config import views
from core.outages import DATABASE_UNREACHABLE

logger = logging.getLogger(__name__)

# What no database of ours stores in text: NUL (PostgreSQL refuses it, and the query fails
# with a 500), and lone surrogates (not UTF-8: no database encodes them). Every other
# character is stored as it is; what a field may hold beyond that is its form's business.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _first_unstorable(texts: Iterable[str]) -> str | None:
    for text in texts:
        found = UNSTORABLE.search(text)
        if found:
            return f"U+{ord(found[0]):04X}"
    return None


def _items(multi) -> Iterable[str]:
    """The names and values of a QueryDict (or a MultiValueDict of files: their names)."""
    for name, values in multi.lists():
        yield name
        for value in values:
            yield value if isinstance(value, str) else value.name or ""


def unstorable_in(request: HttpRequest) -> tuple[str, str] | None:
    """Where the request holds text the database cannot store, and the first such character
    (`("form", "U+0000")`), or None when it holds none.

    Where: "address" (the path or the query string), "cookie", "form" (a field's name or value,
    urlencoded or multipart), "file" (an uploaded file's name: Django drops NUL from those
    already, but a file name is shown and may be kept). The site takes no JSON body, so there
    is none to look into; a view that takes one will have to check its strings too.
    """
    code = _first_unstorable([request.path_info]) or _first_unstorable(_items(request.GET))
    if code:
        return ("address", code)
    code = _first_unstorable([*request.COOKIES, *request.COOKIES.values()])
    if code:
        return ("cookie", code)
    if request.method == "POST":
        try:
            form, files = request.POST, request.FILES
        except OSError:
            # The body could not be read (the client went away): there is nothing to store;
            # the view meets an empty form, as it would have without this check.
            return None
        code = _first_unstorable(_items(form))
        if code:
            return ("form", code)
        code = _first_unstorable(_items(files))
        if code:
            return ("file", code)
    return None


def _reason(where: str, code: str) -> str:
    if where == "address":
        text = _("The address holds a character the site cannot take (%(code)s): check the link.")
    elif where == "cookie":
        text = _(
            "Your browser sent a cookie of this site that holds a character the site cannot "
            "take (%(code)s). The site has asked the browser to delete it: reload the page."
        )
    elif where == "file":
        text = _(
            "The name of the file sent holds a character the site cannot take (%(code)s): "
            "rename the file and send it again."
        )
    else:
        text = _(
            "The form sent holds a character the site cannot take (%(code)s): "
            "remove it and send the form again."
        )
    return text % {"code": code}


class StorableInputMiddleware:
    """Refuses a request whose address, query string, form or cookies hold text the database
    cannot store, with a 400 page that says so.

    It stands before the session middleware, since a session cookie is looked up in the
    database as it comes, and before every view, so that no lookup (an invitation code, an
    allauth key, a name searched for) and no form meets such text. Sessions, the signed-in
    user and the chosen language are not known yet: the page is shown to an anonymous
    visitor, in the language of the language cookie or the browser.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        found = unstorable_in(request)
        if found is None:
            return self.get_response(request)
        where, code = found
        language = translation.get_language_from_request(request)
        with translation.override(language):
            response = self._refuse(request, _reason(where, code))
        response.headers["Content-Language"] = language
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        if where == "cookie":
            # The browser would send it again with every request: have it forget the cookies
            # that hold such text (those whose name can be written back in a header).
            for name, value in request.COOKIES.items():
                if UNSTORABLE.search(value) and not UNSTORABLE.search(name):
                    response.delete_cookie(name)
        return response

    def _refuse(self, request: HttpRequest, reason: str) -> HttpResponse:
        context = {"reason": reason}
        if request.headers.get("HX-Request") == "true":
            # htmx swaps no 4xx answer by itself; site.js swaps this one, into the page's
            # main part, whatever the request meant to replace.
            response = render(request, "bad_request.html#reason", context, status=400)
            response.headers["HX-Retarget"] = "#main"
            response.headers["HX-Reswap"] = "innerHTML"
            return response
        return render(request, "bad_request.html", context, status=400)


class DatabaseUnreachableMiddleware(MiddlewareMixin):
    """A view that cannot reach the database (it restarts, a connection was cut, none came free
    in time) is answered 503 with Retry-After (config.views.database_unreachable), not 500: the
    visitor is told to try again in a few seconds, and nothing was half-saved (each write is
    one transaction)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_UNREACHABLE):
            return _unreachable(request, exception)
        return None


class ButtonAddressMiddleware(MiddlewareMixin):
    """An address only a form's button posts to (`require_POST`), opened as a page (a link
    copied, a bookmark, the back button): a page that says so and leads on, not Django's blank
    405. Still 405, with its Allow header; nothing is done."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if (
            response.status_code != 405
            or request.method != "GET"
            or response.content
            or getattr(request, "htmx", False)
        ):
            return response
        page = views.button_address(request)
        page["Allow"] = response.get("Allow", "POST")
        return page


class SessionMiddleware(sessions.SessionMiddleware):
    """Django's, answering 503 as the views do when the database cannot take the session it
    saves after the view (a login, a logout): the one write to the database outside a view."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        try:
            return super().process_response(request, response)
        except DATABASE_UNREACHABLE as error:
            return _unreachable(request, error)


def _unreachable(request: HttpRequest, error: Exception) -> HttpResponse:
    # Why, in one line (django.request logs the 503 itself, without it).
    logger.warning("the database cannot be reached (%s): %s", error, request.path)
    return views.database_unreachable(request)


class ConnectionsBackMiddleware:
    """Under ASGI a request's database work runs in a thread of its own, and its connection
    went back to the pool when Django sent `request_finished`; but a request whose client
    went away before the answer (a phone losing its signal, a reload) is never finished so:
    its connection stayed out of the pool, and after a few dozen such requests a process
    had none left and answered 503 until restarted. Outermost of settings.MIDDLEWARE, sync
    only, so that it runs in that thread after everything the request did there: each
    connection goes back whether or not anyone is left to answer. (The test client's
    requests are not ASGI's, and a test's transaction is not closed.)"""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            if isinstance(request, ASGIRequest):
                for connection in connections.all(initialized_only=True):
                    if not connection.in_atomic_block:
                        connection.close_if_unusable_or_obsolete()
