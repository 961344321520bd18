"""Confirmed results in real browsers: alice enters a round at her table on her phone, and carol,
at the same table, confirms it on hers."""

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import in_both_languages, new_context
from tests.browser.test_focus_after_save import fill_round
from tests.factories import counts_tables_of
from tests.tournaments.factories import enter, make_tournament
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


PHONE = {"width": 390, "height": 844}


@in_both_languages
def test_carol_types_her_own_version_previews_it_and_bob_settles_the_dispute(
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
    # bob directs; alice and carol play each other at a table of two, results confirmed.
    counts_tables_of(alice, bob)
    counts_tables_of(carol, bob)
    tournament = make_tournament(bob, name="Клубный вечер", confirm_results=True, table_size=2)
    enter(tournament, ["alice", "carol"], bob)
    match = tournaments.seat_next_round(tournament=tournament, by=bob).tables.get().match

    log_in(alice)
    page.goto(match.get_absolute_url())
    fill_round(page, [30])  # alice went out with 9♣, carol kept 30
    page.locator("#round-form button[value=save]").click()
    expect(page.locator("#match-body .messages")).to_have_text(
        t("Round %(number)s saved.", number=1)
    )

    # carol, on her phone, saw it otherwise: she kept K♠ and 7♥, and taps them in the grid.
    hers_client = Client()
    hers_client.force_login(carol)
    phone = new_context(browser, live_server, language)
    cookie = hers_client.cookies["sessionid"]
    phone.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    try:
        hers = phone.new_page()
        seen: list[str] = []
        hers.on("response", lambda r: r.status >= 400 and seen.append(f"{r.status} {r.url}"))
        hers.on("pageerror", lambda error: seen.append(str(error)))
        hers.set_viewport_size(PHONE)
        hers.goto(match.get_absolute_url())
        check = hers.locator("form.check-form")
        entries = check.locator("fieldset[data-entry]")
        entries.nth(0).locator("input[type=radio][value=out]").check()
        entries.nth(0).locator("input[data-cards]").fill("9♣")
        entries.nth(1).locator("input[type=radio][value=hand]").check()
        for card in ("KS", "7H"):
            button = entries.nth(1).locator(f"button[data-card='{card}']")
            button.click()
            expect(button).to_have_attribute("aria-pressed", "true")
        # The live preview answers with her scores, and the page stays the sheet.
        preview = hers.locator("#preview")
        expect(preview.locator("caption")).to_have_text(t("If saved"))
        expect(preview.locator("tbody tr").nth(1).locator("td").first).not_to_have_text("+30")
        expect(hers.locator("h1")).to_have_count(1)
        hers.get_by_role("button", name=t("Save round")).click()
        expect(hers.locator("#match-body .messages")).to_contain_text(
            t(
                "Your entry of round %(number)s differs from the first: both are shown on the "
                "sheet until a director chooses one.",
                number=1,
            )
        )
        expect(hers.locator("table.versions tr.differs")).to_have_count(1)
        assert seen == []
    finally:
        phone.close()

    # bob, who directs, takes carol's entry.
    context = new_context(browser, live_server, language)
    director = Client()
    director.force_login(bob)
    context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": director.cookies["sessionid"].value,
                "url": live_server.url,
            }
        ]
    )
    try:
        his = context.new_page()
        his.goto(match.get_absolute_url())
        his.get_by_role("button", name=t("Take the second entry")).click()
        expect(his.locator("#match-body .messages")).to_have_text(
            t("Round %(number)s changed to the second entry and confirmed.", number=1)
        )
        expect(his.locator("table.versions")).to_have_count(0)
    finally:
        context.close()
    round_ = match.rounds.get()
    assert round_.confirmed_by == bob
    assert problems == []
