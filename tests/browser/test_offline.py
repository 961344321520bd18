"""Offline scoring in a real browser when the sheet moved on meanwhile: the rounds kept on the
phone are refused with the reason, shown, and put back in the form or discarded by a person;
never fitted onto the changed sheet."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import cut_network, restore_network
from tests.browser.test_club_night import enter_deal, wait_for_the_kept_copy
from tests.factories import make_match, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_rounds_kept_offline_on_a_sheet_that_moved_on_wait_for_a_person(
    page: Page, problems: list[str], alice, bob, log_in, t
):
    match = make_match(alice, ["alice", "bob", "Vera", "Gleb"])
    match.scorekeepers.add(bob)
    log_in(alice)
    page.goto(match.get_absolute_url())
    wait_for_the_kept_copy(page)
    cut_network(page.context)
    enter_deal(page, out=0, t=t)
    enter_deal(page, out=1, t=t)
    kept = page.locator("#outbox li.kept")
    expect(kept).to_have_count(2)

    # Meanwhile bob, on his own phone with a network, enters round 1.
    record(
        match,
        bob,
        {
            "alice": {"hand": "7C"},
            "bob": {"out": "QS"},
            "Vera": {"points": 5},
            "Gleb": {"points": 6},
        },
    )
    restore_network(page.context)
    expect(kept.first).to_contain_text(
        "not sent: The sheet changed while you were entering this round"
    )
    expect(kept.nth(1)).to_contain_text("Round 2 — waits for the round before it")
    # The sheet shows what is there now: bob's round 1 only; the next is round 2.
    expect(page.locator("#round-form h2")).to_have_text("Round 2")
    assert match.rounds.count() == 1

    # alice puts her first round back in the form: it is the sheet's round 2 now.
    kept.first.get_by_role("button", name="Put back in the form").click()
    expect(page.locator("#id_s0-cards")).to_have_value("7♣")
    expect(page.locator("#id_s1-points")).to_have_value("11")
    # The round after it was made on top of it, so it waits to be looked at too.
    expect(kept).to_have_count(1)
    expect(kept.first).to_contain_text("not sent: It was entered after a round that was not sent")
    page.once("dialog", lambda dialog: dialog.accept())
    kept.first.get_by_role("button", name="Discard").click()
    expect(page.locator("#outbox")).to_be_hidden()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".messages")).to_contain_text("Round 2 saved.")
    assert match.rounds.count() == 2
    # The one refusal, which the browser reports as any 4xx answer; nothing else went wrong.
    assert [problem.split(" http")[0] for problem in problems] == [
        "409 POST",
        "console: Failed to load resource: the server responded with a status of 409 (Conflict)",
    ]


def test_the_copy_kept_for_offline_is_the_sheet_without_the_message_of_a_visit(
    page: Page, problems: list[str], alice, log_in
):
    match = make_match(alice, ["alice", "Vera", "Gleb"])
    record(
        match,
        alice,
        {"alice": {"out": "7C"}, "Vera": {"points": 12}, "Gleb": {"points": 30}},
        {"alice": {"points": 8}, "Vera": {"out": "7C"}, "Gleb": {"points": 4}},
    )
    log_in(alice)
    page.goto(match.get_absolute_url())
    wait_for_the_kept_copy(page)
    # alice deletes round 2 (a confirmation page, then the sheet saying so).
    page.get_by_role("link", name="Delete round 2").click()
    page.get_by_role("button", name="Delete the round").click()
    expect(page.locator(".messages")).to_contain_text("Round 2 deleted.")
    # The phone keeps the sheet as it is now, not the message of that visit.
    wait_for_the_kept_copy(
        page, fits=lambda copy: "Delete round 1" in copy and "Round 2 deleted." not in copy
    )

    # Later, without a network, the sheet opens from the phone: one round, no message.
    address = page.url
    cut_network(page.context)
    page.close()
    page = page.context.new_page()
    page.goto(address)
    expect(page.locator("h1")).to_contain_text("alice")
    expect(page.locator("#sheet tbody tr")).to_have_count(1)
    expect(page.locator(".messages")).to_have_count(0)
    restore_network(page.context)
    assert problems == []
