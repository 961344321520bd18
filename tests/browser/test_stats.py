"""Statistics in a real browser: after the demo, a visitor opens the leaderboard, a profile
with its charts, and a head-to-head page."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo_loaded():
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115


def test_a_visitor_browses_the_leaderboard_a_profile_and_a_head_to_head(
    page: Page, problems: list[str], demo_loaded
):
    page.goto("/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Players").click()
    expect(page.get_by_role("heading", name="Players", level=1)).to_be_visible()
    board = page.locator("table.leaderboard")
    expect(board.locator("tbody tr").first).to_be_visible()

    # The best-rated classic player's profile, from the leaderboard.
    first = board.locator("tbody tr").first.get_by_role("link")
    name = first.inner_text()
    first.click()
    expect(
        page.get_by_role("heading", name=re.compile(f"^{re.escape(name)}"), level=1)
    ).to_be_visible()
    expect(page.locator("svg.chart polyline.rating-line")).to_be_visible()
    expect(page.locator("svg.chart rect.place-bar").first).to_be_visible()
    matches = page.locator(".figures div").filter(has=page.get_by_text("Matches", exact=True))
    assert int(matches.locator("dd").inner_text()) >= 10

    # Narrowed to one preset by the filters form.
    page.get_by_label("Rules").select_option("aaow")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"preset=aaow"))

    # Head-to-head with the opponent met most.
    page.locator("table.players-table tbody tr").first.get_by_role("link").click()
    expect(
        page.get_by_role("heading", name=re.compile(f"^{re.escape(name)} against "))
    ).to_be_visible()
    expect(page.locator("table.players-table tbody tr").first).to_be_visible()
    assert problems == []
