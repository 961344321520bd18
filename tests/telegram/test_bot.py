"""The Bot API client (telegram.bot): each bot talks to its own address (no module global: two
bots at two addresses at once), and Telegram's answers are read as what to do next."""

import threading

import pytest

from telegram.bot import Bot, Refused, Unavailable
from tests.fake_telegram import TOKEN, FakeBotApi


@pytest.fixture
def fakes():
    servers = [FakeBotApi(), FakeBotApi()]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield servers
    for server in servers:
        server.shutdown()
        server.server_close()


def bot_at(server: FakeBotApi) -> Bot:
    return Bot(token=TOKEN, base_url=server.url, timeout=5)


def test_two_bots_at_two_addresses_each_reach_their_own(fakes):
    first, second = fakes
    one, two = bot_at(first), bot_at(second)
    one.send_message(1, "<b>один</b>")
    two.send_message(2, "два")
    one.send_message(3, "три", buttons=[[{"text": "Сдать", "callback_data": "deal:1"}]])
    assert [int(params["chat_id"]) for params in first.sent()] == [1, 3]
    assert [int(params["chat_id"]) for params in second.sent()] == [2]
    message = first.sent()[0]
    assert message["text"] == "<b>один</b>" and message["parse_mode"] == "HTML"
    assert message["link_preview_options"] == {"is_disabled": True}
    assert first.sent()[1]["reply_markup"]["inline_keyboard"][0][0]["text"] == "Сдать"


def test_a_wrong_token_is_telegram_unavailable_until_it_is_set_right(fakes):
    with pytest.raises(Unavailable, match="401"):
        Bot(token="0:wrong", base_url=fakes[0].url, timeout=5).send_message(1, "x")


@pytest.mark.parametrize(
    ("status", "answer", "after"),
    [
        (429, {"ok": False, "error_code": 429, "description": "Too Many Requests",
               "parameters": {"retry_after": 7}}, 7),
        (500, {"ok": False, "error_code": 500, "description": "Internal Server Error"}, None),
        (502, "<html>Bad Gateway</html>", None),
        (200, "[1, 2]", None),
    ],
)  # fmt: skip
def test_what_telegram_asks_to_retry_is_unavailable(fakes, status, answer, after):
    fakes[0].answers["sendMessage"] = [(status, answer)]
    with pytest.raises(Unavailable) as raised:
        bot_at(fakes[0]).send_message(1, "x")
    assert raised.value.after == after


def test_unreachable_is_unavailable(fakes):
    server = fakes[0]
    url = server.url
    server.shutdown()
    server.server_close()
    with pytest.raises(Unavailable, match="unreachable"):
        Bot(token=TOKEN, base_url=url, timeout=2).send_message(1, "x")
    fakes.remove(server)


def test_a_refusal_says_why_and_where_a_group_went(fakes):
    blocked = {"ok": False, "error_code": 403, "description": "Forbidden: bot was blocked"}
    moved = {
        "ok": False,
        "error_code": 400,
        "description": "Bad Request: group chat was upgraded to a supergroup chat",
        "parameters": {"migrate_to_chat_id": -1001234},
    }
    long = {"ok": False, "error_code": 400, "description": "Bad Request: message is too long"}
    fakes[0].answers["sendMessage"] = [(403, blocked), (400, moved), (400, long)]
    bot = bot_at(fakes[0])
    with pytest.raises(Refused) as first:
        bot.send_message(1, "x")
    assert first.value.chat_gone and first.value.migrate_to is None
    with pytest.raises(Refused) as second:
        bot.send_message(-4001, "x")
    assert second.value.migrate_to == -1001234 and not second.value.chat_gone
    with pytest.raises(Refused) as third:
        bot.send_message(1, "x")
    assert third.value.code == 400 and not third.value.chat_gone
