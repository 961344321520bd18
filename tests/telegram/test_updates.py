"""Reading Telegram's updates as types (telegram.updates): what each kind the bot asks for
says, and a shape Telegram never sends read as nothing rather than half an update."""

import pytest

from telegram.updates import parse

ALICE = {"id": 5550001, "is_bot": False, "first_name": "Алиса", "language_code": "ru"}
BOT = {"id": 42, "is_bot": True, "first_name": "101", "username": "sto_odno_bot"}
GROUP = {"id": -4001, "type": "group", "title": "Клуб"}


def message(**fields) -> dict:
    return {"message_id": 7, "date": 0, "chat": GROUP, "from": ALICE} | fields


def test_a_command_in_a_group_names_its_bot_and_argument():
    update = parse({"update_id": 1, "message": message(text="/Start@Sto_Odno_Bot  42 ")})
    assert update.chat.group and not update.chat.private
    assert update.sender.id == 5550001 and update.sender.language_code == "ru"
    command = update.message.command
    assert (command.name, command.bot, command.argument) == ("start", "Sto_Odno_Bot", "42")
    assert parse({"update_id": 2, "message": message(text="hello")}).message.command is None
    assert parse({"update_id": 3, "message": message(text="/")}).message.command is None


def test_a_tap_an_inline_query_and_the_bots_own_membership():
    tap = parse(
        {
            "update_id": 1,
            "callback_query": {
                "id": "q1",
                "from": ALICE,
                "data": "deal:9",
                "message": message(text="…"),
            },
        }
    )
    assert tap.callback_query.data == "deal:9" and tap.chat.id == -4001
    assert tap.sender.first_name == "Алиса"
    query = parse({"update_id": 2, "inline_query": {"id": "i1", "from": ALICE, "query": "стол"}})
    assert query.inline_query.query == "стол" and query.chat is None
    removed = parse(
        {
            "update_id": 3,
            "my_chat_member": {
                "chat": GROUP,
                "from": ALICE,
                "date": 0,
                "old_chat_member": {"user": BOT, "status": "member"},
                "new_chat_member": {"user": BOT, "status": "left"},
            },
        }
    )
    assert not removed.my_chat_member.new_chat_member.present
    assert removed.chat.title == "Клуб"


def test_a_groups_move_to_a_supergroup_is_read_from_both_sides():
    old = parse({"update_id": 1, "message": message(migrate_to_chat_id=-1001234)})
    assert old.message.migrate_to_chat_id == -1001234
    supergroup = {"id": -1001234, "type": "supergroup", "title": "Клуб"}
    new = parse({"update_id": 2, "message": message(chat=supergroup, migrate_from_chat_id=-4001)})
    assert new.message.migrate_from_chat_id == -4001 and new.chat.type == "supergroup"


def test_what_the_site_does_not_read_is_passed_over():
    update = parse(
        {"update_id": 1, "poll": {"id": "p"}, "message": message(text="x", photo=[{"a": 1}])}
    )
    assert update.message.text == "x"


@pytest.mark.parametrize(
    "data",
    [
        {"update_id": 1, "message": "hello"},
        {"update_id": 1, "message": message(chat="private")},
        {"update_id": 1, "message": message(chat={"type": "private"})},
        {"update_id": 1, "message": message(chat={"type": "private", "id": "abc"})},
        {"update_id": 1, "message": message(chat={"type": "private", "id": True})},
        {"update_id": 1, "message": message(chat={"type": "private", "id": 1.5})},
        {"update_id": 1, "message": message(chat={"type": "private", "id": 10**30})},
        {"update_id": 1, "message": message(**{"from": "me"})},
        {"update_id": 1, "message": message(**{"from": {"id": 1, "language_code": 5}})},
        {"update_id": 1, "message": message(text=["/start"])},
        {"update_id": "1"},
        {"message": message()},
        [1, 2],
        None,
    ],
)
def test_a_shape_telegram_never_sends_is_nothing(data):
    assert parse(data) is None
