"""What browser tests import: the languages, the network cut and restored, a page's width."""

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page

from play import services as play
from play.models import PlayTable

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


EXPECTED_FAILURES = {"net::ERR_ABORTED", "net::ERR_INTERNET_DISCONNECTED"}


# What Chromium's console says of a load that failed because the test cut the network.
EXPECTED_CONSOLE_ERRORS = {"Failed to load resource: net::ERR_INTERNET_DISCONNECTED"}


# The browser's language: it sends Accept-Language, and the site answers in it.
BROWSER_LOCALES = {"en": "en-GB", "ru": "ru-RU"}


def new_context(browser: Browser, live_server, language: str) -> BrowserContext:
    """A browser context of its own (a second person's browser) in `language`."""
    context = browser.new_context(base_url=live_server.url, locale=BROWSER_LOCALES[language])
    context.set_default_timeout(5_000)
    context.add_init_script(OFFLINE_FROM_THE_START)
    return context


# While a test has cut the network, every document of the site says it is offline from its
# first script on. Chromium's offline emulation reaches a new document a moment after its
# scripts start (a page opened offline could see `navigator.onLine` true and send), and a
# request a service worker passes on to the network escapes both the emulation and routes.
OFFLINE_FROM_THE_START = """(() => {
  const online = Object.getOwnPropertyDescriptor(Navigator.prototype, "onLine").get;
  Object.defineProperty(Navigator.prototype, "onLine", {
    configurable: true,
    get() {
      try {
        if (localStorage.getItem("test:network-cut") === "1") return false;
      } catch {}  // a document without storage (about:blank)
      return online.call(this);
    },
  });
})();"""


def cut_network(context: BrowserContext) -> None:
    """The club room's network goes: Chromium's offline emulation (the pages see
    `navigator.onLine` false, no request gets out), a route failing every request the
    context still makes as a cut network does, and every document of the site offline from
    its start (OFFLINE_FROM_THE_START). The tests open a new page rather than reload."""
    site = next(page for page in context.pages if page.url.startswith("http"))
    site.evaluate("localStorage.setItem('test:network-cut', '1')")
    context.set_offline(True)
    context.route("**/*", lambda route: route.abort("internetdisconnected"))
    for page in context.pages:
        assert page.evaluate("navigator.onLine") is False


def restore_network(context: BrowserContext) -> None:
    """The network is back. A browser tells its pages with an `online` event; Chromium's
    emulation does not always send one to a page opened while offline, so it is sent here."""
    site = next(page for page in context.pages if page.url.startswith("http"))
    site.evaluate("localStorage.removeItem('test:network-cut')")
    context.unroute("**/*")
    context.set_offline(False)
    for page in context.pages:
        assert page.evaluate("navigator.onLine") is True
        page.evaluate("window.dispatchEvent(new Event('online'))")


# The outermost elements past the right edge of the window, but those a box of their own
# scrolls or clips (a wide table in its scrolling frame) and those taken out of the flow (a
# visually hidden label). Text wider than its box is not an element: wider_than_the_screen
# measures the page for it.
STICKING_OUT = """() => {
  const width = window.innerWidth;
  const held = (element) => {
    for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX !== "visible") return true;
    }
    return false;
  };
  const out = new Set([...document.querySelectorAll("body *")].filter((element) =>
    element.getBoundingClientRect().right > width + 0.5
      && !["absolute", "fixed"].includes(getComputedStyle(element).position)
      && !held(element)));
  return [...out]
    .filter((element) => !out.has(element.parentElement))  // the outermost, not all within
    .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join(".")} `
      + `(${Math.round(element.getBoundingClientRect().right)} px): `
      + (element.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40));
}"""


def wider_than_the_screen(page: Page) -> list[str]:
    """What sticks out past the window's right edge, each with how far it reaches and the
    start of its text; empty when the page is no wider than the screen."""
    found = page.evaluate(STICKING_OUT)
    wide, width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if not found and wide > width:  # something taken out of the flow reaches past the edge
        found = [f"the page is {wide} px wide on a {width} px screen"]
    return found


# The `language` fixture's values (conftest.py): a test in Russian, or in both languages.
in_russian = pytest.mark.parametrize("language", ["ru"])
in_both_languages = pytest.mark.parametrize("language", ["en", "ru"])


def bot_moves(table: PlayTable) -> None:
    """The bot to move moves now: the play worker beside the live server or this test,
    whichever takes the table first (so the test cannot ask which one did)."""
    PlayTable.objects.filter(pk=table.pk).update(server_moves_at=timezone.now())
    play.step(table=table)
