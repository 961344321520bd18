"""After a round is saved the keyboard goes on at the next round's first field, and a screen
reader hears what happened: through htmx, and as a plain form post (no JavaScript)."""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import new_context
from tests.conftest import make_match, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fill_round(page: Page, points: list[int]) -> None:
    """The first player goes out with the nine of clubs, the others count these points."""
    for index, entry in enumerate(page.locator("#round-form fieldset.entry").all()):
        if index == 0:
            entry.locator("input[type=radio][value=out]").check()
            entry.locator("input[data-cards]").fill("9♣")
        else:
            entry.locator("input[type=radio][value=points]").check()
            entry.locator("input[type=number]").fill(str(points[index - 1]))


def focused(page: Page) -> str:
    """What has the keyboard's focus: its id, or its tag and class."""
    return page.evaluate(
        "() => document.activeElement.id || "
        "`${document.activeElement.tagName}.${document.activeElement.className}`"
    )


def first_field_id(page: Page) -> str:
    return page.locator("#round-form fieldset.entry input[type=radio]").first.get_attribute("id")


def test_after_saving_with_htmx_the_focus_is_on_the_next_rounds_first_field(
    page: Page, problems: list[str], alice, match, log_in
):
    log_in(alice)
    page.goto(match.get_absolute_url())
    fill_round(page, [10, 20])
    page.get_by_role("button", name="Save round").press("Enter")  # from the keyboard
    expect(page.locator("#round-form h2")).to_have_text("Round 2")
    expect(page.locator("#sheet-status")).to_have_text("Round 1 saved.")
    assert focused(page) == first_field_id(page) == "id_s0-kind_0"
    # The next round goes on from there, and its save is said again.
    fill_round(page, [5, 6])
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#round-form h2")).to_have_text("Round 3")
    expect(page.locator("#sheet-status")).to_have_text("Round 2 saved.")
    assert focused(page) == first_field_id(page)
    assert problems == []


def test_in_russian_the_status_says_so_in_russian(
    browser: Browser, live_server, alice, match, client
):
    client.force_login(alice)
    context = new_context(browser, live_server, "ru")
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(match.get_absolute_url())
        fill_round(page, [10, 20])
        page.locator("#round-form button[value=save]").click()
        expect(page.locator("#round-form h2")).to_have_text("Раунд 2")
        expect(page.locator("#sheet-status")).to_have_text("Раунд 1 сохранён.")
        assert focused(page) == first_field_id(page)
    finally:
        context.close()


def test_after_a_plain_post_the_focus_is_on_the_next_rounds_first_field(
    browser: Browser, live_server, alice, match, client
):
    client.force_login(alice)
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(match.get_absolute_url())
        fill_round(page, [10, 20])
        page.get_by_role("button", name="Save round").click()
        expect(page.locator("#round-form h2")).to_have_text("Round 2")
        expect(page.locator("#match-body .messages")).to_have_text("Round 1 saved.")
        assert focused(page) == first_field_id(page) == "id_s0-kind_0"
        # A visit afterwards is not sent to the form.
        page.reload()
        assert focused(page) == "BODY."
    finally:
        context.close()


def test_when_the_last_round_ends_the_match_the_focus_is_on_what_happened(
    page: Page, problems: list[str], alice, log_in
):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    record(match, alice, {"alice": {"out": "9C"}, "Dan": {"points": 90}, "Eve": {"points": 90}})
    log_in(alice)
    page.goto(match.get_absolute_url())
    fill_round(page, [20, 20])
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#match-body .final")).to_be_visible()
    expect(page.locator("#sheet-status")).to_have_text("Round 2 saved.")
    assert focused(page) == "DIV.messages"
    assert problems == []
