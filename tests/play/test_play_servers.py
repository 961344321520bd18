"""One table played through two app servers sharing one database: no game state lives in a
process's memory."""

import re
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from cards101.engine import Game
from cards101.rules import PRESETS
from play import services as play
from play.models import PlayMove, PlayTable
from tests.servers import HOST, Worker


def log_in(worker: Worker, username: str, password: str) -> dict[str, str]:
    """Log in on one server as a person would; returns the cookies of the session."""
    response, page = worker.request("GET", reverse("account_login"))
    csrf = re.search(r"csrftoken=([^;]+)", response.getheader("Set-Cookie"))[1]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    body = urlencode({"login": username, "password": password, "csrfmiddlewaretoken": token})
    response, _page = worker.request(
        "POST",
        reverse("account_login"),
        body,
        {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={csrf}",
            "Origin": f"https://{HOST}:{worker.port}",
            "X-Forwarded-For": "203.0.113.9",
        },
    )
    assert response.status == 302, _page
    cookies = dict(re.findall(r"(csrftoken|sessionid)=([^;]+)", response.getheader("Set-Cookie")))
    return {"csrftoken": csrf} | cookies


def send(worker: Worker, method: str, path: str, cookies: dict[str, str], data=None):
    headers = {
        "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "X-Forwarded-For": "203.0.113.9",
        "HX-Request": "true",
    }
    body = ""
    if data is not None:
        body = urlencode(data)
        headers |= {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": cookies["csrftoken"],
            "Origin": f"https://{HOST}:{worker.port}",
        }
    return worker.request(method, path, body, headers)


def form_of(move, version: int) -> dict:
    """A move as the board's form posts it."""
    card = move.card.code if move.card else ""
    return {"version": version, "kind": move.kind, "card": card, "suit": move.suit or ""}


@pytest.mark.django_db(transaction=True)
def test_one_table_is_played_through_two_servers(two_workers, alice):
    first, second = two_workers
    table = play.create_table(
        by=alice, preset="classic", variant=PRESETS["classic"], seats=["me", "greedy"], seed=11
    )
    cookies = log_in(first, "alice", "alice-password")
    url = reverse("play:table", args=[table.pk])
    for _attempt in range(50):
        table.refresh_from_db()
        game = Game.from_json(table.state)
        if game.to_move == 0:
            break
        # The bot's moves are made on a poll, on either server.
        PlayTable.objects.filter(pk=table.pk).update(server_moves_at=table.updated_at)
        response, _body = send(second, "GET", f"{url}?v={table.version}", cookies)
        assert response.status == 200
    assert game.to_move == 0
    move = game.legal_moves()[0]
    version = table.version
    response, body = send(
        second,
        "POST",
        reverse("play:move", args=[table.pk]),
        cookies,
        form_of(move, version),
    )
    assert response.status == 200, body
    assert PlayMove.objects.filter(table=table, by="").count() == 1
    table.refresh_from_db()
    # The other server knows the move at once: the same version, and the old one is stale.
    response, _body = send(first, "GET", f"{url}?v={table.version}", cookies)
    assert response.status in (200, 204)
    response, body = send(
        first,
        "POST",
        reverse("play:move", args=[table.pk]),
        cookies,
        form_of(move, version),
    )
    assert "The table has moved on" in body
    assert PlayMove.objects.filter(table=table, by="").count() == 1
