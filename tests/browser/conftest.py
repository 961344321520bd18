"""Playwright (sync API) on Debian's chromium, against the site served over ASGI in the test
process (tests/asgi_server.py).

The downloaded browsers of `playwright install` do not run here; CI installs Debian's
chromium (.ci/run). Without it the browser tests are skipped, except in CI where they fail.
"""

import os
import shutil
import threading
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings
from django.db import connections
from django.utils import translation
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from core import tasks as core_tasks
from play.management.commands import play_worker as play_worker_command
from tests.asgi_server import AsgiLiveServer
from tests.browser.helpers import (
    CHROMIUM_ARGS,
    EXPECTED_CONSOLE_ERRORS,
    EXPECTED_FAILURES,
    new_context,
)
from tests.factories import tasks_worker


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = shutil.which("chromium")
    if path is None:
        reason = "Debian's chromium is not on PATH (apt-get install chromium; .ci/run does it)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)
    return path


@pytest.fixture(scope="session")
def live_server(django_db_setup) -> Iterator[AsgiLiveServer]:
    """The site over ASGI, as production serves it (tests/asgi_server.py): the live pages'
    event streams need it. pytest-django's helper gives each test using it transactional
    database access, as with its own live server."""
    server = AsgiLiveServer()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def play_worker(request: pytest.FixtureRequest) -> Iterator[None]:
    """Beside the live server, the play worker and the tasks' worker, as `make run` starts
    them: bots move, timers run out and rounds are dealt with nobody looking, and the tasks
    (notifications, the coach's reviews) run (each in a thread of the test process, on the
    test database; stopped before the database is emptied)."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")
    stopping = threading.Event()

    def work() -> None:
        try:
            play_worker_command.run(stopping)
        finally:
            connections.close_all()

    tasks = tasks_worker("browser-tests", batch=False, interval=0.1)

    def run_tasks() -> None:
        try:
            core_tasks.schedule()
            tasks.run()
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=work, name="play-worker", daemon=True),
        threading.Thread(target=run_tasks, name="tasks-worker", daemon=True),
    ]
    for thread in threads:
        thread.start()
    yield
    stopping.set()
    tasks.running = False
    for thread in threads:
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Browser]:
    # While Playwright's sync API runs, an asyncio event loop is registered as running in
    # this thread, so Django refuses every synchronous database query (the tests', the
    # flush of transactional_db) with SynchronousOnlyOperation. Allowing it is the
    # documented workaround for Playwright with pytest-django. It is set for exactly as
    # long as Playwright runs (one test module), so the rest of the suite keeps the check.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def language() -> str:
    """English, unless a test runs `in_russian` or `in_both_languages` (most of our players
    read Russian: the main stories run in both). The browser's `navigator.language` and the
    Accept-Language of every request follow it, and so does the site."""
    return "en"


@pytest.fixture
def t(language: str) -> Callable[..., str]:
    """A message as the site shows it in the browser's language: `t("Round %(number)s saved.",
    number=1)`; `context=` for a message with a context, `plural=` and `count=` for a
    counted one."""

    def translate(
        message: str,
        context: str | None = None,
        plural: str | None = None,
        count: int | None = None,
        **values,
    ) -> str:
        with translation.override(language):
            if plural is not None:
                text = translation.ngettext(message, plural, count)
            elif context:
                text = translation.pgettext(context, message)
            else:
                text = translation.gettext(message)
        if "%%" in message:  # a {% translate %} tag's message: its % are doubled
            text = text.replace("%%", "%")
        return text % values if values else text

    return translate


@pytest.fixture
def context(browser: Browser, live_server, language: str) -> Iterator[BrowserContext]:
    context = new_context(browser, live_server, language)
    yield context
    context.close()


@pytest.fixture
def problems(context: BrowserContext) -> list[str]:
    """What a developer would see in the browser's console: script errors (Content
    Security Policy violations included) and failed requests (a missing htmx or site.js)."""
    found: list[str] = []

    def on_page(page: Page) -> None:
        page.on("pageerror", lambda error: found.append(f"page error: {error}"))
        page.on(
            "console",
            lambda message: (
                message.type == "error"
                and message.text not in EXPECTED_CONSOLE_ERRORS
                and found.append(f"console: {message.text}")
            ),
        )
        page.on(
            "response",
            lambda response: (
                response.status >= 400
                and found.append(f"{response.status} {response.request.method} {response.url}")
            ),
        )
        # A live preview replaced by a newer one is aborted on purpose (hx-sync replace), and
        # a request made while a test has cut the network (cut_network) fails as it should:
        # the outbox tries to send when it can, and keeps the round if it cannot.
        page.on(
            "requestfailed",
            lambda request: (
                request.failure not in EXPECTED_FAILURES
                and found.append(f"failed: {request.url} {request.failure}")
            ),
        )

    context.on("page", on_page)
    return found


@pytest.fixture
def page(context: BrowserContext, problems: list[str]) -> Page:
    return context.new_page()


@pytest.fixture
def log_in(context: BrowserContext, client, live_server):
    """Log an account in by giving the browser a session cookie (for tests not about
    signing up)."""

    def log_in(user) -> None:
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])

    return log_in
