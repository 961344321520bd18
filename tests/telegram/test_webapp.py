"""The Mini App's initData checked as Telegram documents it (telegram.webapp): pure, no
database. Strings are signed with the tests' token (tests/fake_telegram.py), never by Telegram."""

from urllib.parse import parse_qsl, urlencode

import pytest

from telegram.webapp import read_init_data
from tests.fake_telegram import TOKEN, init_data

NOW = 1_750_000_000
ANNA = {
    "id": 7001,
    "first_name": "Анна",
    "last_name": "К",
    "username": "anna_k",
    "language_code": "ru",
}


def read(raw: str, **kwargs):
    return read_init_data(raw, token=TOKEN, now=kwargs.pop("now", NOW), **kwargs)


def changed(raw: str, **fields: str) -> str:
    return urlencode(dict(parse_qsl(raw)) | fields)


def test_a_string_telegram_signed_names_the_person_and_the_start_parameter():
    data = read(init_data(ANNA, auth_date=NOW - 60, start_param="t12"))
    assert data is not None
    assert (data.user.id, data.user.first_name, data.user.username) == (7001, "Анна", "anna_k")
    assert data.user.language_code == "ru"
    assert data.start_param == "t12"
    assert data.auth_date == NOW - 60


def test_fields_telegram_adds_later_are_signed_and_accepted():
    assert read(init_data(ANNA, auth_date=NOW, can_send_after="5", signature="abc")) is not None


def test_a_string_opened_from_a_group_says_so():
    data = read(init_data(ANNA, auth_date=NOW, chat_type="supergroup", chat_instance="-4242"))
    assert (data.chat_type, data.chat_instance) == ("supergroup", "-4242")


@pytest.mark.parametrize(
    "alter",
    [
        {"user": '{"id":7002,"first_name":"Анна"}'},
        {"start_param": "t13"},
        {"auth_date": str(NOW - 1)},
        {"hash": "0" * 64},
        {"hash": ""},
    ],
)
def test_a_changed_field_is_refused(alter):
    assert read(changed(init_data(ANNA, auth_date=NOW, start_param="t12"), **alter)) is None


def test_a_string_signed_with_another_token_is_refused():
    assert read(init_data(ANNA, auth_date=NOW, token="654321:OTHER-token")) is None


def test_without_a_token_nothing_is_accepted():
    assert read_init_data(init_data(ANNA, auth_date=NOW), token="", now=NOW) is None


def test_a_day_old_string_is_accepted_and_an_older_one_refused():
    assert read(init_data(ANNA, auth_date=NOW - 86400)) is not None
    assert read(init_data(ANNA, auth_date=NOW - 86401)) is None
    assert read(init_data(ANNA, auth_date=NOW - 3600), max_age=600) is None


def test_a_string_from_the_future_is_refused_beyond_a_minute():
    assert read(init_data(ANNA, auth_date=NOW + 60)) is not None
    assert read(init_data(ANNA, auth_date=NOW + 61)) is None


def test_a_field_given_twice_is_refused():
    raw = init_data(ANNA, auth_date=NOW)
    assert read(raw + "&auth_date=" + str(NOW)) is None
    assert read(raw + "&" + raw) is None


def test_the_same_fields_in_another_order_or_encoding_have_the_same_signature():
    # The replay mark is the signature, not the string: re-encoding it changes nothing.
    raw = init_data(ANNA, auth_date=NOW)
    reordered = urlencode(sorted(parse_qsl(raw), reverse=True))
    assert reordered != raw
    assert read(reordered).signature == read(raw).signature


@pytest.mark.parametrize(
    "person",
    [
        {"first_name": "no id"},
        {"id": "7001", "first_name": "id as text"},
        {"id": 2**64, "first_name": "too big"},
        {"id": 7001, "first_name": 5},
        {"id": 7001, "language_code": ["ru"]},
        {"id": 7001, "is_bot": True},
    ],
)
def test_a_signed_user_of_another_shape_or_a_bot_is_refused(person):
    assert read(init_data(person, auth_date=NOW)) is None


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "garbage",
        "user=%7B%7D&hash",
        "a=%ZZ&hash=1",
        "a=%ff&hash=1",
        "&&&",
        "hash=" + "a" * 64,
        "x=" + "y" * 10_000,
    ],
)
def test_garbage_is_refused(raw):
    assert read(raw) is None


def test_a_signed_string_with_no_auth_date_or_no_user_is_refused():
    assert read(init_data(ANNA, auth_date=None)) is None
    assert read(init_data(ANNA, auth_date=None, auth_date_="1")) is None
    assert read(init_data(None, auth_date=NOW)) is None
    assert read(init_data(ANNA, auth_date=None) + f"&auth_date={NOW}") is None
