"""Login rate limits as deployed: per client behind a proxy, per client and account together
(a stranger cannot lock anyone out), shared by the workers through Redis, and in front of the
admin too."""

import re
from urllib.parse import urlencode

import allauth.core.internal.ratelimit
import pytest
from django.test import Client
from django.urls import reverse

from tests.clock import Clock
from tests.servers import HOST, Worker
from tests.test_deployment import settings_from, strong_key

PROXY = "10.0.0.1"
WRONG = "The username and/or password you specified are not correct."
LIMITED = "Too many failed login attempts. Try again later."
# settings.ACCOUNT_RATE_LIMITS: 10 failed logins a minute from one address, 5 in 5 minutes
# from one address on one account.
FAILURES_PER_ADDRESS = 10
FAILURES_PER_ADDRESS_AND_ACCOUNT = 5
STRANGER = "203.0.113.66"
BOBS_HOME = "198.51.100.7"


def log_in(client, login: str, password: str, client_address: str):
    """A login posted through the proxy, which adds the client's address as nginx does."""
    return client.post(
        reverse("account_login"),
        {"login": login, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=client_address,
    )


# --- behind one proxy ---------------------------------------------------------------------


@pytest.fixture
def behind_one_proxy(settings):
    """The proxy count as the settings read it from ALLAUTH_TRUSTED_PROXY_COUNT=1."""
    environment = {"DJANGO_SECRET_KEY": strong_key(), "ALLAUTH_TRUSTED_PROXY_COUNT": "1"}
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = settings_from(environment)["ALLAUTH_TRUSTED_PROXY_COUNT"]


@pytest.mark.django_db
def test_a_client_guessing_passwords_does_not_lock_out_another_behind_the_same_proxy(
    client, alice, bob, behind_one_proxy
):
    for _attempt in range(20):
        guess = log_in(client, "bob", "guess", "203.0.113.7")
    assert LIMITED in guess.content.decode()  # the guessing client is stopped...

    response = log_in(client, "alice", "alice-password", "198.51.100.20")
    assert response.status_code == 302  # ...and alice, elsewhere, logs in
    assert client.get(reverse("games:new_match")).status_code == 200


@pytest.mark.django_db
def test_a_forged_x_forwarded_for_does_not_escape_the_limit(client, bob, behind_one_proxy):
    # The client sends its own X-Forwarded-For; the proxy adds the real address at the end.
    for attempt in range(FAILURES_PER_ADDRESS):
        response = log_in(client, f"nobody{attempt}", "guess", f"192.0.2.{attempt}, 203.0.113.7")
        assert WRONG in response.content.decode()
    response = log_in(client, "bob", "bob-password", "192.0.2.99, 203.0.113.7")
    assert LIMITED in response.content.decode()


@pytest.mark.django_db
def test_without_the_proxy_count_everyone_behind_the_proxy_shares_one_limit(
    client, alice, bob, settings
):
    # What the proxy count is for: without it (allauth's default, 0) every client is the proxy.
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    for _attempt in range(20):
        log_in(client, "bob", "guess", "203.0.113.7")
    response = log_in(client, "alice", "alice-password", "198.51.100.20")
    assert LIMITED in response.content.decode()


# --- a stranger on bob's account ----------------------------------------------------------


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """allauth's clock in its rate limits, moved by the test."""
    clock = Clock()
    monkeypatch.setattr(allauth.core.internal.ratelimit, "time", clock)
    return clock


@pytest.mark.django_db
def test_a_stranger_guessing_bobs_password_stops_himself_not_bob(client, bob, behind_one_proxy):
    for _attempt in range(FAILURES_PER_ADDRESS_AND_ACCOUNT):
        assert WRONG in log_in(client, "bob", "guess", STRANGER).content.decode()
    # The stranger is stopped: even the right password is not checked from his address now...
    assert LIMITED in log_in(client, "bob", "guess", STRANGER).content.decode()
    assert LIMITED in log_in(client, "bob", "bob-password", STRANGER).content.decode()

    # ...and bob, at home, logs in.
    bobs_phone = Client()
    assert log_in(bobs_phone, "bob", "bob-password", BOBS_HOME).status_code == 302
    assert bobs_phone.get(reverse("games:new_match")).status_code == 200


@pytest.mark.django_db
def test_a_stranger_failing_flat_out_for_an_hour_does_not_lock_bob_out(
    client, bob, behind_one_proxy, clock
):
    start = clock.now
    for five_minutes in range(12):
        # As many wrong passwords as the limits let through, then one more, every 5 minutes.
        for attempt in range(FAILURES_PER_ADDRESS_AND_ACCOUNT + 1):
            clock.now = start + five_minutes * 300 + attempt
            answer = log_in(client, "bob", "guess", STRANGER).content.decode()
            assert (WRONG if attempt < FAILURES_PER_ADDRESS_AND_ACCOUNT else LIMITED) in answer

    clock.now = start + 3599
    assert log_in(Client(), "bob", "bob-password", BOBS_HOME).status_code == 302


@pytest.mark.django_db
def test_guessing_from_many_addresses_is_capped_per_account(
    client, bob, carol, behind_one_proxy, settings
):
    # Lowered from 1000 an hour, so that four addresses reach it.
    settings.ACCOUNT_RATE_LIMITS = settings.ACCOUNT_RATE_LIMITS | {
        "login_failed_account": "20/h/key"
    }
    for address in range(4):
        for _attempt in range(FAILURES_PER_ADDRESS_AND_ACCOUNT):
            answer = log_in(client, "bob", "guess", f"192.0.2.{address}").content.decode()
            assert WRONG in answer
    assert LIMITED in log_in(client, "bob", "guess", "192.0.2.99").content.decode()
    # Another account is not touched.
    assert log_in(Client(), "carol", "carol-password", "192.0.2.99").status_code == 302


@pytest.mark.django_db
def test_failed_logins_on_other_accounts_from_bobs_address_do_not_stop_bob(
    client, bob, behind_one_proxy
):
    # Under the limit per address: bob's own typos on other names do not count against bob.
    for attempt in range(FAILURES_PER_ADDRESS - 2):
        log_in(client, f"nobody{attempt}", "guess", BOBS_HOME)
    assert log_in(client, "bob", "bob-password", BOBS_HOME).status_code == 302


# --- the admin ----------------------------------------------------------------------------


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "sam", "sam@example.com", "sam-password", is_staff=True, is_superuser=True
    )


@pytest.mark.django_db
def test_the_admin_login_sends_to_the_rate_limited_login_page(client, staff):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"] == reverse("account_login") + "?next=%2Fadmin%2F"


@pytest.mark.django_db
def test_the_admin_login_checks_no_password_itself(client, staff):
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "sam", "password": "sam-password"}
    )
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert client.get("/admin/").status_code == 302  # still not logged in


@pytest.mark.django_db
def test_staff_log_in_on_the_site_and_reach_the_admin(client, staff):
    response = client.post(
        reverse("account_login") + "?next=/admin/", {"login": "sam", "password": "sam-password"}
    )
    assert response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


# --- two workers sharing Redis ------------------------------------------------------------


def csrf(worker: Worker) -> tuple[str, str]:
    """A CSRF cookie and form token (the workers share the secret key, so both take them)."""
    response, page = worker.request("GET", reverse("account_login"))
    cookie = re.search(r"csrftoken=([^;]+)", response.getheader("Set-Cookie"))[1]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    return cookie, token


def post_login(worker: Worker, tokens: tuple[str, str], login: str, client_address: str) -> str:
    cookie, token = tokens
    body = urlencode({"login": login, "password": "guess", "csrfmiddlewaretoken": token})
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={cookie}",
        "Origin": f"https://{HOST}:{worker.port}",
        "X-Forwarded-For": client_address,
    }
    response, page = worker.request("POST", reverse("account_login"), body, headers)
    assert response.status == 200, page
    return page


def test_failed_logins_on_two_workers_add_up_to_one_limit(two_workers):
    first, second = two_workers
    tokens = csrf(first)
    # One client's wrong passwords, half on each worker: each worker alone sees only half.
    for attempt in range(FAILURES_PER_ADDRESS):
        worker = two_workers[attempt % 2]
        assert WRONG in post_login(worker, tokens, f"nobody{attempt}", "203.0.113.7")

    assert LIMITED in post_login(first, tokens, "nobody-else", "203.0.113.7")
    assert LIMITED in post_login(second, tokens, "nobody-else", "203.0.113.7")
    # Another client behind the same proxy is not limited.
    assert WRONG in post_login(second, tokens, "nobody-else", "198.51.100.20")
