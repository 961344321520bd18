"""Login rate limits as deployed: per client behind a proxy, failures per client and account
together (a stranger cannot lock anyone out, and nobody's typos refuse another's right password
at a club's one address), shared by the workers through Redis, and in front of the admin too.
The CSRF cookie is the server's alone."""

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
# settings.ACCOUNT_RATE_LIMITS: 5 failed logins in 5 minutes from one address on one account;
# 300 logins, right or wrong, in 10 minutes from one address.
FAILURES_PER_ADDRESS_AND_ACCOUNT = 5
LOGINS_PER_ADDRESS = 300
STRANGER = "203.0.113.66"
BOBS_HOME = "198.51.100.7"
CLUB = "192.0.2.44"


def log_in(client, login: str, password: str, client_address: str):
    """A login posted through the proxy, which adds the client's address as nginx does."""
    return client.post(
        reverse("account_login"),
        {"login": login, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=client_address,
    )


def gets_in(login: str, password: str, client_address: str) -> bool:
    """Whether someone logging in on a phone of their own gets in: a members' page opens."""
    phone = Client()
    return (
        log_in(phone, login, password, client_address).status_code == 302
        and phone.get(reverse("games:new_match")).status_code == 200
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

    assert gets_in("alice", "alice-password", "198.51.100.20")  # ...and alice, elsewhere


@pytest.mark.django_db
def test_a_forged_x_forwarded_for_does_not_escape_the_limit(client, bob, behind_one_proxy):
    # The client sends its own X-Forwarded-For; the proxy adds the real address at the end.
    for attempt in range(FAILURES_PER_ADDRESS_AND_ACCOUNT):
        response = log_in(client, "bob", "guess", f"192.0.2.{attempt}, 203.0.113.7")
        assert WRONG in response.content.decode()
    response = log_in(client, "bob", "bob-password", "192.0.2.99, 203.0.113.7")
    assert LIMITED in response.content.decode()


@pytest.mark.django_db
def test_without_the_proxy_count_a_stranger_behind_the_proxy_locks_bob_out(client, bob, settings):
    # What the proxy count is for: without it (allauth's default, 0) every client is the proxy.
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    for _attempt in range(FAILURES_PER_ADDRESS_AND_ACCOUNT):
        log_in(client, "bob", "guess", STRANGER)
    response = log_in(Client(), "bob", "bob-password", BOBS_HOME)
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
    assert gets_in("bob", "bob-password", BOBS_HOME)


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


# --- a club behind one address -------------------------------------------------------------


@pytest.mark.django_db
def test_failures_for_bob_never_refuse_alices_right_password_from_the_same_address(
    client, alice, bob, behind_one_proxy
):
    # Someone at the club's Wi-Fi fails at bob's password again and again (refused after five)...
    for _attempt in range(12):
        log_in(client, "bob", "guess", CLUB)
    assert LIMITED in log_in(client, "bob", "guess", CLUB).content.decode()
    # ...and alice, at the next table, logs in.
    assert gets_in("alice", "alice-password", CLUB)


@pytest.mark.django_db
def test_a_club_of_a_hundred_behind_one_address_logs_in_at_the_start_of_a_night(
    django_user_model, behind_one_proxy
):
    """Every member within a minute, a third of them after a typo (or two, or three)."""
    for number in range(100):
        member = django_user_model.objects.create_user(f"member{number}", password="club-password")
        phone = Client()
        if number % 3 == 0:
            for _typo in range(1 + number % 4):
                assert WRONG in log_in(phone, member.username, "typo", CLUB).content.decode()
        assert log_in(phone, member.username, "club-password", CLUB).status_code == 302


@pytest.mark.django_db
def test_a_flood_of_logins_from_one_address_is_refused(client, alice, behind_one_proxy):
    """Each login costs a password hash: one address gets 300 in 10 minutes, right or wrong."""
    for attempt in range(LOGINS_PER_ADDRESS):
        assert log_in(client, f"nobody{attempt}", "guess", STRANGER).status_code == 200
    assert log_in(client, "nobody-else", "guess", STRANGER).status_code == 429
    assert log_in(Client(), "alice", "alice-password", CLUB).status_code == 302


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
    # The proxy passes the site's one name on to every app server (failed logins count per
    # site, address and account), and the client's address.
    headers = {
        "Content-Type": "application/x-www-form-urlencoded",
        "Cookie": f"csrftoken={cookie}",
        "Host": HOST,
        "Origin": f"https://{HOST}",
        "X-Forwarded-For": client_address,
    }
    response, page = worker.request("POST", reverse("account_login"), body, headers)
    assert response.status == 200, page
    return page


def test_failed_logins_on_two_workers_add_up_to_one_limit(two_workers):
    first, second = two_workers
    tokens = csrf(first)
    # One client's wrong passwords, on each worker in turn: each worker alone sees only some.
    for attempt in range(FAILURES_PER_ADDRESS_AND_ACCOUNT):
        worker = two_workers[attempt % 2]
        assert WRONG in post_login(worker, tokens, "nobody", "203.0.113.7")

    assert LIMITED in post_login(first, tokens, "nobody", "203.0.113.7")
    assert LIMITED in post_login(second, tokens, "nobody", "203.0.113.7")
    # Another client behind the same proxy is not limited.
    assert WRONG in post_login(second, tokens, "nobody", "198.51.100.20")


# --- the CSRF cookie ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_csrf_cookie_is_not_for_scripts(client):
    """Pages send the token from their forms or from hx-headers on <body>, never from the
    cookie: a script on the page cannot read it (HttpOnly)."""
    page = client.get(reverse("account_login"))
    set_cookie = page.cookies["csrftoken"].output()
    assert set_cookie.startswith("Set-Cookie: csrftoken=") and "; HttpOnly;" in set_cookie
    assert 'hx-headers=\'{"X-CSRFToken": "' in page.content.decode()
