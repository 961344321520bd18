"""core.http: what a JSON body may hold before any view reads it (read_json), and where a
form's `next` may send a person (local_path)."""

import json

import pytest
from django.test import RequestFactory

from core.http import JSON_DEPTH, NotJson, local_path, read_json


def body(text: str):
    return RequestFactory().post("/", text, content_type="application/json")


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_json_a_browser_or_telegram_sends_is_read_as_it_is():
    sent = {"endpoint": "https://push.example/x", "keys": {"auth": "a"}, "n": [1, -2.5, None]}
    assert read_json(body(json.dumps(sent))) == sent
    assert read_json(body(deep(JSON_DEPTH))) == json.loads(deep(JSON_DEPTH))
    assert read_json(body(json.dumps({"id": -(2**63), "name": "Вера 🂡"})))["id"] == -(2**63)


@pytest.mark.parametrize(
    "text",
    [
        deep(JSON_DEPTH + 1),
        deep(100_000),
        '{"id": 1e400}',
        '{"id": -1e400}',
        '{"id": NaN}',
        '{"id": Infinity}',
        f'{{"id": {2**63}}}',
        '{"text": "a\\u0000b"}',
        '{"a\\u0000": 1}',
        '{"text": "\\ud800"}',
        '{"text": "\\udfff x"}',
        "not json",
        "",
    ],
)
def test_json_the_site_could_not_keep_or_compare_is_refused(text):
    with pytest.raises(NotJson):
        read_json(body(text))


def test_a_body_that_is_not_utf8_is_refused():
    request = RequestFactory().post("/", b'{"a": "\xff"}', content_type="application/json")
    with pytest.raises(NotJson):
        read_json(request)


@pytest.mark.parametrize(
    "target, kept",
    [
        ("/notifications/?tab=1", "/notifications/?tab=1"),
        ("/", "/"),
        ("", None),
        ("x", None),  # a view's name to redirect(): NoReverseMatch
        ("home", None),
        ("https://evil.example/", None),
        ("//evil.example/", None),
        ("/\\evil.example/", None),
        ("http://testserver/", None),  # on this host, but not a path
        ("javascript:alert(1)", None),
    ],
)
def test_a_next_is_kept_only_when_it_is_a_path_on_this_site(target, kept):
    assert local_path(RequestFactory().post("/"), target) == kept
