"""The Notifications page (switches, quiet hours, linked channels, a test message, what was
sent lately) and the one-click unsubscribe of the e-mails."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from core.limits import limit
from notify import preferences, queries, services, time_zones, tokens
from notify.channels import CHANNELS, email
from notify.forms import SettingsForm
from notify.messages import render as render_message
from notify.models import Channel, Kind

# "Link Telegram" posts to the site, which answers with a redirect to t.me; a browser holds
# that redirect to the form-action of the page the form is on, which is this one.
TELEGRAM_FORMS = {
    **django_settings.SECURE_CSP,
    "form-action": [*django_settings.SECURE_CSP["form-action"], "https://t.me"],
}


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@limit("notify")
@csp_override(TELEGRAM_FORMS)
def settings_page(request: HttpRequest) -> HttpResponse:
    prefs = preferences.settings_of(request.user)
    if request.method == "POST":
        form = SettingsForm(request.POST, prefs=prefs)
        if form.is_valid():
            services.save_settings(
                user=request.user,
                switches=form.switches(),
                quiet_from=form.cleaned_data["quiet_from"],
                quiet_until=form.cleaned_data["quiet_until"],
                time_zone=form.cleaned_data["time_zone"],
            )
            time_zones.remember(request, form.cleaned_data["time_zone"])
            services.remember_browser_zone(
                user=request.user, name=request.COOKIES.get(time_zones.COOKIE, "")
            )
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notify:settings")
    else:
        form = SettingsForm(prefs=prefs)
    panels = [
        {
            "key": name,
            "name": Channel(name).label,
            "linked": channel.linked(request.user),
            "html": _panel(request, channel),
        }
        for name, channel in ((name, CHANNELS[name]) for name in Channel.values)
    ]
    return render(
        request,
        "notify/settings.html",
        {
            "form": form,
            "channels": [Channel(name).label for name in Channel.values],
            "panels": panels,
            "deliveries": [
                (delivery, render_message(delivery.notification))
                for delivery in queries.recent_deliveries(request.user)
            ],
            "default_zone": django_settings.TIME_ZONE,
            "any_linked": any(panel["linked"] for panel in panels),
        },
    )


def _panel(request: HttpRequest, channel) -> str:
    """A channel's part of the page, rendered with its own context (its template reads the
    names its `panel_context` gives, as when it is shown anywhere else)."""
    template = getattr(channel, "panel_template", None)
    if template is None:
        return ""
    return render_to_string(template, channel.panel_context(request), request=request)


@login_required
@require_POST
@limit("notify")
def test_message(request: HttpRequest) -> HttpResponse:
    notification = services.send_test(user=request.user)
    if notification.deliveries.exists():
        messages.success(request, _("A test message is on its way to each linked channel."))
    else:
        messages.error(request, _("No channel is linked: there is nowhere to send it."))
    if request.user.email and not email.confirmed(request.user):
        messages.warning(
            request,
            _(
                "No test message goes to %(address)s until you confirm it is yours: follow "
                "the link in the e-mail we sent, or ask for a new one on the Email Addresses page."
            )
            % {"address": request.user.email},
        )
    return redirect("notify:settings")


@csrf_exempt  # the one-click unsubscribe (RFC 8058): a mail program posts it, with no cookie
@require_http_methods(["GET", "HEAD", "POST"])
@limit("unsubscribe")
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: what the link switches off, and a button; POST: switched off (no login: the
    signed token says whose)."""
    read = tokens.read_unsubscribe(token)
    if read is None:
        raise Http404
    user_id, kinds, channel = read
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or channel not in Channel.values:
        raise Http404
    labels = [Kind(kind).label for kind in kinds if kind in Kind.values]
    done = False
    if request.method == "POST":
        services.switch_off(user=user, kinds=kinds, channel=channel)
        done = True
    return render(
        request,
        "notify/unsubscribe.html",
        {"kinds": labels, "channel": Channel(channel).label, "done": done, "token": token},
    )
