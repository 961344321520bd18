"""After a round is saved the keyboard goes on at the next round's first field, and a screen
reader hears what happened: through htmx, and as a plain form post (no JavaScript)."""

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import in_russian, new_context
from tests.factories import make_match, record

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


def nobody_goes_out(page: Page) -> None:
    """Each player counts points: a round nobody went out of, which the rules refuse."""
    for entry in page.locator("#round-form fieldset.entry").all():
        entry.locator("input[type=radio][value=points]").check()
        entry.locator("input[type=number]").fill("10")


def save_is_refused_in_view(page: Page, t) -> str:
    """Save, from the button at the bottom of the form: why it was refused is above the form,
    far above the button, and the page goes there; the preview beside the button says it was
    not saved, and why, not that the round is being filled in. Returns why."""
    save = page.locator("#round-form button[value=save]")
    save.scroll_into_view_if_needed()
    save.click()
    error = page.locator("#round-form .errors[role=alert]").first
    expect(error).to_be_visible()
    expect(error).to_be_in_viewport()
    why = error.inner_text().strip()
    preview = page.locator("#preview")
    expect(preview).to_have_text(t("Not saved: %(why)s", why=why))
    expect(preview).not_to_contain_text(
        t("Scores and new totals show here as you fill in the round.")
    )
    return why


@in_russian
def test_on_a_phone_a_refused_save_is_brought_into_view_and_the_preview_says_it_was_not_saved(
    page: Page, problems: list[str], alice, match, log_in, t
):
    log_in(alice)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(match.get_absolute_url())
    # A round the rules refuse.
    nobody_goes_out(page)
    refused = save_is_refused_in_view(page, t)
    # A good round, on a sheet someone else moved on meanwhile: refused as made on the sheet
    # before.
    fill_round(page, [10, 20])
    record(match, alice, {"alice": {"out": "9C"}, "Dan": {"points": 5}, "Eve": {"points": 6}})
    assert save_is_refused_in_view(page, t) != refused
    assert problems == []
