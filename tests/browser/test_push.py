"""Web push in a real browser. Debian's chromium reaches no push service, so a push is handed
to the service worker through Chromium's DevTools protocol (as its DevTools' "Push" button
does), and the panel's script is driven with the browser's PushManager standing in for the
push service (it answers with a made-up subscription); the posts reach the site."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from playwright.sync_api import BrowserContext, Page, expect

from notify.management.commands.vapid_keys import new_key_pair
from notify.models import PushSubscription
from tests.browser.helpers import in_both_languages
from tests.browser.test_accessibility import AXE, violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PUBLIC, PRIVATE = new_key_pair()
KEYS = {
    "VAPID_PUBLIC_KEY": PUBLIC,
    "VAPID_PRIVATE_KEY": PRIVATE,
    "VAPID_SUBJECT": "mailto:director@example.org",
}


def worker_ready(page: Page) -> None:
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def shown(page: Page) -> list[dict]:
    return page.evaluate(
        """navigator.serviceWorker.ready
          .then((registration) => registration.getNotifications())
          .then((all) => all.map((n) => ({title: n.title, body: n.body, tag: n.tag,
                                          url: n.data.url, icon: n.icon})))"""
    )


def test_the_service_worker_shows_a_push_with_its_title_text_and_page(
    context: BrowserContext, page: Page, problems: list[str], live_server
):
    context.grant_permissions(["notifications"], origin=live_server.url)
    page.goto("/")
    worker_ready(page)
    devtools = context.new_cdp_session(page)
    registrations: list[str] = []
    devtools.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(r["registrationId"] for r in event["registrations"]),
    )
    devtools.send("ServiceWorker.enable")
    page.wait_for_function("true")  # the registrations come as an event
    assert registrations
    message = {
        "title": "Ваш ход",
        "body": "Стол 12: ваш ход.",
        "url": f"{live_server.url}/play/12/",
        "tag": "table:12:move:40",
    }
    devtools.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_server.url,
            "registrationId": registrations[0],
            "data": json.dumps(message, ensure_ascii=False),
        },
    )
    for _wait in range(50):
        if notifications := shown(page):
            break
        page.wait_for_timeout(100)
    [notification] = notifications
    assert {key: notification[key] for key in message} == message
    assert notification["icon"].endswith("/static/img/icon-192.png")
    assert problems == []


# The browser's push service, standing in: subscribe() gives a subscription at a made-up
# address, kept until unsubscribe() (over reloads, as a browser keeps its own).
PUSH_SERVICE = """(() => {
  if (!("PushManager" in self)) return;
  const KEPT = "test:push-subscription";
  const made = (options) => ({
    endpoint: "https://push.example.org/send/" + "abc123",
    options,
    toJSON() {
      return { endpoint: this.endpoint, expirationTime: null,
               keys: { p256dh: "%(p256dh)s", auth: "%(auth)s" } };
    },
    unsubscribe() { localStorage.removeItem(KEPT); return Promise.resolve(true); },
  });
  PushManager.prototype.subscribe = function (options) {
    localStorage.setItem(KEPT, "1");
    return Promise.resolve(made(options));
  };
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(localStorage.getItem(KEPT) ? made({}) : null);
  };
})();"""
# A browser's keys as browsers make them (a P-256 point and 16 bytes), made up.
P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"


@in_both_languages
def test_a_person_turns_notifications_on_and_off_in_this_browser(
    context: BrowserContext, page: Page, problems: list[str], live_server, alice, log_in, t
):
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(PUSH_SERVICE % {"p256dh": P256DH, "auth": AUTH})
    context.add_init_script(path=AXE)
    log_in(alice)
    with override_settings(**KEYS):
        page.goto("/notifications/")
        worker_ready(page)
        on = page.get_by_role("button", name=t("Turn on notifications in this browser"))
        off = page.get_by_role("button", name=t("Turn off in this browser"))
        expect(on).to_be_visible()
        expect(off).to_be_hidden()
        assert violations(page, "/notifications/") == []

        on.click()
        expect(page.locator("[data-push-state]")).to_have_text(
            t("Notifications are on in this browser.")
        )
        expect(off).to_be_focused()
        kept = PushSubscription.objects.get()
        assert (kept.user, kept.endpoint, kept.p256dh, kept.auth) == (
            alice,
            "https://push.example.org/send/abc123",
            P256DH,
            AUTH,
        )
        # Back on the page, the browser is shown as on: the site knows it as alice's.
        page.reload()
        expect(off).to_be_visible()
        expect(page.get_by_role("button", name=t("Turn off in every browser"))).to_be_visible()
        assert violations(page, "/notifications/") == []

        off.click()
        expect(page.locator("[data-push-state]")).to_have_text(
            t("Notifications are off in this browser.")
        )
        expect(on).to_be_focused()
        assert not PushSubscription.objects.exists()
    assert problems == []


def test_without_keys_the_panel_says_push_is_not_set_up(
    context: BrowserContext, page: Page, problems: list[str], live_server, alice, log_in
):
    log_in(alice)
    page.goto("/notifications/")
    expect(page.locator(".push-panel")).to_contain_text(
        "Notifications in the browser are not set up on this site."
    )
    expect(page.get_by_role("button", name="Turn on notifications in this browser")).to_have_count(
        0
    )
    assert problems == []
