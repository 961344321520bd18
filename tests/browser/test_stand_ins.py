"""A director types a registered player's username; the player, on their phone in Russian,
finds the request on their home page, confirms in one tap, and keeps their table's score."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import in_russian
from tests.tournaments.factories import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), in_russian]


def test_a_player_the_director_typed_confirms_on_the_home_page_and_keeps_score(
    page: Page, problems: list[str], alice, django_user_model, log_in, t, context
):
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "dave-password")
    tournament = make_tournament(alice)
    page.set_viewport_size({"width": 390, "height": 844})

    # The director adds four names, one of them dave's username, and is told at once.
    log_in(alice)
    page.goto(f"/tournaments/{tournament.pk}/players/")
    page.get_by_label(t("Players"), exact=True).fill("Анна\nБорис\nВера\ndave")
    page.get_by_label(t("Checked in already")).check()
    page.get_by_role("button", name=t("Add"), exact=True).click()
    expect(page.locator(".messages")).to_contain_text(
        "У dave есть учётная запись: пока владелец не подтвердит, что это он, в турнир внесён "
        "гость с этим именем."
    )
    page.goto(tournament.get_absolute_url())
    page.get_by_role("button", name=t("Seat round %(number)s", number=1)).click()
    expect(page.locator("#tables .table-card")).to_have_count(1)

    # dave, on his phone: the home page asks, one tap answers.
    context.clear_cookies()
    log_in(dave)
    page.goto("/")
    request = page.locator(".to-confirm")
    expect(request.get_by_role("heading")).to_have_text("Это вы — «dave»?")
    expect(request).to_contain_text("alice вписывает «dave» как вашу учётную запись.")
    request.get_by_role("button", name=t("Confirm: it is me")).click()
    expect(page.locator(".messages")).to_contain_text(
        "Подтверждено: «dave» — это вы, места и результаты теперь ваши."
    )
    expect(page.locator(".to-confirm")).to_have_count(0)

    # His table is his now: he opens it from the home page and may keep its score.
    page.locator("a.seat-now").first.click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("#round-form")).to_be_visible()
