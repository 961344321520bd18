"""Sessions on two app servers sharing one database and one Redis (production settings):
signing out on one server signs out on the other, though sessions are read from the cache."""

import pytest
from django.urls import reverse

from tests.play.test_play_servers import log_in, send


@pytest.mark.django_db(transaction=True)
def test_signing_out_on_one_server_signs_out_on_the_other(two_workers, alice):
    first, second = two_workers
    cookies = log_in(first, "alice", "alice-password")
    _response, page = send(second, "GET", reverse("home"), cookies)
    assert "Log out" in page  # the session, read by the other server

    response, _page = send(first, "POST", reverse("account_logout"), cookies, data={})
    assert response.status in (200, 302)
    _response, page = send(second, "GET", reverse("home"), cookies)
    assert "Log out" not in page and "Log in" in page
