"""The webhook Telegram posts the bot's updates to (docs/telegram.md): the secret in its path
and in Telegram's header, the body read by the site's one JSON reader, the update taken by the
router. Its path is /telegram/webhook/<secret>/ (and, for a webhook set before, the old
/notifications/telegram/<secret>/). And the Mini App: the page it opens, /telegram/app/, and
the sign-in by its initData that page posts."""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth import login
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
)
from django.shortcuts import render
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from core.http import NotJson, read_json
from core.limits import limit
from telegram import bot, router, services, start, webapp

# The session's mark that the browser is Telegram's Mini App: every page then follows
# Telegram's theme and back button (templates/base.html, static/js/miniapp.js).
IN_MINI_APP = "telegram_mini_app"


@csrf_exempt  # Telegram posts without a session; the secret (path and header) stands for it
@require_POST
@limit("telegram_update")
def webhook(request: HttpRequest, secret: str) -> HttpResponse:
    expected = settings.TELEGRAM_WEBHOOK_SECRET
    header = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
    if not (
        expected
        and bot.configured()
        and constant_time_compare(secret, expected)
        and constant_time_compare(header, expected)
    ):
        raise Http404
    try:
        update = read_json(request)
    except NotJson:
        return HttpResponseBadRequest()
    if not isinstance(update, dict):
        return HttpResponseBadRequest()
    # A database failure is raised: the site answers 503 and Telegram posts it again.
    router.handle(update)
    return HttpResponse()


@require_safe
def app(request: HttpRequest) -> HttpResponse:
    """The page Telegram's Mini App opens: its script posts the initData Telegram gave it to
    `app_login`; outside Telegram it says where to open it."""
    return render(request, "telegram/app.html", {"in_mini_app": True})


@csrf_exempt  # Telegram's signature of the initData stands for the CSRF token
@require_POST
@limit("telegram_app")
def app_login(request: HttpRequest) -> HttpResponse:
    """Signs in the Telegram user the posted initData names, if Telegram signed it for this
    bot within a day and it was never used, and goes to the page its start parameter names."""
    data = webapp.read_init_data(
        request.POST.get("init_data", ""), token=settings.TELEGRAM_BOT_TOKEN, now=time.time()
    )
    user = services.open_app(data) if data is not None else None
    if data is None or user is None or not user.is_active:
        return render(request, "telegram/app_refused.html", {"in_mini_app": True}, status=403)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session[IN_MINI_APP] = True
    response = HttpResponseRedirect(start.path_for(data.start_param))
    language = _language(data.user.language_code)
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


def _language(code: str) -> str:
    """The site's language for a Telegram language code: Russian for "ru", English for any
    other; "" when Telegram gave none."""
    if not code:
        return ""
    return "ru" if code.lower().split("-")[0] == "ru" else "en"
