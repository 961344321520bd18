"""A post the bot keeps up to date (telegram.outbox.post): one message in its chat, sent once
and edited after, whatever comes meanwhile: revisions faster than Telegram, the same words
again, a message someone deleted, Telegram asking the bot to wait."""

import datetime

import pytest
from django.db import transaction
from django.utils import timezone

from telegram import bot, outbox
from telegram.models import Chat, Post
from tests.factories import run_tasks
from tests.fake_telegram import refused, serving

pytestmark = pytest.mark.django_db

GROUP = -4002


@pytest.fixture
def api(settings, monkeypatch):
    with serving(settings, monkeypatch) as server:
        yield server


@pytest.fixture
def chat():
    return Chat.objects.create(chat_id=GROUP, kind=Chat.Kind.GROUP, title="Дача")


def post(chat, html: str, buttons: list | None = None) -> None:
    with transaction.atomic():  # as a service would, in the transaction of its cause
        outbox.post(chat, "journal", html, buttons=buttons)


def later() -> datetime.datetime:
    return timezone.now() + datetime.timedelta(hours=2)


def test_revisions_written_before_the_worker_runs_make_one_message_saying_the_last(api, chat):
    for move in range(1, 4):
        post(chat, f"Ход {move}")
    run_tasks()
    assert [message["text"] for message in api.shown(GROUP)] == ["Ход 3"]
    assert len(api.sent()) == 1


def test_a_post_is_edited_after_it_was_sent_never_sent_again(api, chat):
    button = [[{"text": "Сесть", "callback_data": "join:1"}]]
    post(chat, "Стол: <b>Аня</b>", button)
    run_tasks()
    post(chat, "Стол: <b>Аня</b>, Боря", button)
    run_tasks()
    post(chat, "Сдаю", None)
    run_tasks()
    assert api.shown(GROUP) == [{"text": "Сдаю", "buttons": []}]
    assert len(api.sent()) == 1
    assert [params["text"] for params in api.called("editMessageText")] == [
        "Стол: <b>Аня</b>, Боря",
        "Сдаю",
    ]


def test_the_same_words_again_write_and_send_nothing(api, chat):
    post(chat, "Счёт: 40")
    run_tasks()
    post(chat, "Счёт: 40")
    run_tasks()
    shown = Post.objects.get()
    assert (shown.shown, shown.revision) == (1, 1)
    assert api.called("editMessageText") == []
    assert api.shown(GROUP) == [{"text": "Счёт: 40", "buttons": []}]


def test_an_edit_telegram_finds_unchanged_is_no_error(api, chat):
    post(chat, "Счёт: 40")
    run_tasks()
    post(chat, "Счёт: 41")
    api.messages[GROUP][next(iter(api.messages[GROUP]))]["text"] = "Счёт: 41"  # shown already
    run_tasks()
    shown = Post.objects.get()
    assert (shown.shown, shown.revision) == (2, 2)
    assert len(api.called("editMessageText")) == 1


def test_a_message_someone_deleted_is_sent_anew(api, chat):
    post(chat, "Раунд 1")
    run_tasks()
    api.messages[GROUP].clear()  # an admin deleted it
    post(chat, "Раунд 2")
    run_tasks()
    assert [message["text"] for message in api.shown(GROUP)] == ["Раунд 2"]


def test_telegram_asking_to_wait_is_waited_out_and_the_post_arrives_once(api, chat):
    api.answers["sendMessage"] = [
        (429, refused("Too Many Requests: retry after 3", 429) | {"parameters": {"retry_after": 3}})
    ]
    post(chat, "Стол открыт")
    run_tasks()
    assert api.shown(GROUP) == []
    run_tasks(now=later())
    assert [message["text"] for message in api.shown(GROUP)] == ["Стол открыт"]


def test_a_revision_that_comes_while_telegram_is_answering_is_shown_too(api, chat, monkeypatch):
    post(chat, "Ход 1")
    run_tasks()
    edit = bot.Bot.edit_message_text

    def slow_edit(self, *args, **kwargs):
        monkeypatch.setattr(bot.Bot, "edit_message_text", edit)
        post(chat, "Ход 3")  # a move made while the edit to "Ход 2" was on its way
        return edit(self, *args, **kwargs)

    monkeypatch.setattr(bot.Bot, "edit_message_text", slow_edit)
    post(chat, "Ход 2")
    run_tasks()
    assert [message["text"] for message in api.shown(GROUP)] == ["Ход 3"]


def test_a_first_sending_given_up_is_made_again_by_the_next_revision(api, chat):
    api.answers["sendMessage"] = [(400, refused("Bad Request: can't parse entities"))]
    post(chat, "Стол <открыт")
    run_tasks()
    assert api.shown(GROUP) == [] and Post.objects.get().lost
    post(chat, "Стол открыт")
    run_tasks()
    assert [message["text"] for message in api.shown(GROUP)] == ["Стол открыт"]
