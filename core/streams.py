"""The live pages' event streams served ahead of Django's request handler, so that an open
stream holds no thread.

Django's ASGI handler runs a request's sync middleware (sessions, accounts, CSRF, messages…)
in a thread made for that request, which lives until the response ends: for an event stream,
as long as the browser keeps the page open. A stream needs none of what they do: its events
carry only a version, anyone may hear them (what each viewer sees is decided when the page is
fetched), and it changes nothing. So the app (`config/asgi.py`) hands a request for a path the
URL conf routes to `core.live.events_view` to `serve` here, which checks the host as Django
does, counts the client's streams (`core.live.streams`), reads the row's version once in a
thread of a shared pool, and then only waits on the event loop: no thread, a socket and a few
kilobytes a stream. Everything else goes to Django as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import resource
from collections.abc import Awaitable, Callable
from typing import Any

from django.core.exceptions import DisallowedHost, PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import models
from django.urls import Resolver404, resolve

from core import live
from core.limits import client_address
from core.outages import DATABASE_UNREACHABLE

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# A stream whose row's version cannot be read (the database is down) is tried again soon.
UNREACHABLE = live.Refusal(503, 5, "the database cannot be reached")


def around(app: ASGIApp) -> ASGIApp:
    """`app` (Django's) with the event streams served ahead of it."""
    raise_descriptor_limit()

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].endswith("/events/"):
            target = events_target(scope)
            if target is not None:
                await serve(scope, receive, send, *target)
                return
        await app(scope, receive, send)

    return application


def raise_descriptor_limit() -> None:
    """Each stream is a socket: let the process open as many files as the system allows it
    (the soft limit up to the hard one), as servers made to hold many connections do."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def events_target(scope: Scope) -> tuple[type[models.Model], int] | None:
    """The row whose events the path asks for, if the URL conf routes it to an events view."""
    path = scope["path"]
    root = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    try:
        match = resolve(path)
    except Resolver404:
        return None
    model = getattr(match.func, "live_model", None)
    if model is None:
        return None
    return model, match.kwargs["pk"]


async def serve(
    scope: Scope, receive: Receive, send: Send, model: type[models.Model], pk: int
) -> None:
    """One stream, from the first check to the browser's going."""
    request = ASGIRequest(scope, io.BytesIO())
    if request.method != "GET":
        await _answer(send, 405, b"", [(b"allow", b"GET")])
        return
    try:
        request.get_host()
        address = client_address(request)
    except (DisallowedHost, PermissionDenied):
        await _answer(send, 400, b"")
        return
    session = live.session_of(request)
    refusal = live.streams.take(address, session)
    if refusal is not None:
        await _refuse(send, refusal)
        return
    try:
        await _stream(request, receive, send, model, pk)
    finally:
        live.streams.give_back(address, session)


async def _stream(
    request: ASGIRequest, receive: Receive, send: Send, model: type[models.Model], pk: int
) -> None:
    try:
        watcher = await live.watch(model, pk)
    except DATABASE_UNREACHABLE:
        logger.warning("live events: the database could not be read", exc_info=True)
        await _refuse(send, UNREACHABLE)
        return
    if watcher is None:
        await _answer(send, 404, b"")
        return
    leaving = asyncio.create_task(_until_gone(receive, watcher))
    try:
        headers = [
            (b"content-type", b"text/event-stream"),
            *((name.lower().encode(), value.encode()) for name, value in live.STREAM_HEADERS),
            *_security_headers(),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        async for text in live.events(watcher, model, pk, live.known_version(request)):
            await send({"type": "http.response.body", "body": text.encode(), "more_body": True})
    except OSError:
        pass  # the browser went while an event was being sent (uvicorn's ClientDisconnected)
    finally:
        leaving.cancel()
        live.hub.remove(watcher)  # if the stream ended before its first event


async def _until_gone(receive: Receive, watcher: live.Watcher) -> None:
    """Wait for the browser to go, and tell the stream so that it ends at once."""
    try:
        while (await receive())["type"] != "http.disconnect":
            pass
    except OSError:
        pass  # the connection is gone all the same
    watcher.leave()


def _security_headers() -> list[tuple[bytes, bytes]]:
    """What Django's security middleware adds to every answer that applies to a stream."""
    return [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin")]


async def _refuse(send: Send, refusal: live.Refusal) -> None:
    """Not now: `Retry-After`, and the same hint in the stream's own words (`retry:`)."""
    headers = [
        (b"content-type", b"text/event-stream"),
        (b"retry-after", str(refusal.retry).encode()),
    ]
    await _answer(send, refusal.status, live.refusal_body(refusal), headers)


async def _answer(
    send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [*(headers or []), *_security_headers()],
        }
    )
    await send({"type": "http.response.body", "body": body})
