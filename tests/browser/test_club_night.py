"""A club night in a real browser: a latecomer joins round 1 when the director seats it again,
a player finds their table from the home page, and the projector shows the winner at the end."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import play_out
from tests.tournaments.conftest import enter, make_tournament
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_latecomer_joins_round_1_and_a_player_finds_their_table(
    page: Page, problems: list[str], alice, bob, log_in
):
    tournament = make_tournament(alice, rounds_planned=1)
    enter(tournament, ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "bob"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    log_in(alice)

    # The latecomer arrives after round 1 was seated: added, they would wait for round 2...
    page.goto(f"/tournaments/{tournament.pk}/players/")
    page.get_by_label("Players", exact=True).fill("Late")
    page.get_by_label("Checked in already").check()
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".players-table")).to_contain_text("joins in round 2")
    # ...but nobody has played yet, so the director seats round 1 again, after confirming.
    page.goto(f"/tournaments/{tournament.pk}/rounds/1/")
    asked = []

    def confirm(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", confirm)
    page.get_by_role("button", name="Seat this round again").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 has been seated again.")
    assert asked and asked[0].startswith("Seat this round again?")
    seated = page.locator("#tables .table-seats li .name").all_inner_texts()
    assert sorted(seated) == sorted(
        ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "bob", "Late"]
    )

    # bob, on his phone, finds his table on the home page and opens its score sheet.
    page.context.clear_cookies()
    log_in(bob)
    page.goto("/")
    seat_now = page.locator("a.seat-now")
    expect(seat_now).to_contain_text("Club night · Round 1")
    expect(seat_now).to_contain_text(re.compile(r"Table \d, seat \d"))
    seat_now.click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("h1")).to_contain_text("bob")

    # Every table finished and the round closed: the projector shows the final standings.
    round_ = tournament.rounds.get()
    for table in round_.tables.select_related("match"):
        play_out(table.match, alice)
    services.close_round(round_=round_, by=alice)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"/tournaments/{tournament.pk}/projector/")
    expect(page.locator(".round-name")).to_have_text("Final standings")
    expect(page.locator(".projector-winner")).to_contain_text("Winner:")
    expect(page.locator(".projector-standings li")).to_have_count(8)
    expect(page.locator("#screen a, #screen button")).to_have_count(0)
    assert problems == []
