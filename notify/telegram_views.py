"""The Telegram channel's pages: "Link Telegram" and "Unlink" on the account's Notifications
page (the webhook is the telegram app's: telegram.views)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.http import local_path
from core.limits import limit
from notify import services
from notify.channels import telegram


def _back(request: HttpRequest) -> HttpResponse:
    """Back to the page the button was on (the Notifications page), never elsewhere."""
    return redirect(local_path(request, request.POST.get("next", "")) or "/")


@login_required
@require_POST
@limit("telegram")
def link(request: HttpRequest) -> HttpResponse:
    """A fresh one-time deep link, and straight to it: Telegram opens the bot, the person taps
    Start, and the bot hears /start <token>."""
    if not telegram.configured():
        raise Http404("Telegram is not set up")
    token = services.new_token(user=request.user, language=translation.get_language())
    return redirect(telegram.deep_link(token))


@login_required
@require_POST
@limit("telegram")
def unlink(request: HttpRequest) -> HttpResponse:
    if services.unlink(user=request.user):
        messages.success(request, _("Telegram is unlinked: no more notifications go there."))
    return _back(request)
