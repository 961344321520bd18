"""The webhook Telegram posts to (telegram.views): a body of any shape is answered without an
error and changes nothing; one the site cannot read or keep is refused (400)."""

import json

import pytest
from django.urls import reverse

from notify.models import TelegramLink
from telegram.models import Chat, Identity, TakenUpdate
from tests.fake_telegram import SECRET, serving, update

pytestmark = pytest.mark.django_db

ALICE_CHAT = 5550001


@pytest.fixture
def api(settings, monkeypatch):
    with serving(settings, monkeypatch) as server:
        yield server


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def shaped(**message) -> str:
    """An update whose message is alice's /start, changed as `message` says."""
    body = update(ALICE_CHAT, "/start token")
    body["message"].update(message)
    return json.dumps(body)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        # Shapes Telegram never sends: answered, and nothing is done.
        (json.dumps({"update_id": 1, "message": "hello"}), 200),
        (shaped(chat="private"), 200),
        (shaped(chat={"type": "private"}), 200),
        (shaped(chat={"type": "private", "id": "abc"}), 200),
        (shaped(chat={"type": "private", "id": True}), 200),
        (shaped(**{"from": "me"}), 200),
        (shaped(**{"from": {"id": 1, "language_code": 5}}), 200),
        (shaped(text=["/start"]), 200),
        # Bodies the site cannot keep or read: refused.
        (shaped(chat={"type": "private", "id": 1e400}).replace("Infinity", "1e400"), 400),
        (shaped(chat={"type": "private", "id": 10**30}), 400),
        (shaped(text="/start \ud800"), 400),
        (shaped(text="/start a\u0000b"), 400),
        (json.dumps({"update_id": 1, "message": {"chat": json.loads(nested(50))}}), 400),
        ('{"update_id": 1, "message": ' + nested(100_000) + "}", 400),
        ("NaN", 400),
        ("[1, 2]", 400),
    ],
)
def test_an_update_of_any_shape_is_answered_without_an_error_and_links_nothing(
    api, alice, client, body, status
):
    response = client.post(
        reverse("telegram:webhook", kwargs={"secret": SECRET}),
        data=body,
        content_type="application/json",
        headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
    )
    assert response.status_code == status
    assert not TelegramLink.objects.exists()
    assert not TakenUpdate.objects.exists()
    assert not Identity.objects.exists() and not Chat.objects.exists()
