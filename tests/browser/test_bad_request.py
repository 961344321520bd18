"""A request the site refuses for a character it cannot store shows why, even when htmx sent
it: the reason replaces the page's main part instead of nothing happening."""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.browser.helpers import in_both_languages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@in_both_languages
def test_an_htmx_request_with_a_nul_shows_the_reason_on_the_page(
    page: Page, problems: list[str], live_server, t
):
    page.goto(live_server.url + reverse("games:match_list"))
    # What a search field holding a pasted NUL would send.
    page.evaluate(
        """htmx.ajax("GET", "/matches/?player=a%00b", {target: "#match-list", swap: "outerHTML"})"""
    )
    reason = t(
        "The address holds a character the site cannot take (%(code)s): check the link.",
        code="U+0000",
    )
    expect(page.locator("main h1")).to_have_text(t("Bad request"))
    expect(page.locator("main")).to_contain_text(reason)
    # The refusal itself is what a developer sees in the console, and nothing else.
    assert [problem for problem in problems if "400" not in problem] == []
