"""Playwright (sync API) on Debian's chromium, against pytest-django's live server.

The downloaded browsers of `playwright install` do not run here; CI installs Debian's
chromium (.ci/run). Without it the browser tests are skipped, except in CI where they fail.
"""

import os
import shutil
from collections.abc import Iterator

import pytest
from django.conf import settings
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = shutil.which("chromium")
    if path is None:
        reason = "Debian's chromium is not on PATH (apt-get install chromium; .ci/run does it)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)
    return path


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
def locale() -> str:
    """The browser's language: its `navigator.language` and the Accept-Language of every
    request, which the site follows. A test runs in Russian with `in_russian` (or in both
    languages with `in_both_languages`), which parametrize this fixture."""
    return "en-GB"


in_russian = pytest.mark.parametrize("locale", ["ru-RU"], ids=["ru"])
in_both_languages = pytest.mark.parametrize("locale", ["en-GB", "ru-RU"], ids=["en", "ru"])


def new_context(browser: Browser, live_server, locale: str) -> BrowserContext:
    """A browser context of its own (a second person's browser) in `locale`."""
    context = browser.new_context(base_url=live_server.url, locale=locale)
    context.set_default_timeout(5_000)
    return context


@pytest.fixture
def context(browser: Browser, live_server, locale: str) -> Iterator[BrowserContext]:
    context = new_context(browser, live_server, locale)
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
            lambda message: message.type == "error" and found.append(f"console: {message.text}"),
        )
        page.on(
            "response",
            lambda response: (
                response.status >= 400
                and found.append(f"{response.status} {response.request.method} {response.url}")
            ),
        )
        # A live preview replaced by a newer one is aborted on purpose (hx-sync replace).
        page.on(
            "requestfailed",
            lambda request: (
                request.failure != "net::ERR_ABORTED"
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


def cut_network(context: BrowserContext) -> None:
    """The club room's network goes: Chromium's offline emulation (the pages see
    `navigator.onLine` false, no request gets out) and, besides, a route failing every
    request the context still makes as a cut network does. A page opened afterwards is
    offline from its start; a reloaded one may run its scripts before the emulation reaches
    it again, so the tests open a new page rather than reload."""
    context.set_offline(True)
    context.route("**/*", lambda route: route.abort("internetdisconnected"))
    for page in context.pages:
        assert page.evaluate("navigator.onLine") is False


def restore_network(context: BrowserContext) -> None:
    """The network is back. A browser tells its pages with an `online` event; Chromium's
    emulation does not always send one to a page opened while offline, so it is sent here."""
    context.unroute("**/*")
    context.set_offline(False)
    for page in context.pages:
        assert page.evaluate("navigator.onLine") is True
        page.evaluate("window.dispatchEvent(new Event('online'))")
