"""A club's Telegram group, from the club's page: a code to link one, and unlinking it."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from chats import services
from clubs import queries as club_queries
from clubs import rights
from core.limits import limit
from telegram import bot


@login_required
@require_POST
@limit("director")
def new_code(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_queries.club_at(slug)
    if not bot.configured():
        raise Http404
    rights.check_runs(request.user, club)
    code = services.new_code(club=club, by=request.user, language=translation.get_language())
    context = {"club": club, "code": code, "bot_username": settings.TELEGRAM_BOT_USERNAME}
    return render(request, "chats/club_code.html", context)


@login_required
@require_POST
@limit("director")
def unlink(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_queries.club_at(slug)
    if services.unlink(club=club, by=request.user):
        messages.success(request, _("The club's Telegram group will be told nothing more."))
    return redirect("clubs:detail", slug=club.slug)
