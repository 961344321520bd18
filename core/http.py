"""What views of several apps ask of a request: where a form may send the visitor back to,
whether a live page's refresh finds anything new, and a JSON body read as safely as a form's."""

from __future__ import annotations

import json
import math
import re

from django.conf import settings
from django.db import models
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

from core.versions import version_of


def absolute(path: str) -> str:
    """The site's address of `path`, for what is read off the site (a message, a chat's
    button): settings.SITE_URL (DJANGO_SITE_URL)."""
    if path.startswith(("http://", "https://")):
        return path
    return settings.SITE_URL.rstrip("/") + path


def local_path(request: HttpRequest, target: str) -> str | None:
    """`target` (a form's `next`) when it is a path on this site, else None. Only a path:
    redirect() would read any other string as the name of a view (NoReverseMatch)."""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def unchanged(request: HttpRequest, model: type[models.Model], pk: int) -> bool:
    """A refresh (htmx) naming the version it shows, which is still the row's: one plain query
    for the version alone, since most refreshes find nothing new."""
    if not (request.htmx and "v" in request.GET):
        return False
    version = version_of(model, pk)
    return version is not None and request.GET["v"] == str(version)


# What a JSON body may hold: objects and lists nested this deep (a push subscription is two
# levels, a Telegram update five or six), integers a 64-bit database column holds, finite
# numbers, and text a database can keep (no NUL, no half of a surrogate pair).
JSON_DEPTH = 16
JSON_INT = 2**63


class NotJson(ValueError):
    """A request body that is not JSON the site can take, and why (for a 400)."""


def read_json(request: HttpRequest) -> object:
    """The request's JSON body, checked as form fields are before any code reads it; NotJson
    otherwise. Every JSON a view takes is read here: what passes can be stored and compared
    without an error (an id of 1e400, a lone "\\ud800", a thousand nested lists did)."""
    try:
        value = json.loads(
            request.body.decode("utf-8"),
            parse_constant=_refuse_constant,
            parse_float=_finite,
            parse_int=_bounded,
        )
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise NotJson(str(error) if isinstance(error, NotJson) else "not JSON") from None
    _check_json(value)
    return value


def _refuse_constant(name: str) -> float:
    raise NotJson(f"{name} is not a number")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise NotJson(f"{text} is out of range")
    return number


def _bounded(text: str) -> int:
    if len(text.lstrip("-")) > 19 or not -JSON_INT <= (number := int(text)) < JSON_INT:
        raise NotJson(f"{text} is out of range")
    return number


def _check_json(value: object) -> None:
    """Depth and text, walked without recursion."""
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            if depth > JSON_DEPTH:
                raise NotJson("nested too deep")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            todo += [(child, depth + 1) for child in children]
        elif isinstance(item, str) and not _storable(item):
            raise NotJson("text with a NUL or half a surrogate pair")


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _storable(text: str) -> bool:
    return _UNSTORABLE.search(text) is None
