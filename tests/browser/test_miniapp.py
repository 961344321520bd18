"""The site as Telegram's Mini App in a real browser: the page opens as Telegram opens it (the
initData, the version, the platform and the theme after the "#", which Telegram's own script,
vendored, reads), signs the person in, and lands on the page of the link's start parameter in
their Telegram language, in Telegram's dark theme, readable, with no console error and no
Content Security Policy violation. The initData is signed with the tests' token, never by
Telegram; Telegram's servers are never asked for anything."""

from __future__ import annotations

import json
import threading
import time
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from playwright.sync_api import BrowserContext, Page, expect

from telegram.models import Identity
from tests.browser.helpers import in_both_languages
from tests.browser.test_accessibility import AXE, violations
from tests.fake_telegram import BOT, TOKEN, FakeBotApi, init_data, login_widget_result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
ANNA = {"id": 7001, "first_name": "Анна", "username": "anna_k", "language_code": "ru"}
# Telegram's own dark theme (Telegram Desktop's "Night").
DARK = {
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
}


@pytest.fixture
def bot_api():
    server = FakeBotApi()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with override_settings(
        TELEGRAM_API_URL=server.url, TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_BOT_USERNAME=BOT
    ):
        yield server
    server.shutdown()
    server.server_close()


# Telegram's app as the page's script talks to it: each event the page posts, recorded.
TELEGRAMS_APP = """window.posted = [];
window.TelegramWebviewProxy = {
  postEvent: (type, data) => window.posted.push([type, data ? JSON.parse(data) : null]),
};"""
BACK_BUTTON_SHOWN = """() => window.posted
  .filter(([type]) => type === "web_app_setup_back_button").map(([, data]) => data.is_visible)
  .pop()"""


def opened_from_telegram(raw: str, theme: dict) -> str:
    return (
        f"/telegram/app/#tgWebAppData={quote(raw, safe='')}&tgWebAppVersion=7.10"
        f"&tgWebAppPlatform=web&tgWebAppThemeParams={quote(json.dumps(theme), safe='')}"
    )


def test_anna_opens_the_mini_app_and_lands_signed_in_on_the_linked_sheet_in_russian_and_dark(
    context: BrowserContext, page: Page, problems: list[str], bot_api, match
):
    context.add_init_script(path=AXE)
    context.add_init_script(TELEGRAMS_APP)
    page.set_viewport_size(PHONE)
    raw = init_data(ANNA, auth_date=int(time.time()) - 5, start_param=f"m{match.pk}")
    # Nothing is asked of Telegram's servers: its script is the site's own copy.
    asked_telegram: list[str] = []
    page.on(
        "request",
        lambda request: "telegram.org" in request.url and asked_telegram.append(request.url),
    )

    page.goto(opened_from_telegram(raw, DARK))
    page.wait_for_url(f"**/matches/{match.pk}/")

    root = page.locator("html")
    expect(root).to_have_attribute("lang", "ru")
    expect(root).to_have_class("in-telegram tg-theme tg-dark")
    expect(page.get_by_role("button", name="Выйти")).to_be_attached()
    assert Identity.objects.get(telegram_id=7001).user.username == "anna_k"
    colours = page.evaluate(
        """() => [getComputedStyle(document.documentElement).backgroundColor,
                  getComputedStyle(document.body).color]"""
    )
    assert colours == ["rgb(23, 33, 43)", "rgb(245, 245, 245)"]
    found = violations(page, f"/matches/{match.pk}/ in Telegram's dark theme")
    assert found == [], "\n".join(found)

    # Telegram was told the page is ready, to take the whole screen, and that there is no
    # page to go back to (not to the sign-in).
    told = page.evaluate("() => window.posted.map(([type]) => type)")
    assert "web_app_ready" in told and "web_app_expand" in told
    assert page.evaluate(BACK_BUTTON_SHOWN) is False

    # Another page keeps Telegram's theme (its script keeps what it read in the session), and
    # shows Telegram's back button, which goes back.
    page.goto("/")
    expect(page.locator("html")).to_have_class("in-telegram tg-theme tg-dark")
    found = violations(page, "/ in Telegram's dark theme")
    assert found == [], "\n".join(found)
    assert page.evaluate(BACK_BUTTON_SHOWN) is True
    page.evaluate("() => Telegram.WebView.receiveEvent('back_button_pressed')")
    page.wait_for_url(f"**/matches/{match.pk}/")
    assert asked_telegram == []
    assert problems == []


# Telegram's default light theme, and one whose text could not be read on its background.
LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f1f1f1",
}
UNREADABLE = {"bg_color": "#ffffff", "text_color": "#eeeeee", "secondary_bg_color": "#f1f1f1"}


@pytest.mark.parametrize(
    ("theme", "classes"),
    [(LIGHT, "in-telegram tg-theme"), (UNREADABLE, "in-telegram")],
    ids=["light", "unreadable"],
)
def test_a_light_theme_is_followed_and_an_unreadable_one_is_not(
    context: BrowserContext, page: Page, problems: list[str], bot_api, theme, classes
):
    context.add_init_script(path=AXE)
    page.set_viewport_size(PHONE)
    raw = init_data(ANNA | {"language_code": "en"}, auth_date=int(time.time()) - 5)
    page.goto(opened_from_telegram(raw, theme))
    page.wait_for_url(lambda url: urlsplit(url).path == "/")
    expect(page.locator("html")).to_have_class(classes)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    found = violations(page, "/ in Telegram's theme")
    assert found == [], "\n".join(found)
    assert problems == []


@in_both_languages
def test_outside_telegram_the_page_says_where_to_open_it(
    context: BrowserContext, page: Page, problems: list[str], bot_api, t
):
    page.goto("/telegram/app/")
    expect(page.get_by_role("heading", level=1)).to_have_text(t("Сто одно"))
    where = t(
        "This page is the site inside Telegram: open it from the bot in Telegram, and you "
        "are signed in with your Telegram account."
    )
    expect(page.get_by_text(where)).to_be_visible()
    expect(page.get_by_role("status")).to_be_hidden()
    expect(page.locator("html")).not_to_have_class("in-telegram")
    expect(page.locator("#miniapp-outside").get_by_role("link", name=t("Home"))).to_be_visible()
    assert problems == []


def test_sign_in_with_telegram_on_the_login_page_signs_in_the_mini_apps_account(
    context: BrowserContext, page: Page, problems: list[str], bot_api, client
):
    # Anna began in a chat: the Mini App made her account.
    client.post(
        "/telegram/app/login/", {"init_data": init_data(ANNA, auth_date=int(time.time()) - 5)}
    )
    page.set_viewport_size(PHONE)
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Sign in with Telegram").click()

    # Telegram's login page (unreachable from here; a redirect is not routed by Playwright,
    # so the site's answer sending the browser there is) confirms Anna and sends the browser
    # back with its answer after the "#", signed with the tests' token.
    asked: list[str] = []

    def by_telegrams_login_page(route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        response = route.fetch(max_redirects=0)
        to_telegram = response.headers["location"]
        asked.append(to_telegram)
        back = parse_qs(urlsplit(to_telegram).query)["return_to"][0]
        answer = login_widget_result(
            {"id": 7001, "first_name": "Анна", "username": "anna_k"}, auth_date=int(time.time())
        )
        route.fulfill(
            response=response,
            headers={**response.headers, "location": f"{back}#tgAuthResult={answer}"},
        )

    page.route(
        lambda url: urlsplit(url).path == "/accounts/telegram/login/", by_telegrams_login_page
    )
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url(lambda url: urlsplit(url).path == "/")
    assert asked[0].startswith("https://oauth.telegram.org/auth?")
    assert f"bot_id={TOKEN.split(':')[0]}" in asked[0]
    expect(page.get_by_role("button", name="Log out")).to_have_attribute(
        "title", "Signed in as anna_k"
    )
    assert get_user_model().objects.count() == 1
    assert problems == []


def test_sign_in_with_telegram_is_let_go_to_telegrams_login_page(
    context: BrowserContext, page: Page, problems: list[str], bot_api
):
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Sign in with Telegram").click()

    # Telegram's login page is unreachable from here: the request shows the page's policy
    # (form-action) let the browser go, with the bot's id.
    def to_telegram(request) -> bool:
        return request.url.startswith("https://oauth.telegram.org/auth?")

    with page.expect_request(to_telegram) as went:
        page.get_by_role("button", name="Continue").click()
    page.wait_for_url(lambda url: url.startswith("chrome-error://"))
    assert f"bot_id={TOKEN.split(':')[0]}" in went.value.url
    unreachable = "failed: https://oauth.telegram.org/"
    assert [problem for problem in problems if not problem.startswith(unreachable)] == []
