"""Playing in a real browser: a new user plays a round against two bots by clicking cards, and
two people play one table from two browsers."""

import re
import time

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _quick_bots(settings):
    # Bots wait 0.7 s before moving so that people see them; the test need not.
    settings.PLAY_BOT_DELAY = 0


def take_my_turn(page: Page) -> None:
    """Play the first card that may be played (a Queen orders its first suit), else draw,
    else pass."""
    board = page.locator("#board")
    playable = board.locator(".hand form.inline button.card")
    queens = board.locator(".hand details.queen-pick")
    if playable.count():
        playable.first.click()
    elif queens.count():
        queens.first.locator("summary").click()
        queens.first.locator(".suit-picker button").first.click()
    elif board.get_by_role("button", name="Draw a card").count():
        board.get_by_role("button", name="Draw a card").click()
    else:
        board.get_by_role("button", name="Pass").click()


def play_until_round_end(page: Page, limit: int = 300) -> None:
    board = page.locator("#board")
    for _ in range(limit):
        if board.locator(".round-end").count():
            return
        if board.get_by_role("heading", name=re.compile("^Your turn")).count():
            version = board.get_attribute("hx-get")
            take_my_turn(page)
            # The move's answer replaces the board with the next version.
            expect(board).not_to_have_attribute("hx-get", version or "")
        else:
            page.wait_for_timeout(150)
    raise AssertionError("the round did not end")


def test_a_new_user_plays_a_round_against_two_bots(page: Page, problems: list[str]):
    page.goto("/accounts/signup/")
    page.locator("input[name=username]").fill("newcomer")
    page.locator("input[name=password1]").fill("a-long-new-password")
    page.locator("input[name=password2]").fill("a-long-new-password")
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()

    page.get_by_role("navigation").get_by_role("link", name="Play", exact=True).click()
    page.get_by_role("link", name="New table").click()
    expect(page.get_by_label("Seat 2")).to_have_value("greedy")
    expect(page.get_by_label("Seat 3")).to_have_value("greedy")
    page.get_by_role("button", name="Open the table").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/$"))
    expect(page.locator(".opponent")).to_have_count(3)
    expect(page.locator(".opponent.me .name")).to_have_text("newcomer")

    play_until_round_end(page)
    end = page.locator("#board .round-end")
    expect(end.get_by_role("heading")).to_have_text(re.compile("The (round|match) is over"))
    expect(end.locator("tbody tr")).to_have_count(3)
    assert problems == []


def test_two_people_play_one_table_from_two_browsers(
    page: Page, browser, live_server, log_in, alice, bob
):
    log_in(alice)
    page.goto("/play/new/")
    page.get_by_label("Seat 2").select_option("open")
    page.get_by_label("Seat 3").select_option("")
    page.get_by_role("button", name="Open the table").click()
    expect(page.get_by_role("heading", name="Waiting for players")).to_be_visible()
    invite = page.get_by_label("Invitation link").input_value()

    other = browser.new_context(base_url=live_server.url, locale="en-GB")
    other.set_default_timeout(5_000)
    # A client of bob's own: logging another user in on alice's would end her session.
    bobs_client = Client()
    bobs_client.force_login(bob)
    cookie = bobs_client.cookies[django_settings.SESSION_COOKIE_NAME]
    other.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    bobs = other.new_page()
    bobs.goto(invite)
    bobs.get_by_role("button", name="Take a seat").click()
    expect(bobs.locator(".opponent")).to_have_count(2)
    # alice's board learns of it by itself.
    expect(page.locator(".opponent")).to_have_count(2, timeout=8_000)

    # Whoever's turn it is plays; the other's board follows without a reload.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.locator("#board .round-end").count() and bobs.locator("#board .round-end").count():
            break
        for mover in (page, bobs):
            board = mover.locator("#board")
            if board.get_by_role("heading", name=re.compile("^Your turn")).count():
                version = board.get_attribute("hx-get")
                take_my_turn(mover)
                expect(board).not_to_have_attribute("hx-get", version or "")
        page.wait_for_timeout(100)
    expect(page.locator("#board .round-end")).to_be_visible(timeout=8_000)
    expect(bobs.locator("#board .round-end")).to_be_visible(timeout=8_000)
    other.close()
