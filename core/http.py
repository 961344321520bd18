"""What views of several apps ask of a request: where a form may send the visitor back to, and
whether a live page's refresh finds anything new."""

from __future__ import annotations

from django.db import models
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

from core.versions import version_of


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
