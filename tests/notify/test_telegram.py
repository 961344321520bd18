"""The Telegram channel (issue 27, point 1): linking a chat by a one-time deep link (/start
<token>, heard by the webhook or by polling), unlinking it (/stop, the button), messages sent
within Telegram's limits and its errors read right. Telegram is not reachable from here: the
tests talk to a fake Bot API, a small HTTP server on 127.0.0.1 (DJANGO_TELEGRAM_API_URL)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone, translation

from notify import services
from notify.channels import CHANNELS, GiveUp, TryLater, telegram
from notify.models import Delivery, Kind, Notification, TelegramLink, TelegramToken
from telegram import bot as telegram_bot
from telegram import polling
from telegram.models import Chat, Identity
from tests.factories import run_tasks
from tests.fake_telegram import BOT, SECRET, FakeBotApi, serving, update

pytestmark = pytest.mark.django_db

ALICE_CHAT, BOB_CHAT = 5550001, 5550002


@pytest.fixture
def api(settings, monkeypatch) -> Iterator[FakeBotApi]:
    with serving(settings, monkeypatch) as server:
        yield server


def said(api: FakeBotApi) -> list[dict]:
    """What the bot has said, once the tasks' worker sent it (its replies are tasks)."""
    run_tasks()
    return api.sent()


def post_update(client, body: dict, *, secret: str = SECRET, header: str = SECRET):
    return client.post(
        reverse("telegram:webhook", kwargs={"secret": secret}),
        data=json.dumps(body),
        content_type="application/json",
        headers={"X-Telegram-Bot-Api-Secret-Token": header},
    )


def deep_link_token(client, *, language: str = "en") -> str:
    """What alice's "Link Telegram" button gives her: the token of the deep link."""
    response = client.post(reverse("notify:telegram_link"), headers={"Accept-Language": language})
    location = response.headers["Location"]
    assert location.startswith(f"https://t.me/{BOT}?start=")
    return location.split("?start=", 1)[1]


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


def notification_for(user) -> Notification:
    return Notification.objects.create(user=user, kind=Kind.TEST, key="test:1")


# --- linking ----------------------------------------------------------------------------------


def test_the_channel_registers_itself_under_its_name():
    assert isinstance(CHANNELS["telegram"], telegram.TelegramChannel)


def test_the_link_button_opens_the_bot_with_a_one_time_token(api, alice_client, alice):
    token = deep_link_token(alice_client)
    assert len(token) >= 32 and set(token) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    )
    stored = TelegramToken.objects.get(user=alice)
    assert stored.digest != token  # only its digest is kept
    assert stored.expires_at > timezone.now() + timedelta(minutes=14)


def test_start_with_the_token_links_the_chat_and_answers_in_the_pages_language(
    api, alice_client, alice, client
):
    token = deep_link_token(alice_client, language="ru")
    response = post_update(client, update(ALICE_CHAT, f"/start {token}", language="en"))
    assert response.status_code == 200
    assert TelegramLink.objects.get(user=alice).chat.chat_id == ALICE_CHAT
    [reply] = said(api)
    assert int(reply["chat_id"]) == ALICE_CHAT
    assert "Готово: этот чат привязан к вашей учётной записи" in reply["text"]
    assert telegram.TelegramChannel().linked(alice)


def test_a_token_links_only_once(api, alice_client, alice, client):
    token = deep_link_token(alice_client)
    post_update(client, update(ALICE_CHAT, f"/start {token}"))
    post_update(client, update(BOB_CHAT, f"/start {token}", number=2))
    assert list(TelegramLink.objects.values_list("chat__chat_id", flat=True)) == [ALICE_CHAT]
    assert "has already been used or has expired" in said(api)[-1]["text"]
    assert int(said(api)[-1]["chat_id"]) == BOB_CHAT


def test_an_expired_token_links_nothing(api, alice_client, client):
    token = deep_link_token(alice_client)
    TelegramToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    post_update(client, update(ALICE_CHAT, f"/start {token}", language="ru"))
    assert not TelegramLink.objects.exists()
    assert "Эта ссылка уже использована или устарела" in said(api)[-1]["text"]


def test_a_wrong_token_links_nothing(api, alice_client, client):
    deep_link_token(alice_client)
    post_update(client, update(ALICE_CHAT, "/start not-the-token"))
    assert not TelegramLink.objects.exists()
    assert TelegramToken.objects.count() == 1  # alice's own link still works


def test_a_new_link_makes_the_earlier_one_worthless(api, alice_client, alice, client):
    first = deep_link_token(alice_client)
    second = deep_link_token(alice_client)
    post_update(client, update(ALICE_CHAT, f"/start {first}"))
    assert not TelegramLink.objects.exists()
    post_update(client, update(ALICE_CHAT, f"/start {second}", number=2))
    assert TelegramLink.objects.get().user == alice


def test_a_chat_linked_again_moves_to_the_new_account(api, alice, bob):
    link_chat(alice, ALICE_CHAT)
    link_chat(bob, ALICE_CHAT)
    assert [link.user for link in TelegramLink.objects.all()] == [bob]


def _token_for(user) -> str:
    return services.new_token(user=user, language="en")


def link_chat(user, chat_id: int = ALICE_CHAT) -> None:
    """`user` links the private chat `chat_id` (as its /start would)."""
    chat, _created = Chat.objects.get_or_create(chat_id=chat_id, defaults={"kind": "private"})
    assert services.link_chat(token=_token_for(user), chat=chat, identity=None)


def test_stop_unlinks_the_chat(api, alice, client):
    link_chat(alice, ALICE_CHAT)
    post_update(client, update(ALICE_CHAT, "/stop", language="ru"))
    assert not TelegramLink.objects.exists()
    assert "Чат отвязан" in said(api)[-1]["text"]
    post_update(client, update(ALICE_CHAT, "/stop", number=2))
    assert "not linked to any account" in said(api)[-1]["text"]


def test_other_words_to_the_bot_get_help_and_group_chats_get_nothing(api, client):
    post_update(client, update(ALICE_CHAT, "hello"))
    assert "To link this chat" in said(api)[-1]["text"]
    group = update(-100123, "/stop", number=2)
    group["message"]["chat"]["type"] = "group"
    post_update(client, group)
    assert len(said(api)) == 1


def test_the_unlink_button_unlinks_and_goes_back(api, alice_client, alice):
    link_chat(alice, ALICE_CHAT)
    unlink = reverse("notify:telegram_unlink")
    response = alice_client.post(unlink, {"next": "/notifications/?tab=1"})
    assert response.status_code == 302 and response.headers["Location"] == "/notifications/?tab=1"
    assert not TelegramLink.objects.exists()
    home = alice_client.get("/")
    assert "Telegram is unlinked: no more notifications go there." in home.content.decode()
    response = alice_client.post(
        reverse("notify:telegram_unlink"), {"next": "https://evil.example/"}
    )
    assert response.headers["Location"] == "/"
    # Not a path: once read as the name of a view (NoReverseMatch, a 500).
    response = alice_client.post(reverse("notify:telegram_unlink"), {"next": "x"})
    assert response.status_code == 302 and response.headers["Location"] == "/"


def test_linking_and_unlinking_need_an_account_and_a_post(api, client):
    assert client.post(reverse("notify:telegram_link")).status_code == 302  # to log in
    assert not TelegramToken.objects.exists()
    assert client.get(reverse("notify:telegram_link")).status_code in (302, 405)


def test_the_webhook_wants_the_secret_in_the_path_and_the_header(api, alice, client):
    token = _token_for(alice)
    body = update(ALICE_CHAT, f"/start {token}")
    assert post_update(client, body, secret="guess").status_code == 404
    assert post_update(client, body, header="guess").status_code == 404
    assert post_update(client, body, header="").status_code == 404
    assert not TelegramLink.objects.exists()
    assert client.get(reverse("telegram:webhook", kwargs={"secret": SECRET})).status_code == 405
    assert post_update(client, body).status_code == 200
    assert TelegramLink.objects.exists()


def test_a_webhook_set_before_the_move_still_posts_to_the_old_address(api, alice, client):
    assert reverse("telegram:webhook", kwargs={"secret": SECRET}) == f"/telegram/webhook/{SECRET}/"
    body = update(ALICE_CHAT, f"/start {_token_for(alice)}")
    old = f"/notifications/telegram/{SECRET}/"
    headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
    assert client.post(old, json.dumps(body), "application/json").status_code == 404
    assert not TelegramLink.objects.exists()
    posted = client.post(old, json.dumps(body), "application/json", headers=headers)
    assert posted.status_code == 200
    assert TelegramLink.objects.get().user == alice


def test_without_a_webhook_secret_the_webhook_is_not_there(api, settings, alice, client):
    settings.TELEGRAM_WEBHOOK_SECRET = ""
    body = update(ALICE_CHAT, f"/start {_token_for(alice)}")
    assert post_update(client, body).status_code == 404
    assert not TelegramLink.objects.exists()


def test_polling_answers_the_updates_and_asks_from_the_next(api, alice):
    api.updates = [update(ALICE_CHAT, f"/start {_token_for(alice)}", number=40)]
    call_command("telegram_poll", "--once")
    assert [method for method, _params in api.calls][:2] == ["deleteWebhook", "getUpdates"]
    assert TelegramLink.objects.get().user == alice
    api.updates.append(update(ALICE_CHAT, "/stop", number=41))
    assert polling.poll(telegram_bot.from_settings(), 41) == 42
    assert not TelegramLink.objects.exists()
    asked = [params for method, params in api.calls if method == "getUpdates"]
    assert asked[-1]["offset"] == 41


def test_a_reply_that_fails_still_links_and_the_update_is_taken(api, alice, client):
    too_many = {"ok": False, "error_code": 429, "description": "Too Many Requests"}
    api.answers["sendMessage"] = [(429, too_many | {"parameters": {"retry_after": 3}})]
    response = post_update(client, update(ALICE_CHAT, f"/start {_token_for(alice)}"))
    assert response.status_code == 200  # Telegram would otherwise send it again
    assert TelegramLink.objects.get().user == alice


def test_polling_with_telegram_away_says_so(api):
    api.answers["deleteWebhook"] = [(502, "<html>Bad Gateway</html>")]
    with pytest.raises(CommandError, match="502"):
        call_command("telegram_poll", "--once")


def test_the_webhook_command_tells_telegram_the_address_and_secret(api):
    call_command("telegram_webhook", "https://101.example.org")
    [(method, params)] = api.calls
    assert method == "setWebhook"
    assert params["url"] == f"https://101.example.org/telegram/webhook/{SECRET}/"
    assert params["secret_token"] == SECRET
    with pytest.raises(CommandError):
        call_command("telegram_webhook", "http://101.example.org")


# --- sending ----------------------------------------------------------------------------------


def linked_alice(alice) -> Notification:
    link_chat(alice, ALICE_CHAT)
    return notification_for(alice)


def test_send_delivers_the_title_the_words_and_the_link(api, alice):
    notification = linked_alice(alice)
    telegram.TelegramChannel().send(
        notification,
        title="Ваш ход <стол 4>",
        text="Стол 4: ход за вами & ждут",
        url="https://101.example.org/play/4/",
    )
    [message] = api.sent()
    assert int(message["chat_id"]) == ALICE_CHAT
    assert message["parse_mode"] == "HTML"
    assert message["text"] == (
        "<b>Ваш ход &lt;стол 4&gt;</b>\n\nСтол 4: ход за вами &amp; ждут\n\n"
        "https://101.example.org/play/4/"
    )
    assert message["link_preview_options"]["is_disabled"] is True


def test_sending_to_someone_with_no_chat_gives_up(api, alice):
    with pytest.raises(GiveUp):
        telegram.TelegramChannel().send(notification_for(alice), title="t", text="x", url="")
    assert api.sent() == []


def test_too_many_requests_is_try_later_after_telegrams_retry_after(api, alice):
    notification = linked_alice(alice)
    api.answers["sendMessage"] = [
        (
            429,
            {
                "ok": False,
                "error_code": 429,
                "description": "Too Many Requests: retry after 7",
                "parameters": {"retry_after": 7},
            },
        )
    ]
    with pytest.raises(TryLater) as raised:
        telegram.TelegramChannel().send(notification, title="t", text="x", url="")
    assert raised.value.after == 7
    assert TelegramLink.objects.exists()


def test_a_blocked_bot_unlinks_the_chat_and_gives_up(api, alice):
    notification = linked_alice(alice)
    blocked = {
        "ok": False,
        "error_code": 403,
        "description": "Forbidden: bot was blocked by the user",
    }
    api.answers["sendMessage"] = [(403, blocked)]
    with pytest.raises(GiveUp, match="blocked"):
        telegram.TelegramChannel().send(notification, title="t", text="x", url="")
    assert not TelegramLink.objects.exists()
    assert not telegram.TelegramChannel().linked(alice)


def test_a_chat_gone_unlinks_it_and_another_bad_request_only_gives_up(api, alice):
    notification = linked_alice(alice)
    bad = {"ok": False, "error_code": 400, "description": "Bad Request: message is too long"}
    api.answers["sendMessage"] = [(400, bad)]
    with pytest.raises(GiveUp):
        telegram.TelegramChannel().send(notification, title="t", text="x", url="")
    assert TelegramLink.objects.exists()
    gone = {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"}
    api.answers["sendMessage"] = [(400, gone)]
    with pytest.raises(GiveUp):
        telegram.TelegramChannel().send(notification, title="t", text="x", url="")
    assert not TelegramLink.objects.exists()


@pytest.mark.parametrize(
    "status, answer",
    [
        (502, "<html>Bad Gateway</html>"),
        (500, {"ok": False, "error_code": 500, "description": "Internal Server Error"}),
    ],
)
def test_telegrams_own_trouble_is_try_later(api, alice, status, answer):
    notification = linked_alice(alice)
    api.answers["sendMessage"] = [(status, answer)]
    with pytest.raises(TryLater):
        telegram.TelegramChannel().send(notification, title="t", text="x", url="")
    assert TelegramLink.objects.exists()


def test_telegram_unreachable_is_try_later(api, settings, alice):
    notification = linked_alice(alice)
    api.shutdown()
    api.server_close()  # nothing listens on its port any more
    with pytest.raises(TryLater, match="unreachable"):
        telegram.TelegramChannel().send(notification, title="t", text="x", url="")


def test_without_a_token_the_channel_is_off(api, settings, alice, alice_client):
    notification = linked_alice(alice)
    settings.TELEGRAM_BOT_TOKEN = ""
    channel = telegram.TelegramChannel()
    assert not channel.linked(alice)
    with pytest.raises(GiveUp):
        channel.send(notification, title="t", text="x", url="")
    assert alice_client.post(reverse("notify:telegram_link")).status_code == 404
    assert api.sent() == []


# --- the panel on the Notifications page --------------------------------------------------------


def panel(user, language: str) -> str:
    request = RequestFactory().get("/notifications/")
    request.user = user
    channel = CHANNELS["telegram"]
    with translation.override(language):
        return render_to_string(channel.panel_template, channel.panel_context(request), request)


@pytest.mark.parametrize(
    "language, link, unlink, off",
    [
        ("en", "Link Telegram", "Unlink Telegram", "Telegram is not set up on this site."),
        ("ru", "Привязать Telegram", "Отвязать Telegram", "Telegram на этом сайте не настроен."),
    ],
)
def test_the_panel_links_unlinks_or_says_it_is_off(
    api, settings, alice, language, link, unlink, off
):
    page = panel(alice, language)
    assert link in page and f"@{BOT}" in page and unlink not in page
    link_chat(alice, ALICE_CHAT)
    page = panel(alice, language)
    assert unlink in page and link not in page
    assert 'name="next" value="/notifications/"' in page
    settings.TELEGRAM_BOT_TOKEN = ""
    page = panel(alice, language)
    assert off in page and link not in page and unlink not in page


# --- through the worker -------------------------------------------------------------------------


def test_a_notification_told_reaches_the_linked_chat_once_through_the_sender(api, alice, settings):
    """What notify tells a person with a linked chat goes out through the worker's sender, to
    that chat, with the site's address; a second pass sends nothing more."""
    settings.SITE_URL = "https://101.example.org"
    link_chat(alice, ALICE_CHAT)
    api.calls.clear()  # the bot's answer to /start
    services.send_test(user=alice)  # the page's button

    assert run_tasks() >= 1
    run_tasks()

    [message] = api.sent()
    assert int(message["chat_id"]) == ALICE_CHAT
    assert "https://101.example.org/" in message["text"]
    assert Delivery.objects.get(channel="telegram").status == Delivery.Status.SENT


def test_polling_carries_on_after_the_database_fails(api, monkeypatch):
    from django.core.management import call_command
    from django.db import OperationalError

    from telegram.management.commands import telegram_poll

    calls = []

    def poll(bot, offset, *, wait):
        calls.append(offset)
        if len(calls) == 1:
            raise OperationalError("the database is away")
        if len(calls) == 2:
            raise polling.DatabaseAway(41, OperationalError("away while answering 41"))
        raise SystemExit  # the test's way to stop the loop

    monkeypatch.setattr(polling, "poll", poll)
    monkeypatch.setattr(telegram_poll.time, "sleep", lambda seconds: None)
    with pytest.raises(SystemExit):
        call_command("telegram_poll", stderr=io.StringIO())
    assert calls == [None, None, 41]  # from the update the database failed at


def test_the_bots_help_links_to_the_site(api, client, settings):
    settings.SITE_URL = "https://101.example"
    post_update(client, update(ALICE_CHAT, "hello", language="ru"))
    [reply] = said(api)
    assert "https://101.example/notifications/" in reply["text"]


def test_a_start_sent_while_the_database_is_away_links_the_chat_once_it_is_back(
    api, alice, monkeypatch
):
    """Polling moved its offset past an update whose answer failed on the database: that
    /start was passed over for good."""
    from django.db import OperationalError

    api.updates = [
        update(ALICE_CHAT, "hello", number=40),
        update(ALICE_CHAT, f"/start {_token_for(alice)}", number=41),
        update(ALICE_CHAT, "/stop", number=42),
    ]
    link_chat = services.link_chat

    def away(**kwargs):
        raise OperationalError("the database is away")

    monkeypatch.setattr(services, "link_chat", away)
    with pytest.raises(polling.DatabaseAway) as stopped:
        polling.poll(telegram_bot.from_settings(), 40)
    assert stopped.value.offset == 41  # asked again from the /start, not after it
    assert not TelegramLink.objects.exists()
    monkeypatch.setattr(services, "link_chat", link_chat)
    api.updates = api.updates[1:2]  # Telegram gives it again
    assert polling.poll(telegram_bot.from_settings(), stopped.value.offset) == 42
    assert TelegramLink.objects.get().user == alice


# --- the telegram app under the channel --------------------------------------------------------


def test_start_makes_the_sender_the_accounts_telegram_identity(api, alice_client, alice, client):
    token = deep_link_token(alice_client)
    post_update(client, update(ALICE_CHAT, f"/start {token}"))
    identity = Identity.objects.get(telegram_id=ALICE_CHAT)
    assert identity.user == alice and identity.first_name == "A"


def test_start_given_twice_by_telegram_links_and_answers_once(api, alice_client, alice, client):
    body = update(ALICE_CHAT, f"/start {deep_link_token(alice_client)}", number=77)
    assert post_update(client, body).status_code == 200
    assert post_update(client, body).status_code == 200  # Telegram saw no answer: again
    assert TelegramLink.objects.get().user == alice
    [reply] = said(api)
    assert "Done: this chat is linked" in reply["text"]


def test_a_person_with_two_telegram_accounts_gets_notifications_in_both(api, alice, bob):
    link_chat(alice, ALICE_CHAT)
    link_chat(alice, BOB_CHAT)
    telegram.TelegramChannel().send(notification_for(alice), title="t", text="x", url="")
    assert sorted(int(message["chat_id"]) for message in api.sent()) == [ALICE_CHAT, BOB_CHAT]
    page = panel(alice, "ru")
    assert "Привязано чатов Telegram: 2." in page


def test_one_chat_failing_after_another_got_it_is_not_tried_again(api, alice):
    link_chat(alice, ALICE_CHAT)
    link_chat(alice, BOB_CHAT)
    too_many = {"ok": False, "error_code": 429, "description": "Too Many Requests"}
    api.answers["sendMessage"] = [(429, too_many | {"parameters": {"retry_after": 3}})]
    telegram.TelegramChannel().send(notification_for(alice), title="t", text="x", url="")
    assert len(api.sent()) == 2  # the first refused, the second delivered: no TryLater


def test_blocking_the_bot_unlinks_the_chat(api, alice, client):
    link_chat(alice, ALICE_CHAT)
    person = {"id": ALICE_CHAT, "is_bot": False, "first_name": "A"}
    bot_user = {"id": 42, "is_bot": True, "first_name": "101"}
    blocked = {
        "update_id": 9,
        "my_chat_member": {
            "chat": {"id": ALICE_CHAT, "type": "private", "first_name": "A"},
            "from": person,
            "date": 0,
            "old_chat_member": {"user": bot_user, "status": "member"},
            "new_chat_member": {"user": bot_user, "status": "kicked"},
        },
    }
    assert post_update(client, blocked).status_code == 200
    assert not TelegramLink.objects.exists()
    assert not telegram.TelegramChannel().linked(alice)
    assert said(api) == []  # nothing said to a chat that blocked the bot
