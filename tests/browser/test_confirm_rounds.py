"""Confirmed results in real browsers: alice enters a round at her table on her phone, and carol,
at the same table, confirms it on hers."""

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import in_both_languages, new_context
from tests.browser.test_focus_after_save import fill_round
from tests.conftest import counts_tables_of
from tests.tournaments.conftest import enter, make_tournament
from tournaments import services as tournaments

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@in_both_languages
def test_alice_enters_a_round_and_carol_confirms_it_on_her_own_phone(
    page: Page,
    problems: list[str],
    browser: Browser,
    live_server,
    alice,
    bob,
    carol,
    log_in,
    language,
    t,
):
    # bob directs; alice and carol play each other at a table of two.
    counts_tables_of(alice, bob)
    counts_tables_of(carol, bob)
    tournament = make_tournament(bob, name="Клубный вечер", confirm_results=True, table_size=2)
    enter(tournament, ["alice", "carol"], bob)
    match = tournaments.seat_next_round(tournament=tournament, by=bob).tables.get().match

    log_in(alice)
    page.goto(match.get_absolute_url())
    fill_round(page, [30])
    page.locator("#round-form button[value=save]").click()
    expect(page.locator("#match-body .messages")).to_have_text(
        t("Round %(number)s saved.", number=1)
    )
    waits = t("waits for confirmation")
    expect(page.locator("#sheet tbody tr").first.get_by_role("img", name=waits)).to_be_visible()
    # alice entered it: no button for her to confirm it herself.
    expect(page.get_by_role("button", name=t("Confirm round %(number)s", number=1))).to_have_count(
        0
    )

    # carol, on her own phone (a session of her own: logging her in on alice's would end
    # alice's).
    hers_client = Client()
    hers_client.force_login(carol)
    phone = new_context(browser, live_server, language)
    cookie = hers_client.cookies["sessionid"]
    phone.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    try:
        hers = phone.new_page()
        hers.goto(match.get_absolute_url())
        expect(hers.locator("#sheet tbody tr").first.get_by_role("img", name=waits)).to_be_visible()
        hers.get_by_role("button", name=t("Confirm round %(number)s", number=1)).click()
        expect(hers.locator("#match-body .messages")).to_have_text(
            t("Round %(number)s confirmed.", number=1)
        )
        expect(hers.get_by_role("img", name=waits)).to_have_count(0)
    finally:
        phone.close()

    # alice's sheet follows (the match's version moved): confirmed by carol, and alice is
    # still signed in on her phone.
    page.reload()
    expect(page.get_by_role("img", name=waits)).to_have_count(0)
    expect(page.locator("#round-form")).to_be_visible()
    match.refresh_from_db()
    assert match.rounds.get().confirmed_by == carol
    assert problems == []
