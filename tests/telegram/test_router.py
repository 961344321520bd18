"""The bot's router (telegram.router) through the webhook, as Telegram posts: an update taken
once however often it comes, commands routed by name, bot and kind of chat, taps and inline
queries answered, and what updates show of people and chats kept: identities by Telegram user
id, who is in a group, the bot's own place, a group's move to a supergroup."""

import json

import pytest
from django.db import OperationalError
from django.urls import reverse

from notify.models import TelegramLink
from telegram import queries, router, services
from telegram.models import Chat, Identity, Member, TakenUpdate
from telegram.router import Route
from tests.factories import linked_telegram, run_tasks
from tests.fake_telegram import BOT, SECRET, member_update, serving, update

pytestmark = pytest.mark.django_db

GROUP = -4001
ALICE, BOB = 5550001, 5550002


@pytest.fixture
def api(settings, monkeypatch):
    with serving(settings, monkeypatch) as server:
        yield server


@pytest.fixture
def heard(monkeypatch):
    """A /deal command for groups and a "seat:" tap, registered as an app above would: what
    they heard."""
    calls = []

    def deal(heard):
        calls.append(("deal", heard))
        heard.reply(f"Сдаю, {heard.identity.first_name}")

    def seat(heard):
        calls.append(("seat", heard))

    monkeypatch.setitem(router.COMMANDS, "deal", [Route(deal, frozenset({"group", "supergroup"}))])
    monkeypatch.setitem(router.TAPS, "seat", seat)
    return calls


def post(client, body) -> int:
    response = client.post(
        reverse("telegram:webhook", kwargs={"secret": SECRET}),
        data=json.dumps(body),
        content_type="application/json",
        headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
    )
    return response.status_code


def in_group(text: str, *, number: int, sender: int = ALICE, **fields) -> dict:
    body = update(GROUP, text, number=number, chat_type="group", sender=sender)
    body["message"].update(fields)
    return body


def test_an_update_given_again_is_taken_once(api, client, heard):
    body = in_group("/deal", number=10)
    assert post(client, body) == 200
    assert post(client, body) == 200
    assert [name for name, _heard in heard] == ["deal"]
    run_tasks()
    [reply] = api.sent()
    assert int(reply["chat_id"]) == GROUP and reply["text"] == "Сдаю, A"
    assert TakenUpdate.objects.filter(update_id=10).exists()


def test_commands_go_by_name_bot_and_kind_of_chat(api, client, heard):
    post(client, in_group(f"/deal@{BOT.upper()}", number=1))
    post(client, in_group("/deal@another_bot", number=2))  # the other bot's
    post(client, update(ALICE, "/deal", number=3))  # /deal is for groups only
    post(client, in_group("/unknown", number=4))
    assert [name for name, _heard in heard] == ["deal"]
    [(_name, first)] = heard
    assert first.chat.chat_id == GROUP and first.identity.telegram_id == ALICE
    assert first.command.name == "deal" and first.language == "en"


def test_people_are_known_by_their_telegram_id_and_seen_in_their_groups(api, client, heard):
    post(client, in_group("/deal", number=1))
    post(client, in_group("/deal", number=2, sender=BOB))
    post(client, update(ALICE, "hello", number=3, language="ru"))
    alice = Identity.objects.get(telegram_id=ALICE)
    assert alice.language_code == "ru" and alice.first_name == "A"
    assert Identity.objects.count() == 2
    group = Chat.objects.get(chat_id=GROUP)
    assert group.kind == "group" and group.title == "The club"
    assert set(group.members.values_list("identity__telegram_id", flat=True)) == {ALICE, BOB}
    # alice's chats: her private one, and the group.
    assert Chat.objects.get(chat_id=ALICE).kind == "private"
    assert Member.objects.filter(identity=alice).count() == 1
    left = {"id": BOB, "is_bot": False, "first_name": "B"}
    post(client, in_group("", number=4, left_chat_member=left))
    assert list(group.members.values_list("identity__telegram_id", flat=True)) == [ALICE]


def test_a_tap_goes_to_its_handler_and_any_other_is_answered(api, client, heard):
    person = {"id": ALICE, "is_bot": False, "first_name": "A"}
    message = in_group("…", number=1)["message"]
    tap = {"id": "t1", "from": person, "data": "seat:2", "message": message}
    post(client, {"update_id": 5, "callback_query": tap})
    post(client, {"update_id": 6, "callback_query": tap | {"id": "t2", "data": "other:1"}})
    assert [name for name, _heard in heard] == ["seat"]
    inline = {"id": "i1", "from": person, "query": "стол"}
    post(client, {"update_id": 7, "inline_query": inline})
    run_tasks()
    assert [params["callback_query_id"] for params in api.called("answerCallbackQuery")] == ["t2"]
    [answered] = api.called("answerInlineQuery")
    assert answered["inline_query_id"] == "i1" and answered["results"] == []


def test_the_bot_removed_from_a_group_and_added_back(api, client):
    chat = {"id": GROUP, "type": "group", "title": "Клуб"}
    post(client, member_update(1, chat, "member"))
    assert Chat.objects.get(chat_id=GROUP).bot_is_member
    post(client, member_update(2, chat, "left"))
    assert not Chat.objects.get(chat_id=GROUP).bot_is_member
    post(client, member_update(3, chat, "administrator"))
    assert Chat.objects.get(chat_id=GROUP).bot_is_member


def test_a_group_become_a_supergroup_keeps_its_row_and_what_is_tied_to_it(api, client, alice):
    linked_telegram(alice, GROUP)  # anything tied to the chat's row
    post(client, in_group("/x", number=1))
    row = Chat.objects.get(chat_id=GROUP)
    post(client, in_group("", number=2, migrate_to_chat_id=-1009999))
    supergroup = {"id": -1009999, "type": "supergroup", "title": "The club"}
    said_there = update(-1009999, "", number=3, chat_type="supergroup", sender=ALICE)
    said_there["message"].update(chat=supergroup, migrate_from_chat_id=GROUP)
    post(client, said_there)
    moved = Chat.objects.get(pk=row.pk)
    assert moved.chat_id == -1009999 and moved.kind == "supergroup"
    assert not Chat.objects.filter(chat_id=GROUP).exists()
    assert TelegramLink.objects.get(user=alice).chat == moved
    assert moved.members.filter(identity__telegram_id=ALICE).exists()


def test_a_supergroup_seen_before_its_move_is_merged_into_the_group(api, client, heard):
    post(client, in_group("/deal", number=1))
    supergroup = {"id": -1009999, "type": "supergroup", "title": "The club"}
    early = update(-1009999, "/deal", number=2, chat_type="supergroup", sender=BOB)
    early["message"]["chat"] = supergroup
    post(client, early)
    post(client, in_group("", number=3, migrate_to_chat_id=-1009999))
    [chat] = Chat.objects.filter(chat_id__in=[GROUP, -1009999])
    assert chat.chat_id == -1009999
    assert set(chat.members.values_list("identity__telegram_id", flat=True)) == {ALICE, BOB}


def test_a_handler_that_fails_takes_the_update_and_keeps_nothing_of_it(
    api, client, monkeypatch, caplog
):
    def broken(heard):
        heard.reply("half")
        raise ValueError("a bug")

    monkeypatch.setitem(router.COMMANDS, "deal", [Route(broken, frozenset({"group"}))])
    assert post(client, in_group("/deal", number=8)) == 200  # not given again and again
    assert TakenUpdate.objects.filter(update_id=8).exists()
    run_tasks()
    assert api.sent() == []  # what it said went with the rest
    assert "update 8 not answered" in caplog.text


def test_the_database_away_is_503_and_the_update_is_not_taken(api, client, monkeypatch):
    def away(heard):
        raise OperationalError("the database is away")

    monkeypatch.setitem(router.COMMANDS, "deal", [Route(away, frozenset({"group"}))])
    client.raise_request_exception = False
    assert post(client, in_group("/deal", number=9)) == 503  # Telegram posts it again
    assert not TakenUpdate.objects.filter(update_id=9).exists()


def test_an_accounts_chats_are_its_private_chat_and_its_groups(api, client, heard, alice):
    post(client, in_group("/deal", number=1))
    post(client, update(ALICE, "hello", number=2))
    other = update(-4002, "/deal", number=3, chat_type="group", sender=BOB)
    post(client, other)
    assert list(queries.chats_of(alice)) == []  # her Telegram is not hers on the site yet
    services.claim(Identity.objects.get(telegram_id=ALICE), alice)
    assert [chat.chat_id for chat in queries.chats_of(alice)] == [GROUP, ALICE]
    post(client, member_update(4, {"id": GROUP, "type": "group", "title": "Клуб"}, "kicked"))
    assert [chat.chat_id for chat in queries.chats_of(alice)] == [ALICE]
    assert queries.identity_of(alice).telegram_id == ALICE
