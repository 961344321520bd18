"""Linking Telegram from the Notifications page in a real browser: the button leads the browser
to the bot in Telegram (t.me, unreachable from here: the test sees the browser's request), the
bot hears /start with the link's token (through the webhook, as Telegram posts it), and the page
then shows the chat as linked, with a button to unlink it."""

from __future__ import annotations

import json
import threading

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from notify.models import TelegramLink
from tests.browser.helpers import in_both_languages
from tests.fake_telegram import BOT, SECRET, TOKEN, FakeBotApi, update

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def bot_api():
    server = FakeBotApi()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with override_settings(
        TELEGRAM_API_URL=server.url,
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_BOT_USERNAME=BOT,
        TELEGRAM_WEBHOOK_SECRET=SECRET,
    ):
        yield server
    server.shutdown()
    server.server_close()


@in_both_languages
def test_alice_links_telegram_from_the_notifications_page_on_her_phone(
    context: BrowserContext, page: Page, problems: list[str], bot_api, alice, log_in, t
):
    log_in(alice)
    page.set_viewport_size(PHONE)
    page.goto("/notifications/")
    panel = page.locator(".telegram-panel")
    expect(panel).not_to_contain_text(t("Telegram is not set up on this site."))

    # The browser goes to the bot, with a one-time token to start it with. (A redirect is not
    # routed by Playwright, and t.me is unreachable from here: the request is what shows that
    # the page's own policy let the browser go.)
    def to_telegram(request) -> bool:
        return request.url.startswith("https://t.me/")

    with page.expect_request(to_telegram) as went:
        panel.get_by_role("button", name=t("Link Telegram")).click()
    # Until the browser shows its own page for t.me (unreachable), so that this navigation
    # does not cut short the next one (it did, now and then).
    page.wait_for_url(lambda url: url.startswith("chrome-error://"))
    address = went.value.url
    assert address.startswith(f"https://t.me/{BOT}?start=")
    token = address.split("?start=", 1)[1]
    assert len(token) >= 32

    # In Telegram, alice taps Start: the bot hears it (Telegram posts it to the webhook).
    heard = Client().post(
        reverse("telegram:webhook", kwargs={"secret": SECRET}),
        data=json.dumps(update(5550001, f"/start {token}")),
        content_type="application/json",
        headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
    )
    assert heard.status_code == 200
    assert TelegramLink.objects.get(user=alice).chat.chat_id == 5550001

    page.goto("/notifications/")
    panel = page.locator(".telegram-panel")
    unlink = panel.get_by_role("button", name=t("Unlink Telegram"))
    expect(unlink).to_be_visible()
    unlink.click()
    expect(page.locator(".messages")).to_contain_text(
        t("Telegram is unlinked: no more notifications go there.")
    )
    expect(
        page.locator(".telegram-panel").get_by_role("button", name=t("Link Telegram"))
    ).to_be_visible()
    assert not TelegramLink.objects.exists()
    unreachable = f"failed: {address} net::ERR_NAME_NOT_RESOLVED"
    assert [problem for problem in problems if problem != unreachable] == []
