"""A web process's database connections stay within its pool and come back to it, even from
requests whose client went away before the answer (a phone losing its signal, a reload): a
probe of the production stack once left a process holding all four of its pool's connections,
answering 503 until it was restarted."""

import socket
import time

import pytest
from django.urls import reverse

from tests.servers import (
    HOST,
    end,
    other_client,
    production_environment,
    start_worker,
    wait_until_ready,
)

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

POOL = 4
NAME = "web-under-test"  # libpq's application name, set by PGAPPNAME: its connections alone


def connections_of_the_worker() -> int:
    with other_client() as other:
        return other.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [NAME]
        ).fetchone()[0]


def gone_before_the_answer(port: int, path: str, after: float) -> None:
    """A request whose client hangs up `after` seconds later, before the page is back."""
    with socket.create_connection((HOST, port)) as client:
        client.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nX-Forwarded-Proto: https\r\n\r\n".encode()
        )
        time.sleep(after)


def test_requests_whose_clients_went_away_give_their_connections_back(
    alice, redis_prefix, tmp_path
):
    environment = production_environment(redis_prefix, tmp_path)
    environment |= {"DJANGO_DB_POOL_SIZE": str(POOL), "PGAPPNAME": NAME}
    worker = start_worker(environment, tmp_path)
    try:
        wait_until_ready(worker)
        for number in range(60):
            gone_before_the_answer(worker.port, reverse("home"), after=(number % 10) / 1000)
        time.sleep(1)  # what the requests were doing has ended
        for _ in range(POOL + 2):
            began = time.monotonic()
            response, _body = worker.request("GET", reverse("home"))
            assert response.status == 200, worker.log.read_text()[-2000:]
            assert time.monotonic() - began < 3  # not waiting for a connection to come free
        assert connections_of_the_worker() <= POOL
    finally:
        end(worker.process, grace=10)
