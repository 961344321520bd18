"""A round over the rate limit in a real browser: saved from the form, the sheet says so at the
top and keeps what was typed; sent from the phone's outbox, the round waits on the phone and is
sent by itself once the limit's hour has passed. Never lost, never a dead end."""

import django_ratelimit.core
import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.conftest import cut_network, restore_network
from tests.browser.test_club_night import enter_deal, wait_for_the_kept_copy
from tests.clock import Clock
from tests.conftest import make_match
from tests.test_creation_limits import ROUNDS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.real_rate_limits,
]


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """django-ratelimit's clock (in the live server too: one process), moved by the test."""
    clock = Clock()
    monkeypatch.setattr(django_ratelimit.core, "time", clock)
    return clock


def use_up_the_rounds(client, match) -> None:
    """As many saves as an hour allows, by the logged-in account (rounds the form refuses:
    they count as saves, and are quicker to make)."""
    url = reverse("games:round_send", args=[match.pk])
    for _save in range(ROUNDS):
        assert client.post(url, {"version": "1", "seats": "0,1,2,3"}).status_code == 400


def test_a_round_saved_over_the_limit_is_refused_at_the_top_and_stays_in_the_form(
    page: Page, problems: list[str], alice, bob, log_in, client, clock, t
):
    match = make_match(alice, ["alice", "bob", "Vera", "Gleb"])
    log_in(alice)
    use_up_the_rounds(client, match)
    page.goto(match.get_absolute_url())
    enter_deal(page, out=0, t=t)

    notice = page.locator("#main > .messages[role=alert]")
    expect(notice).to_contain_text(
        t("You have saved too many rounds in a short time: this one was not saved.")
    )
    expect(notice).to_contain_text("Try again in")
    # The sheet and the round typed into it are as they were.
    expect(page.locator("#id_s0-cards")).to_have_value("7♣")
    expect(page.locator("#id_s1-points")).to_have_value("11")
    expect(page.locator("#round-form h2")).to_have_text(t("Round %(number)s", number=1))
    assert match.rounds.count() == 0
    assert [problem.split(" http")[0] for problem in problems] == [
        "429 POST",
        "console: Failed to load resource: the server responded with a status of 429 "
        "(Too Many Requests)",
    ]


def test_a_round_from_the_outbox_over_the_limit_waits_on_the_phone_and_goes_later(
    page: Page, problems: list[str], alice, bob, log_in, client, clock, t
):
    match = make_match(alice, ["alice", "bob", "Vera", "Gleb"])
    log_in(alice)
    page.clock.install()
    page.goto(match.get_absolute_url())
    wait_for_the_kept_copy(page)
    cut_network(page.context)
    enter_deal(page, out=0, t=t)
    kept = page.locator("#outbox li.kept")
    expect(kept).to_have_count(1)

    # While the phone was offline, the account used up its rounds for the hour elsewhere.
    use_up_the_rounds(client, match)
    restore_network(page.context)
    status = page.locator("#outbox-status")
    expect(status).to_contain_text(
        t("You have saved too many rounds in a short time: this one was not saved.")
    )
    expect(status).to_contain_text(
        t(
            "%%(reason)s The round stays on this phone and is sent by itself as soon as the "
            "site takes it.",
            reason="",
        ).strip()
    )
    expect(kept).to_have_count(1)
    expect(kept.first).to_contain_text(t("waiting to send"))
    assert match.rounds.count() == 0

    # Not sent again before the hour is over, however often the outbox looks...
    page.clock.fast_forward(5 * 60_000)
    expect(kept).to_have_count(1)
    # ...and sent by itself once it is.
    clock.now += 3600
    page.clock.fast_forward(60 * 60_000)
    # A phone back from an hour asleep: the outbox looks again on its next round (every 20 s,
    # static/js/outbox.js), whichever timer the jump fired first.
    page.clock.run_for(20_000)
    expect(page.locator("#outbox")).to_be_hidden()
    expect(status).to_contain_text(t("Sent from this phone: rounds %(rounds)s.", rounds="1"))
    assert match.rounds.count() == 1
    assert [problem.split(" http")[0] for problem in problems] == [
        "429 POST",
        "console: Failed to load resource: the server responded with a status of 429 "
        "(Too Many Requests)",
    ]
