"""A round half entered on the score sheet outlives a reload (static/js/outbox.js keeps it in
the tab's storage), and is gone once saved, or once the sheet has moved on without it."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import in_both_languages
from tests.browser.test_focus_after_save import fill_round
from tests.factories import record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def typed(page: Page) -> list[str]:
    """What the round form's text and number fields hold, player by player."""
    fields = page.locator("#round-form fieldset.entry").locator(
        "input[data-cards], input[type=number]"
    )
    return [field.input_value() for field in fields.all()]


@in_both_languages
def test_a_half_entered_round_is_back_after_a_reload_and_gone_once_saved(
    page: Page, problems: list[str], alice, match, log_in, t
):
    log_in(alice)
    page.goto(match.get_absolute_url())
    entries = page.locator("#round-form fieldset.entry")
    # alice went out with the nine of clubs, Dan counted 10; Eve is not entered yet.
    entries.nth(0).locator("input[type=radio][value=out]").check()
    entries.nth(0).locator("input[data-cards]").fill("9♣")
    entries.nth(1).locator("input[type=radio][value=points]").check()
    entries.nth(1).locator("input[type=number]").fill("10")

    page.reload()
    expect(entries.nth(0).locator("input[type=radio][value=out]")).to_be_checked()
    expect(entries.nth(0).locator("input[data-cards]")).to_have_value("9♣")
    expect(entries.nth(1).locator("input[type=radio][value=points]")).to_be_checked()
    expect(entries.nth(1).locator("input[type=number]")).to_have_value("10")
    expect(entries.nth(2).locator("input[type=number]")).to_have_value("")

    # Finished and saved: a reload shows the next round's form, empty.
    fill_round(page, [10, 20])
    page.locator("#round-form button[value=save]").click()
    expect(page.locator("#round-form h2")).to_have_text(t("Round %(number)s", number=2))
    page.reload()
    expect(page.locator("#round-form h2")).to_have_text(t("Round %(number)s", number=2))
    assert all(value == "" for value in typed(page))
    assert problems == []


def test_a_draft_of_a_sheet_that_moved_on_is_not_put_back(
    page: Page, problems: list[str], alice, match, log_in
):
    log_in(alice)
    page.goto(match.get_absolute_url())
    fill_round(page, [10, 20])
    # Someone else saves round 1 meanwhile: the half-typed round was made on the sheet before.
    record(match, alice, {"alice": {"out": "9C"}, "Dan": {"points": 5}, "Eve": {"points": 6}})
    page.reload()
    expect(page.locator("#round-form h2")).to_have_text("Round 2")
    assert all(value == "" for value in typed(page))
    assert problems == []


def test_a_reset_form_forgets_its_draft(page: Page, problems: list[str], alice, match, log_in):
    log_in(alice)
    page.goto(match.get_absolute_url())
    fill_round(page, [10, 20])
    page.evaluate("document.getElementById('round-form').reset()")
    page.reload()
    expect(page.locator("#round-form h2")).to_have_text("Round 1")
    assert all(value == "" for value in typed(page))
    assert problems == []
