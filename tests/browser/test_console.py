"""The browser's console stays quiet on the pages people open at a club night: no error and
no warning (an unknown Permissions-Policy feature, a refused script) to hide the ones that
matter."""

import pytest
from django.urls import reverse
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.browser.helpers import in_both_languages
from tests.browser.test_focus_after_save import fill_round
from tests.factories import make_match
from tests.tournaments.factories import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@in_both_languages
def test_the_pages_of_a_club_night_log_nothing_to_the_console(
    page: Page, problems: list[str], alice, log_in
):
    match = make_match(alice, ["alice", "Вера", "Глеб"])
    tournament = make_tournament(alice)
    said: list[str] = []
    at = [""]

    def heard(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            said.append(f"{at[0]}: {message.type}: {message.text}")

    page.on("console", heard)
    log_in(alice)
    for path in (
        reverse("home"),
        reverse("games:match_list"),
        match.get_absolute_url(),
        reverse("stats:profile", args=[alice.player.pk]),
        reverse("games:rules"),
        tournament.get_absolute_url(),
        reverse("tournaments:projector", args=[tournament.pk]),
        reverse("play:lobby"),
    ):
        at[0] = path
        page.goto(path)
        page.wait_for_load_state("load")
    assert said == []
    assert problems == []


def test_saving_a_round_on_a_sheet_whose_fields_a_browser_extension_styled_breaks_no_policy(
    page: Page, problems: list[str], alice, match, log_in
):
    """A password manager or a translator sets styles on the fields it touches; when htmx
    swaps the sheet it copied those style attributes across, and our Content Security Policy
    (no inline styles) refused each one: five errors in the console on every save."""
    page.add_init_script(
        "window.refused = [];"
        "document.addEventListener('securitypolicyviolation',"
        " (event) => window.refused.push(`${event.violatedDirective} ${event.sample}`));"
    )
    log_in(alice)
    page.goto(match.get_absolute_url())
    page.evaluate(
        "() => document.querySelectorAll('#round-form input[id]').forEach("
        " (field) => { field.style.backgroundImage = 'none'; field.style.paddingRight = '2em'; })"
    )
    fill_round(page, [10, 20])
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#sheet-status")).to_have_text("Round 1 saved.")
    page.wait_for_function("!document.querySelector('.htmx-settling, .htmx-swapping')")
    assert page.evaluate("window.refused") == []
    assert problems == []
