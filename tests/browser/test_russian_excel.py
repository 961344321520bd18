"""The standings a Russian director downloads for Excel: the Russian page links the file
separated by ";", whose fractions are written with a decimal comma ("1,5", a number to Excel in
Russian, where "1.5" is a date or text), and the site reads that file back as a list of players
for the next tournament."""

import csv
import io

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import in_russian
from tests.factories import play_out
from tests.tournaments.factories import enter, make_tournament
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), in_russian]

PLAYERS = ["Анна", "Борис", "Вера"]


def test_the_standings_for_russian_excel_have_decimal_commas_and_are_read_back(
    page: Page, problems: list[str], alice, log_in, t
):
    tournament = make_tournament(alice, table_size=3)
    enter(tournament, PLAYERS, alice)
    table = services.seat_next_round(tournament=tournament, by=alice).tables.get()
    play_out(table.match, alice)
    services.close_table(table=table, by=alice)
    next_one = make_tournament(alice, name="Следующий вечер")
    log_in(alice)

    page.goto(tournament.get_absolute_url())
    with page.expect_download() as downloading:
        page.get_by_role("link", name=t("Standings (CSV)")).click()
    saved = downloading.value.path()
    data = saved.read_bytes()
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:3] == ["Место", "Игрок", "Очки"]
    # At a table of 3 the places earn 3, 1,5 and 0 points.
    assert sorted(row[2] for row in rows[1:]) == ["0", "1,5", "3"]

    page.goto(f"/tournaments/{next_one.pk}/players/")
    page.get_by_label(t("CSV file")).set_input_files(saved)
    page.get_by_role("button", name=t("Read the file")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(t("Import a list"))
    expect(page.locator("main")).to_contain_text(t("Cells separated by semicolons"))
    expect(page.locator(".import-list li")).to_have_text([row[1] for row in rows[1:]])
    page.locator("form:has(input[value=import_confirm])").get_by_role("button").click()
    expect(page.locator(".players-table tbody tr")).to_have_count(3)
