"""The Notifications page: the switches by kind and channel, quiet hours, the linked
channels, a test message, what was sent lately; and the e-mails' one-click unsubscribe."""

import re

import pytest
from django.core import mail
from django.test import Client

from notify import kinds, preferences, services, tokens
from notify.models import Delivery, Settings
from tests.factories import confirmed_email, linked_telegram, run_tasks

pytestmark = pytest.mark.django_db


def test_the_page_shows_the_switches_with_the_defaults_and_saves_them(alice, client):
    client.force_login(alice)
    page = client.get("/notifications/", headers={"Accept-Language": "en"}).content.decode()
    assert "<h1>Notifications</h1>" in page
    assert 'name="your_move__email" id="id_your_move__email" checked' in page
    # A club without Telegram is told of its rounds to confirm by e-mail too.
    assert 'name="to_confirm__email" id="id_to_confirm__email" checked' in page
    response = client.post(
        "/notifications/",
        {"your_table__email": "on", "quiet_from": "22:00", "quiet_until": "08:00"},
    )
    assert response.status_code == 302
    prefs = Settings.objects.get(user=alice)
    assert preferences.channels_for(prefs, "your_move") == []
    assert preferences.channels_for(prefs, "your_table") == ["email"]
    assert str(prefs.quiet_from) == "22:00:00"


def test_quiet_hours_need_both_ends_and_a_real_time_zone(alice, client):
    client.force_login(alice)
    page = client.post(
        "/notifications/",
        {"quiet_from": "22:00", "time_zone": "Mars/Olympus"},
        headers={"Accept-Language": "en"},
    ).content.decode()
    assert "Quiet hours need a start and an end." in page
    assert "Select a valid choice. Mars/Olympus is not one of the available choices." in page
    assert preferences.settings_of(alice).quiet_from is None


def test_after_an_error_the_keyboard_lands_on_the_field_to_put_right(alice, client):
    client.force_login(alice)
    page = client.post("/notifications/", {"time_zone": "Самара"}).content.decode()
    assert re.search(r'<select name="time_zone"[^>]*aria-invalid="true"[^>]*autofocus', page)
    page = client.post("/notifications/", {"quiet_from": "22:00"}).content.decode()
    assert re.search(r'<input type="time" name="quiet_until"[^>]*autofocus', page)
    assert page.count("autofocus") == 1


def test_samara_is_found_in_the_list_by_its_russian_name_and_saved(alice, client):
    client.force_login(alice)
    page = client.get("/notifications/", headers={"Accept-Language": "ru"}).content.decode()
    # A list, not a field to type IANA names in: «Самара» is there, named as people say it.
    assert '<select name="time_zone"' in page
    assert '<option value="Europe/Samara">Самара (UTC+4)</option>' in page
    client.post("/notifications/", {"time_zone": "Europe/Samara"})
    assert preferences.settings_of(alice).time_zone == "Europe/Samara"


def test_every_time_is_shown_in_the_readers_zone(alice, client, settings):
    """A time on a page: the account's zone, else the browser's (its `tz` cookie), else the
    site's (UTC here)."""
    import datetime

    from django.utils import timezone

    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    confirmed_email(alice)
    client.force_login(alice)
    client.post("/notifications/test/")
    run_tasks()
    sent = datetime.datetime(2026, 12, 1, 21, 33, tzinfo=datetime.UTC)
    Delivery.objects.update(sent_at=sent)
    url = "/notifications/"

    def shown() -> str:
        return client.get(url, headers={"Accept-Language": "ru"}).content.decode()

    assert "21:33" in shown()
    client.cookies["tz"] = "Asia/Vladivostok"  # the browser's: UTC+10
    assert "07:33" in shown()
    client.post("/notifications/", {"time_zone": "Europe/Samara"})  # the account's: UTC+4
    assert "01:33" in shown()
    # Next time she logs in, on another phone, still the account's.
    client.logout()
    other = Client()
    other.post("/accounts/login/", {"login": "alice", "password": "alice-password"})
    assert "01:33" in other.get(url, headers={"Accept-Language": "ru"}).content.decode()
    assert timezone.get_current_timezone_name() == "UTC"


def test_the_page_is_in_russian_too(alice, client):
    client.force_login(alice)
    page = client.get("/notifications/", headers={"Accept-Language": "ru"}).content.decode()
    assert "<h1>Уведомления</h1>" in page
    assert "Тихие часы" in page


def test_the_test_message_goes_to_each_linked_channel(alice, client):
    confirmed_email(alice)
    client.force_login(alice)
    client.post("/notifications/test/")
    run_tasks()
    [message] = mail.outbox
    assert message.to == ["alice@example.com"]
    page = client.get("/notifications/", headers={"Accept-Language": "en"}).content.decode()
    assert "Test message" in page and "sent" in page
    # What was sent links to what it was about.
    assert '<a href="/notifications/">Test message</a>' in page


@pytest.mark.parametrize(
    "language, warned, panel",
    [
        ("en", "No test message goes to alice@example.com until you confirm it is yours",
         "not confirmed yet: confirm it"),
        ("ru", "Проверочное сообщение не придёт на alice@example.com, пока вы не подтвердите",
         "ещё не подтверждён: подтвердить"),
    ],
)  # fmt: skip
def test_no_test_message_goes_to_an_address_not_confirmed(alice, client, language, warned, panel):
    """Anyone may sign up with someone else's address and press the button again and again:
    the test message waits for the address to be confirmed."""
    client.force_login(alice)
    page = client.get("/notifications/", headers={"Accept-Language": language})
    assert panel in page.content.decode()
    response = client.post(
        "/notifications/test/", headers={"Accept-Language": language}, follow=True
    )
    assert warned in response.content.decode()
    run_tasks()
    assert mail.outbox == []
    assert not Delivery.objects.filter(channel="email").exists()
    confirmed_email(alice)
    assert (
        panel
        not in client.get("/notifications/", headers={"Accept-Language": language}).content.decode()
    )
    client.post("/notifications/test/")
    run_tasks()
    assert [message.to for message in mail.outbox] == [["alice@example.com"]]


def test_someone_signed_out_is_sent_to_log_in(client):
    assert client.get("/notifications/").status_code == 302


def test_the_unsubscribe_link_asks_first_then_switches_that_kind_off(alice):
    token = tokens.unsubscribe_token(alice.pk, ["your_move"])
    browser = Client(enforce_csrf_checks=True)
    page = browser.get(f"/notifications/unsubscribe/{token}/", headers={"Accept-Language": "en"})
    assert "Stop sending Your move by E-mail?" in page.content.decode()
    assert preferences.is_on(preferences.settings_of(alice), "your_move", "email")
    # A mail program's one-click POST: no cookie, no CSRF token, no login.
    done = browser.post(
        f"/notifications/unsubscribe/{token}/",
        {"List-Unsubscribe": "One-Click"},
        headers={"Accept-Language": "en"},
    )
    assert done.status_code == 200
    prefs = preferences.settings_of(alice)
    assert not preferences.is_on(prefs, "your_move", "email")
    assert preferences.is_on(prefs, "your_table", "email")


def test_a_forged_unsubscribe_token_finds_nothing(alice):
    token = tokens.unsubscribe_token(alice.pk, ["your_move"])
    assert Client().post(f"/notifications/unsubscribe/{token[:-2]}xx/").status_code == 404


def test_an_account_without_an_address_gets_no_mail_delivery(alice):
    alice.email = ""
    alice.save()
    services.tell(user=alice, told=kinds.YourMove(table_id=1))
    assert not Delivery.objects.exists()


@pytest.mark.parametrize(
    "language, link, linked, off",
    [
        ("en", "Link Telegram", "Unlink Telegram", "Telegram is not set up on this site."),
        ("ru", "Привязать Telegram", "Отвязать Telegram", "Telegram на этом сайте не настроен."),
    ],
)
def test_the_page_offers_to_link_telegram_where_it_is_set_up(
    alice, client, settings, language, link, linked, off
):
    settings.TELEGRAM_BOT_TOKEN = "123456:TEST-token"
    settings.TELEGRAM_BOT_USERNAME = "sto_odno_test_bot"
    client.force_login(alice)
    page = client.get("/notifications/", headers={"Accept-Language": language}).content.decode()
    assert link in page and "@sto_odno_test_bot" in page
    assert off not in page and linked not in page
    assert 'action="/notifications/telegram/link/"' in page

    linked_telegram(alice, 5550001)
    page = client.get("/notifications/", headers={"Accept-Language": language}).content.decode()
    assert linked in page and link not in page and off not in page

    settings.TELEGRAM_BOT_TOKEN = ""
    page = client.get("/notifications/", headers={"Accept-Language": language}).content.decode()
    assert off in page and link not in page and linked not in page


def test_the_page_lets_its_telegram_button_lead_to_telegram(alice, client):
    client.force_login(alice)
    policy = client.get("/notifications/").headers["Content-Security-Policy"]
    [form_action] = [part for part in policy.split(";") if "form-action" in part]
    assert form_action.split() == ["form-action", "'self'", "https://t.me"]
    # Other pages keep the site's own.
    assert "form-action 'self';" in client.get("/").headers["Content-Security-Policy"] + ";"


def test_the_page_shows_the_address_mail_goes_to(alice, client):
    client.force_login(alice)
    page = client.get("/notifications/", headers={"Accept-Language": "en"}).content.decode()
    assert "alice@example.com" in page


def test_what_was_sent_lately_links_to_what_it_was_about(alice, client):
    services.tell(
        user=alice,
        told=kinds.YourMove(table_id=12, moves_made=3, name="Вечерний стол", path="/play/12/"),
    )
    client.force_login(alice)
    page = client.get("/notifications/", headers={"Accept-Language": "ru"}).content.decode()
    assert '<a href="/play/12/">Ваш ход: Вечерний стол</a>' in page


def test_with_no_zone_chosen_messages_follow_the_zone_her_browser_logged_in_from(alice, client):
    """alice never picked a zone ("as in this browser"): the worker, which sees no browser,
    keeps her quiet hours and writes her messages' times in the zone her browser said at her
    last login or save (Samara, UTC+4), not in the site's (UTC)."""
    import datetime

    Settings.objects.create(
        user=alice, quiet_from=datetime.time(22, 0), quiet_until=datetime.time(8, 0)
    )
    browser = Client()
    browser.cookies["tz"] = "Europe/Samara"
    browser.post("/accounts/login/", {"login": "alice", "password": "alice-password"})
    prefs = preferences.settings_of(alice)
    assert prefs.time_zone == ""  # still her choice: as in this browser
    assert preferences.zone_of(prefs).key == "Europe/Samara"
    evening = datetime.datetime(2026, 12, 1, 19, 0, tzinfo=datetime.UTC)  # 23:00 in Samara
    assert preferences.quiet_until(prefs, evening) == datetime.datetime(
        2026,
        12,
        2,
        4,
        0,
        tzinfo=datetime.UTC,  # 08:00 in Samara
    )
    # Another browser, on a trip, and a save of the page: the zone it says.
    browser.cookies["tz"] = "Asia/Vladivostok"
    browser.post("/notifications/", {"time_zone": ""})
    assert preferences.zone_of(preferences.settings_of(alice)).key == "Asia/Vladivostok"
    # A cookie that names no zone changes nothing.
    browser.cookies["tz"] = "Mars/Olympus"
    browser.post("/notifications/", {"time_zone": ""})
    assert preferences.zone_of(preferences.settings_of(alice)).key == "Asia/Vladivostok"
