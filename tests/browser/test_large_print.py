"""Large print in a real browser, on a phone, in Russian: the score sheet, the board of a
played table and the tournament page read larger with it than without, and nothing is wider
than the phone (a sheet of four scrolls only inside its own box)."""

import itertools

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from cards101.engine import Game
from cards101.rules import PRESETS
from play import services as play
from tests.browser.helpers import in_russian
from tests.factories import make_match, record
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# What each page's reader looks at across a table: the element whose type must grow.
KEY_ELEMENTS = {
    "sheet": [".sheet tbody .total", ".sheet tbody .score", ".sheet thead th", ".sheet .sum"],
    "board": [".hand .card", ".table-centre", ".opponent .total", ".board-status"],
    "tournament": [".table-head strong", ".table-seats .total", ".standings-table td.pts"],
}

FONT_SIZES = """selectors => selectors.map(selector => {
  const element = document.querySelector(selector);
  return element ? parseFloat(getComputedStyle(element).fontSize) : null;
})"""

# Elements that reach past the phone's right edge, other than inside a box that scrolls
# sideways on purpose (the sheet's and the standings' .table-wrap).
STICKING_OUT = """() => [...document.querySelectorAll("body *")].filter(element => {
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.right > innerWidth + 0.5 && !element.closest(".table-wrap");
}).map(element => element.tagName + "." + element.className)"""

# The sheet's words under a total ("проигрыш", "обнуление") that spill out of their cell.
SPILLING_BADGES = """() => [...document.querySelectorAll(".sheet .event")].filter(badge => {
  const cell = badge.closest("td").getBoundingClientRect(), box = badge.getBoundingClientRect();
  return box.left < cell.left - 0.5 || box.right > cell.right + 0.5;
}).map(badge => badge.textContent)"""


# A cell of the sheet wholly inside the box it scrolls in.
INSIDE_ITS_BOX = """cell => {
  const box = cell.closest(".table-wrap").getBoundingClientRect();
  const own = cell.getBoundingClientRect();
  return own.left >= box.left - 0.5 && own.right <= box.right + 0.5;
}"""


def font_sizes(page: Page, name: str) -> list[float]:
    sizes = page.evaluate(FONT_SIZES, KEY_ELEMENTS[name])
    assert None not in sizes, (name, dict(zip(KEY_ELEMENTS[name], sizes, strict=True)))
    return sizes


def assert_fits_the_phone(page: Page, name: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("innerWidth"), (name, width)
    assert page.evaluate(STICKING_OUT) == [], name


def deal(out: str, points: dict[str, int]) -> dict:
    """A round alice ends by going out with `out`; the others' counted points."""
    return {"alice": {"out": out}} | {name: {"points": count} for name, count in points.items()}


@pytest.fixture
def evening(alice):
    """alice's four-player sheet with a player lost and one reset to 0, her played table (her
    move, a card on the pile) and her tournament in its first round."""
    sheet = make_match(alice, ["alice", "Анна", "Борис", "Вера"])
    record(
        sheet,
        alice,
        deal("7C", {"Анна": 50, "Борис": 20, "Вера": 60}),
        deal("8C", {"Анна": 51, "Борис": 10, "Вера": 45}),  # Анна on 101: 0; Вера over: lost
        deal("9C", {"Анна": 12, "Борис": 33}),
    )
    seed = next(s for s in itertools.count() if Game.new(PRESETS["classic"], 4, s).to_move == 0)
    table = play.create_table(
        by=alice,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "greedy", "greedy", "greedy"],
        seed=seed,
    )
    tournament = make_tournament(alice, name="Пятничный турнир")
    enter(tournament, ["alice", "Дмитрий", "Евгения", "Жанна", "Зоя", "Игорь", "Кира"], alice)
    tournaments.seat_next_round(tournament=tournament, by=alice)
    return {
        "sheet": sheet.get_absolute_url(),
        "board": table.get_absolute_url(),
        "tournament": reverse("tournaments:detail", args=[tournament.pk]),
    }


@in_russian
def test_large_print_makes_the_sheet_the_board_and_the_tournament_larger_on_a_phone(
    page: Page, problems: list[str], log_in, alice, evening, t
):
    page.set_viewport_size(PHONE)
    log_in(alice)
    normal = {}
    for name, path in evening.items():
        page.goto(path)
        normal[name] = font_sizes(page, name)
        assert_fits_the_phone(page, name)

    # alice switches it on at the foot of the page: her account's setting.
    page.get_by_role("button", name=t("Large print"), exact=True).click()
    expect(page.locator("html")).to_have_class("large")
    expect(page.get_by_text(t("Large print is on."))).to_be_visible()
    expect(page.get_by_role("button", name=t("Normal print"), exact=True)).to_be_visible()

    for name, path in evening.items():
        page.goto(path)
        expect(page.locator("html")).to_have_class("large")
        large = font_sizes(page, name)
        grown = dict(zip(KEY_ELEMENTS[name], zip(normal[name], large, strict=True), strict=True))
        assert all(after > before for before, after in grown.values()), (name, grown)
        assert_fits_the_phone(page, name)

    # The sheet of four: the names stay whole at the top and every word stays in its cell;
    # the rest of the sheet is a sideways scroll of its own box away.
    page.goto(evening["sheet"])
    assert page.evaluate(SPILLING_BADGES) == []
    assert page.locator(".sheet .event").count() >= 2
    for header in page.locator(".sheet thead .pname").all():
        assert header.evaluate("name => name.scrollWidth <= name.clientWidth"), header.inner_text()
    wrap = page.locator("#sheet .table-wrap")
    assert wrap.evaluate("box => box.scrollWidth > box.clientWidth")  # four do not fit: it scrolls
    vera = page.locator(".sheet thead th", has_text="Вера")
    assert not vera.evaluate(INSIDE_ITS_BOX)
    wrap.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    assert vera.evaluate(INSIDE_ITS_BOX)
    assert problems == []


@in_russian
def test_a_shared_phone_turns_it_on_with_an_address_and_off_with_the_link(
    page: Page, problems: list[str], alice, evening, t
):
    page.set_viewport_size(PHONE)
    page.goto(evening["tournament"] + "?large=1")
    expect(page.locator("html")).to_have_class("large")
    page.goto(evening["sheet"])  # the next page stays large
    expect(page.locator("html")).to_have_class("large")
    assert_fits_the_phone(page, "sheet")

    page.get_by_role("link", name=t("Normal print"), exact=True).click()
    expect(page.locator("html")).not_to_have_class("large")
    expect(page.get_by_role("link", name=t("Large print"), exact=True)).to_be_visible()
    assert problems == []
