"""A club evening in Russian, in a real browser (ru-RU): the director creates a tournament
keeping the offered date, enters and checks in players, seats round 1, keeps score at a table
typing Russian card notation, shows the projector; a player opens their profile and its
charts. No server error, no console error, every page in Russian."""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.browser.helpers import in_russian
from tests.factories import make_match, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), in_russian]

PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Даша", "Егор", "Женя", "carol"]


def test_a_russian_director_runs_round_1_and_a_player_opens_their_charts(
    page: Page, problems: list[str], alice, carol, log_in, t
):
    # carol has a history: her profile draws a line and bars.
    for winner in (1, 0, 1, 2, 1):
        play_out(make_match(alice, ["alice", "carol", "Дан"]), alice, winner_index=winner)
    log_in(alice)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")

    # A new tournament: the date offered is today's, and it is kept as it is.
    page.get_by_role("navigation").get_by_role("link", name=t("Tournaments")).click()
    page.get_by_role("link", name=t("New tournament")).click()
    today = timezone.localdate().isoformat()
    expect(page.locator("#id_date")).to_have_value(today)
    page.locator("#id_name").fill("Осенний кубок")
    page.locator("#id_rounds_planned").fill("1")
    page.get_by_role("radio", name=t("after a fixed number of deals, ranked by totals")).check()
    page.locator("#id_deals_per_match").fill("1")
    page.get_by_role("button", name=t("Create the tournament")).click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/players/$"))
    tournament_url = page.url.removesuffix("players/")

    # Eight players, checked in as they are added.
    page.get_by_label(t("Players"), exact=True).fill("\n".join(PLAYERS))
    page.get_by_label(t("Checked in already")).check()
    page.get_by_role("button", name=t("Add"), exact=True).click()
    expect(page.locator(".players-table tbody tr")).to_have_count(8)

    # The tournament page counts them ("8 игроков") and seats round 1 (it answered 500 here).
    page.locator(".crumbs").get_by_role("link", name="Осенний кубок").click()
    expect(page.locator(".director-bar")).to_contain_text("Записано 8 игроков")
    page.get_by_role("button", name=t("Seat round %(number)s", number=1)).click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/rounds/1/$"))
    expect(page.locator(".messages")).to_contain_text("Тур 1")
    expect(page.locator("#tables .table-card")).to_have_count(2)

    # Table 1's score sheet: one deal typed in Russian notation (Т туз, Д дама; п пики,
    # ч черви, б бубны): out with Тп (0), Дч 10б (3 + 10), 8п (8), and 15 points counted.
    page.locator("#tables .table-card").first.get_by_role(
        "link", name=re.compile(t("Enter scores"))
    ).click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    entries = page.locator("#round-form fieldset.entry")
    typed = [("went out", "Тп"), ("cards left", "Дч 10б"), ("cards left", "8п")]
    for index, (kind, cards) in enumerate(typed):
        entries.nth(index).get_by_label(t(kind), exact=True).check()
        entries.nth(index).locator("input[data-cards]").fill(cards)
    entries.nth(3).get_by_label(t("points"), exact=True).check()
    entries.nth(3).get_by_label(t("Points"), exact=True).fill("15")
    expect(page.locator("#preview tbody td:nth-child(3)")).to_have_text(["0", "13", "8", "15"])
    page.get_by_role("button", name=t("Save round")).click()
    expect(page.locator("#match-body .messages")).to_have_text("Раунд 1 сохранён.")
    expect(page.locator("#sheet tfoot td")).to_have_text(["0", "13", "8", "15"])
    expect(page.locator("#match-body .final h2")).to_have_text(t("Final ranking"))

    # The projector, at a laptop's size: the round, its tables, the standings.
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(tournament_url)
    page.get_by_role("link", name=t("Projector")).click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator(".projector-standings li")).to_have_count(8)

    # carol opens her profile: the charts are drawn with numbers the browser reads.
    page.context.clear_cookies()
    log_in(carol)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/players/")
    page.get_by_role("link", name="carol").first.click()
    # Her five matches and, if its table is rated by now, the tournament's.
    dots = page.locator("svg.chart circle.rating-dot")
    expect(dots.nth(4)).to_be_attached()
    count = dots.count()
    xs = [float(dots.nth(i).get_attribute("cx")) for i in range(count)]
    assert xs == sorted(xs) and len(set(xs)) == count, xs
    boxes = [dots.nth(i).bounding_box() for i in range(count)]
    assert len({round(box["x"]) for box in boxes}) == count, "the points collapse together"
    expect(page.locator("svg.chart rect.place-bar")).to_have_count(count)
    assert problems == []


def test_the_date_offered_is_todays_in_russian_and_a_date_typed_is_kept(
    page: Page, problems: list[str], alice, log_in
):
    log_in(alice)
    page.goto("/tournaments/new/")
    date = page.locator("#id_date")
    expect(date).to_have_value(timezone.localdate().isoformat())
    date.fill((timezone.localdate() + datetime.timedelta(days=3)).isoformat())
    expect(date).to_have_value((timezone.localdate() + datetime.timedelta(days=3)).isoformat())
    assert problems == []
