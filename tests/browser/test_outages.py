"""The database away for a moment, in a real browser: a round saved from the form meets one
notice at the top of the sheet saying to try again in a few seconds, and stays in the form; a
round sent from the phone's outbox waits on the phone and goes by itself once the site takes it
again. Never lost, never a dead end."""

import pytest
from django.db import OperationalError
from playwright.sync_api import Page, expect

from games import services
from tests.browser.helpers import cut_network, restore_network
from tests.browser.test_club_night import enter_deal, wait_for_the_kept_copy
from tests.factories import make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AWAY = "The site cannot reach its database for a moment: try again in a few seconds."
FAILED = (
    "console: Failed to load resource: the server responded with a status of 503 "
    "(Service Unavailable)"
)


@pytest.fixture
def database_away(monkeypatch):
    """`database_away(True)`: saving a round meets the database away (the live server runs in
    this process); `database_away(False)`: it is back."""
    record_round = services.record_round

    def away(**round_):
        raise OperationalError("terminating connection due to administrator command")

    def switch(is_away: bool) -> None:
        monkeypatch.setattr(services, "record_round", away if is_away else record_round)

    return switch


def test_a_round_saved_while_the_database_is_away_says_to_try_again_and_stays_in_the_form(
    page: Page, problems: list[str], alice, bob, log_in, database_away, t
):
    match = make_match(alice, ["alice", "bob", "Vera", "Gleb"])
    log_in(alice)
    page.goto(match.get_absolute_url())
    database_away(True)
    enter_deal(page, out=0, t=t)

    notice = page.locator("#main > [data-database-away]")
    expect(notice).to_have_text(t(AWAY))
    # The sheet and the round typed into it are as they were.
    expect(page.locator("#id_s0-cards")).to_have_value("7♣")
    expect(page.locator("#id_s1-points")).to_have_value("11")
    # Tried again too soon: still one notice, not two.
    with page.expect_response(lambda response: response.status == 503):
        page.get_by_role("button", name=t("Save round")).click()
    expect(notice).to_have_count(1)
    assert match.rounds.count() == 0

    # Back: the round is saved and the notice goes.
    database_away(False)
    page.get_by_role("button", name=t("Save round")).click()
    expect(page.locator("#round-form h2")).to_have_text(t("Round %(number)s", number=2))
    expect(notice).to_have_count(0)
    assert match.rounds.count() == 1
    assert [problem.split(" http")[0] for problem in problems] == ["503 POST", FAILED] * 2


def test_a_round_from_the_outbox_while_the_database_is_away_waits_on_the_phone_and_goes_later(
    page: Page, problems: list[str], alice, bob, log_in, database_away, t
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

    # The network comes back while the site's database is away.
    database_away(True)
    restore_network(page.context)
    status = page.locator("#outbox-status")
    expect(status).to_contain_text(t(AWAY))
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

    # The database is back: the outbox sends the round by itself when it next looks (every
    # 20 s, static/js/outbox.js).
    database_away(False)
    page.clock.run_for(20_000)
    expect(page.locator("#outbox")).to_be_hidden()
    expect(status).to_contain_text(t("Sent from this phone: rounds %(rounds)s.", rounds="1"))
    assert match.rounds.count() == 1
    assert [problem.split(" http")[0] for problem in problems] == ["503 POST", FAILED]
