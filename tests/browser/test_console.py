"""The browser's console stays quiet on the pages people open at a club night: no error and
no warning (an unknown Permissions-Policy feature, a refused script) to hide the ones that
matter."""

import pytest
from django.urls import reverse
from playwright.sync_api import ConsoleMessage, Page

from tests.browser.conftest import in_both_languages
from tests.conftest import make_match
from tests.tournaments.conftest import make_tournament

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
