"""The browser's side of web push: a person turns notifications on or off in a browser (the
panel's script, static/js/push.js, posts the browser's subscription), and a service worker
passes on its renewed subscription (templates/games/sw.js)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from core.http import NotJson, local_path, read_json
from core.limits import limit
from notify import services
from notify.channels import push


def _refused(text: str) -> JsonResponse:
    return JsonResponse({"error": text}, status=400)


def _json_body(request: HttpRequest) -> object:
    """The posted JSON (core.http.read_json), or PushError saying it is not JSON."""
    try:
        return read_json(request)
    except NotJson:
        raise push.PushError(
            _("The request is not JSON: send the browser's subscription.")
        ) from None


@login_required
@require_POST
@limit("push")
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """This browser gets the person's pushes: its `PushSubscription.toJSON()`, posted."""
    if not push.configured():
        return _refused(_("Web push is not set up on this site."))
    try:
        subscription = push.check_subscription(_json_body(request))
    except push.PushError as error:
        return _refused(str(error))
    services.subscribe(user=request.user, subscription=subscription)
    return JsonResponse({"text": _("Notifications are on in this browser.")}, status=201)


@login_required
@require_POST
@limit("push")
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    """A browser gets no more pushes: this one (JSON with its endpoint, from the panel's
    script), or every browser of the person's (the panel's form, which works without
    JavaScript, and goes back to the page it was on)."""
    if request.content_type == "application/json":
        try:
            data = _json_body(request)
        except push.PushError as error:
            return _refused(str(error))
        endpoint = data.get("endpoint") if isinstance(data, dict) else None
        if not isinstance(endpoint, str) or not endpoint:
            return _refused(_("Say which browser to turn off: its subscription's endpoint."))
        services.unsubscribe(user=request.user, endpoint=endpoint)
        return JsonResponse({"text": _("Notifications are off in this browser.")})
    count = services.unsubscribe(user=request.user)
    messages.success(
        request,
        ngettext(
            "Notifications are off in %(count)s browser.",
            "Notifications are off in %(count)s browsers.",
            count,
        )
        % {"count": count},
    )
    return HttpResponseRedirect(local_path(request, request.POST.get("next", "")) or "/")


@csrf_exempt
@require_POST
@limit("push")
def push_renew(request: HttpRequest) -> HttpResponse:
    """A service worker's `pushsubscriptionchange`: {"old_endpoint": ..., "subscription":
    {...}}. No session and no CSRF token reach a service worker; the old endpoint, a secret of
    the browser's and the site's, says whose subscription it was (services.renew)."""
    try:
        data = _json_body(request)
        if not isinstance(data, dict) or not isinstance(data.get("old_endpoint"), str):
            raise push.PushError(_("Say which subscription this one replaces: old_endpoint."))
        subscription = push.check_subscription(data.get("subscription"))
    except push.PushError as error:
        return _refused(str(error))
    if services.renew(old_endpoint=data["old_endpoint"], subscription=subscription) is None:
        return JsonResponse({"error": _("The site does not know that subscription.")}, status=404)
    return HttpResponse(status=204)
