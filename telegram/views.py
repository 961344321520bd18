"""The webhook Telegram posts the bot's updates to (docs/telegram.md): the secret in its path
and in Telegram's header, the body read by the site's one JSON reader, the update taken by the
router. Its path is /telegram/webhook/<secret>/ (and, for a webhook set before, the old
/notifications/telegram/<secret>/)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.crypto import constant_time_compare
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from core.http import NotJson, read_json
from core.limits import limit
from telegram import bot, router


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
