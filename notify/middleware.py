"""The language a signed-in person last used the site in, kept for their notifications."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from notify import services

# The session remembers the language kept, so that only a change is written.
KEPT = "notify_language"


class LanguageKeptMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Only where the view read the account already: the polls that read no session (a
        # table's version) stay one query.
        user = getattr(request, "_cached_user", None)
        language = getattr(request, "LANGUAGE_CODE", "")
        if user is not None and user.is_authenticated and language:
            session = request.session
            if session.get(KEPT) != language:
                services.remember_language(user=user, language=language)
                session[KEPT] = language
        return response
