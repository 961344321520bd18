"""Every URL of the site that takes a post has a rate limit, found by walking the URL conf as
tests/test_every_page.py does (over tests/world.py): a view either refuses posts (405) or
counts them against a limit (core/limits.py, settings.RATE_LIMITS). allauth's views are
limited by allauth's own rates (ACCOUNT_RATE_LIMITS), and the admin is for staff alone; both
are listed below with why.

The walk posts with every limit at zero, so that a limited view refuses the post (429) before
it runs: nothing in the world changes, and a view that does run is one without a limit."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from allauth.account import app_settings as allauth_settings
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.test_every_page import STREAMS, named_visits
from tests.test_every_page import world as world  # a fixture
from tests.world import World

pytestmark = pytest.mark.django_db

# allauth's views that take posts, and the limit of allauth's that counts them before anything
# is done (ACCOUNT_RATE_LIMITS; config/accounts.py adds the cap per account on failed logins).
ALLAUTH_LIMITS = {
    "account_login": "login",  # per address; failed logins also per address and account
    "account_signup": "signup",  # per address
    "account_email": "manage_email",  # per account
    "account_change_password": "change_password",  # per account
    "account_set_password": "change_password",
    "account_reauthenticate": "reauthenticate",  # per account
    "account_reset_password": "reset_password",  # per address and per e-mail
    "account_reset_password_from_key": "reset_password_from_key",  # per address
}
# What the post of each needs to reach its limit (a password reset counts a valid form only).
ALLAUTH_POSTS = {"account_reset_password": {"email": "alice@example.com"}}

# Views that take posts with no limit of their own, and why none is needed.
WITHOUT_A_LIMIT = {
    # Logging out ends the poster's own session, and nothing else.
    "account_logout": "ends the poster's own session",
    # A confirmation takes the key mailed to the address (not to be guessed); mailing one is
    # limited (allauth's confirm_email).
    "account_confirm_email": "needs the key mailed to the address",
    # Login by code is off (ACCOUNT_LOGIN_BY_CODE_ENABLED): with no code asked for, the page
    # sends back to the login page, and a code asked for allows three tries.
    "account_confirm_login_code": "login by code is off",
}

# The admin (every URL named admin:...) is for staff alone: a post by anyone else is sent to
# log in and does nothing. Staff can change anything in the database there anyway, so a limit
# would stop nothing they could not do, and would get in the way of a bulk edit.
ADMIN = "admin:"


@contextmanager
def rolled_back() -> Iterator[None]:
    """Whatever a post changes is undone (only a view without a limit changes anything)."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def signed_in(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def zero(rates: str) -> str:
    """allauth's rates with nothing allowed: "20/m/ip,5/m/key" -> "0/m/ip,0/m/key"."""
    return ",".join("0/" + rate.split("/", 1)[1] for rate in rates.split(","))


@pytest.fixture
def nothing_allowed(settings) -> None:
    """Every rate at zero, ours and allauth's: a limited post is refused before it runs."""
    settings.RATE_LIMITS = dict.fromkeys(settings.RATE_LIMITS, "0/h")
    settings.ACCOUNT_RATE_LIMITS = {
        action: zero(rates) for action, rates in allauth_settings.RATE_LIMITS.items() if rates
    }


def posted(world: World, user, path: str, data: dict) -> int:
    with rolled_back():
        return signed_in(user).post(path, data).status_code


def test_every_view_that_takes_a_post_counts_it_against_a_limit(world, nothing_allowed):
    """Posted by alice, who creates, keeps score and directs: a post with no fields, and one
    asking for a preview (a view can count it in another group)."""
    alice = world.users["alice"]
    unlimited = []
    for name, path in named_visits(world):
        if name.startswith(ADMIN) or name in ALLAUTH_LIMITS or name in WITHOUT_A_LIMIT:
            continue
        for data in ({}, {"action": "preview"}):
            status = posted(world, alice, path, data)
            if status not in (405, 429):
                unlimited.append(f"{name} {path} {data}: {status}")
    assert unlimited == [], "Views that take posts without a limit:\n" + "\n".join(unlimited)


def test_the_walk_posts_to_every_page_and_every_form(world):
    """The walk above meets both kinds: pages that refuse posts, forms that take them."""
    names = {name for name, _path in named_visits(world)}
    assert {"games:match", "games:round_new", "play:move", "claims:privacy"} <= names
    assert "set_language" in names and not STREAMS & names


def test_event_streams_refuse_posts(client, world):
    """The walk leaves out the streams (a GET never ends); a post to one changes nothing."""
    match, table = world.matches["running"], next(iter(world.tables.values()))
    paths = [
        reverse("games:match_events", args=[match.pk]),
        reverse("play:events", args=[table.pk]),
        reverse("tournaments:events", args=[world.tournaments["running"].pk]),
    ]
    assert len(paths) == len(STREAMS)
    assert [client.post(path).status_code for path in paths] == [405, 405, 405]


def test_allauths_views_that_take_posts_are_limited_by_allauth(world, nothing_allowed):
    alice = world.users["alice"]
    found = {}
    for name, path in named_visits(world):
        if name in ALLAUTH_LIMITS:
            found[name] = posted(world, alice, path, ALLAUTH_POSTS.get(name, {}))
    assert found == dict.fromkeys(ALLAUTH_LIMITS, 429)
    for name, action in ALLAUTH_LIMITS.items():
        assert allauth_settings.RATE_LIMITS[action], name


def test_the_views_taken_without_a_limit_do_take_posts(world):
    """So that the list above says no more than it must."""
    alice = world.users["alice"]
    for name, path in named_visits(world):
        if name in WITHOUT_A_LIMIT:
            assert posted(world, alice, path, {}) != 405, name


def test_the_admin_takes_no_post_from_anyone_but_staff(world):
    """lena, signed in and not staff, posts to every page of the admin: each sends her to log
    in as staff, or to the admin's front door, which does the same; its login page, signed in
    as she is, refuses her."""
    lena = world.users["lena"]
    answers = set()
    for name, path in named_visits(world):
        if name.startswith(ADMIN):
            with rolled_back():
                response = signed_in(lena).post(path, {})
            answers.add((response.status_code, response.get("Location", "").split("?")[0]))
    assert answers == {(302, reverse("admin:login")), (302, reverse("admin:index")), (403, "")}
