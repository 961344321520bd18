"""The projector at every common screen size, in English and Russian: every standings line on
the screen is whole inside it, and the lines not on it are on another page of the standings."""

import re

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.helpers import in_both_languages, new_context
from tests.factories import play_out
from tests.tournaments.factories import enter, make_tournament
from tournaments import services
from tournaments.views import PROJECTOR_LINES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [
    (1280, 720),
    (1366, 768),
    (1440, 900),
    (1536, 864),
    (1920, 1080),
    (2560, 1440),
    (1080, 1920),  # a screen turned upright
]
# Twenty players: more than a page of standings, so two pages. Long names, as clubs have them.
NAMES = [
    f"{first} {last}"
    for first, last in zip(
        ["Александра", "Константин", "Вениамин", "Екатерина", "Маргарита"] * 4,
        ["Преображенская", "Добровольский", "Рождественский", "Верещагина"] * 5,
        strict=True,
    )
]
NAMES = [f"{name} {index}" for index, name in enumerate(NAMES, start=1)]


@pytest.fixture
def finished(alice):
    """One round played and closed by twenty players: the final screen, with its winner."""
    tournament = make_tournament(
        alice, name="Большой клубный турнир по Сто одному", rounds_planned=1
    )
    enter(tournament, NAMES, alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    for table in round_.tables.select_related("match"):
        play_out(table.match, alice)
    services.close_round(round_=round_, by=alice)
    return tournament


@pytest.fixture
def mid_round(alice):
    """Round 2 being played after round 1: standings beside the tables."""
    tournament = make_tournament(alice, name="Большой клубный турнир по Сто одному")
    enter(tournament, NAMES, alice)
    first = services.seat_next_round(tournament=tournament, by=alice)
    for table in first.tables.select_related("match"):
        play_out(table.match, alice)
    services.close_round(round_=first, by=alice)
    services.seat_next_round(tournament=tournament, by=alice)
    return tournament


def lines_outside(page: Page) -> tuple[list[str], list[str]]:
    """The standings lines of the screen, and those of them (or of the round's tables) not
    whole inside the viewport."""
    return page.evaluate(
        """() => {
          const whole = (box) => box.top >= 0 && box.left >= 0 && box.height >= 1
            && box.bottom <= innerHeight + 0.5 && box.right <= innerWidth + 0.5;
          const lines = Array.from(document.querySelectorAll(".projector-standings li"));
          const tables = Array.from(document.querySelectorAll(".projector-tables > li"));
          const name = (line) => line.querySelector(".name, strong").textContent;
          const outside = [...lines, ...tables].filter((l) => !whole(l.getBoundingClientRect()));
          return [lines.map(name), outside.map(name)];
        }"""
    )


def check_every_size(browser: Browser, live_server, tournament, language: str, names=NAMES) -> None:
    context = new_context(browser, live_server, language)
    page = context.new_page()
    try:
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            seen: list[str] = []
            pages = 1
            number = 1
            while number <= pages:
                page.goto(f"/tournaments/{tournament.pk}/projector/?page={number}")
                heading = page.locator(".projector-standings").locator("xpath=..").locator("h2")
                counter = re.search(r"(\d+) / (\d+)", heading.inner_text())
                pages = int(counter[2]) if counter else 1
                shown, outside = lines_outside(page)
                assert outside == [], (
                    f"{language} {width}×{height}, page {number}: {outside} cut off"
                )
                seen += shown
                number += 1
            expected_pages = -(-len(names) // PROJECTOR_LINES)
            assert pages == expected_pages, f"{language} {width}×{height}: {pages} pages"
            assert sorted(seen) == sorted(names), f"{language} {width}×{height}: lines missing"
    finally:
        context.close()


@in_both_languages
def test_the_final_screen_shows_every_line_whole_at_every_size(
    browser: Browser, live_server, finished, language
):
    check_every_size(browser, live_server, finished, language)


@in_both_languages
def test_a_round_in_play_shows_every_line_whole_at_every_size(
    browser: Browser, live_server, mid_round, language
):
    check_every_size(browser, live_server, mid_round, language)


@in_both_languages
def test_ten_tables_in_play_fit_beside_the_standings_at_every_size(
    browser: Browser, live_server, alice, language
):
    tournament = make_tournament(alice, name="Сорок игроков")
    names = [f"Игрок Номер {number}" for number in range(40)]
    enter(tournament, names, alice)
    services.seat_next_round(tournament=tournament, by=alice)
    check_every_size(browser, live_server, tournament, language, names)


LONG_TITLE = "Открытый осенний кубок клуба «Сто одно» имени Василия Петровича Преображенского"


@pytest.mark.parametrize("language", ["ru"])
def test_fourteen_players_fit_on_one_page_under_a_long_title_that_is_never_cut(
    browser: Browser, live_server, alice, language
):
    tournament = make_tournament(alice, name=LONG_TITLE, rounds_planned=1)
    names = NAMES[:14]
    enter(tournament, names, alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    for table in round_.tables.select_related("match"):
        play_out(table.match, alice)
    services.close_round(round_=round_, by=alice)
    context = new_context(browser, live_server, language)
    page = context.new_page()
    try:
        for width, height in [(1920, 1080), (1280, 720)]:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"/tournaments/{tournament.pk}/projector/")
            shown, outside = lines_outside(page)
            assert sorted(shown) == sorted(names), f"{width}×{height}: not all on the first page"
            assert outside == [], f"{width}×{height}: {outside} cut off"
            heading = page.locator(".projector-standings").locator("xpath=..").locator("h2")
            assert not re.search(r"\d+ / \d+", heading.inner_text())  # no paging
            title = page.locator(".projector-head h1")
            assert title.inner_text() == LONG_TITLE
            # Nor are the winners, several sharing first place with long names.
            for box in (title, page.locator(".projector-title"), page.locator(".projector-winner")):
                scroll, client = box.evaluate("(box) => [box.scrollWidth, box.clientWidth]")
                assert scroll <= client, f"{width}×{height}: {box} is cut"
            whole = title.evaluate(
                "(h) => { const b = h.getBoundingClientRect();"
                " return b.top >= 0 && b.bottom <= innerHeight && b.right <= innerWidth; }"
            )
            assert whole, f"{width}×{height}: the title is not whole on the screen"
    finally:
        context.close()
