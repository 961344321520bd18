"""Large print: every page readable at arm's length (base.html's `<html class="large">`).

Two ways to ask for it. An account's setting (`Player.large_print`, games.services), copied
into the session at each login, so that reading it costs no query on any page; a change made
on another device shows here at the next login, or at once through the toggle. And a browser's
own choice, `?large=1` (`?large=0` to leave it) on any page, kept in its session: a club's shared
phone on the table, or a guest. The browser's choice, when it made one, wins over the account's.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseRedirect
from django.utils.functional import SimpleLazyObject

from games.models import Player

BROWSER = "large_print"  # this browser's `?large=` choice, True or False
ACCOUNT = "large_print_account"  # the account's setting, as it was at login or last set here
PARAMETER = "large"
CHOICES = {"1": True, "0": False}


def is_large(request: HttpRequest) -> bool:
    """Whether this request's page is shown in large print."""
    session = getattr(request, "session", None)
    # A visitor with no session chose nothing: it is not read (no `Vary: Cookie` for them).
    if session is None or settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return False
    return bool(session.get(BROWSER, session.get(ACCOUNT, False)))


def remember_account_choice(request: HttpRequest, large: bool) -> None:
    """The account's setting, just changed through the toggle, rules this browser again."""
    request.session[ACCOUNT] = large
    request.session.pop(BROWSER, None)


@receiver(user_logged_in)
def copy_setting_at_login(sender, request, user, **kwargs) -> None:
    large = Player.objects.filter(user=user).values_list("large_print", flat=True).first()
    request.session[ACCOUNT] = bool(large)


class LargePrintMiddleware:
    """`?large=1` or `?large=0` on a page sets this browser's choice and comes back to the page
    without it. A GET that sets only a display preference of this browser, kept in its session
    as a language may be: nothing anyone else sees changes, so no service, lock or limit.
    Placed after the session's middleware."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        choice = request.GET.get(PARAMETER)
        if request.method in ("GET", "HEAD") and choice in CHOICES:
            request.session[BROWSER] = CHOICES[choice]
            rest = request.GET.copy()
            del rest[PARAMETER]
            query = rest.urlencode()
            return HttpResponseRedirect(request.path + (f"?{query}" if query else ""))
        return self.get_response(request)


def context(request: HttpRequest) -> dict:
    """`large_print`: whether base.html marks the page large; `large_print_switch`: the same page
    with the other choice (a guest's toggle). Worked out only where a page shows them (not in
    an htmx fragment)."""
    large = SimpleLazyObject(lambda: is_large(request))

    def switch() -> str:
        other = request.GET.copy()
        other[PARAMETER] = "0" if large else "1"
        return f"{request.path}?{other.urlencode()}"

    return {"large_print": large, "large_print_switch": SimpleLazyObject(switch)}
