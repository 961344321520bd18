"""The score sheet in a real browser: sign up, start a match, tap the cards of three rounds."""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.helpers import in_both_languages
from tests.browser.test_names import LONG_NAMES, long_names_match
from tests.factories import make_match, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "tall-oak-river-42"


def player_entry(page: Page, name: str) -> Locator:
    """The round form's fieldset of one player (its legend is the name and the total)."""
    return page.locator("#round-form fieldset[data-entry]").filter(
        has=page.locator("legend", has_text=name)
    )


def tap_cards(page: Page, name: str, cards: str, *, went_out: bool = False, t=str) -> None:
    """Choose the player's outcome and tap their cards in the card grid, as at the table."""
    entry = player_entry(page, name)
    outcome = t("went out") if went_out else t("cards left")
    entry.locator("label.kind", has_text=outcome).click()
    expect(entry.get_by_role("radio", name=outcome)).to_be_checked()
    for card in cards.split():
        button = entry.locator(f"button[data-card='{card}']")
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")


def save_round(page: Page, number: int, preview_totals: list[str], t) -> None:
    """Wait until the live preview shows this round's totals, then press "Save round"."""
    preview = page.locator("#preview")
    expect(preview.locator("caption")).to_have_text(t("If saved"))
    expect(preview.locator("tbody td:nth-child(3)")).to_have_text(preview_totals)
    page.get_by_role("button", name=t("Save round")).click()
    expect(page.locator("#match-body .messages")).to_have_text(
        t("Round %(number)s saved.", number=number)
    )
    expect(page.locator("#sheet tbody tr")).to_have_count(number)
    expect(page.locator("#round-form h2")).to_have_text(t("Round %(number)s", number=number + 1))


def sheet_row(page: Page, number: int) -> Locator:
    return page.locator("#sheet tbody tr").nth(number - 1).locator("td.cell")


@in_both_languages
def test_a_new_player_signs_up_starts_a_match_and_scores_three_rounds_by_tapping_cards(
    page: Page, problems: list[str], t
):
    # Sign up with allauth's own form.
    page.goto("/accounts/signup/")
    page.locator("input[name=username]").fill("alice")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name=t("Sign Up")).click()
    expect(page.get_by_role("button", name=t("Log out"))).to_have_attribute(
        "title", t("Signed in as %(name)s", name="alice")
    )

    # A new match: the new account is player 1, two guests join, classic rules.
    page.get_by_role("navigation").get_by_role("link", name=t("New match")).click()
    expect(page.get_by_label(t("Player %(number)s", number=1))).to_have_value("alice")
    page.get_by_label(t("Player %(number)s", number=2)).fill("Борис")
    page.get_by_label(t("Player %(number)s", number=3)).fill("Vera")
    # Classic is the default; picking a preset refills the house-rule options (htmx).
    reset_at_100 = page.get_by_label(t("A total of exactly 100 becomes 50"))
    expect(page.get_by_role("radio", name=t("Classic"))).to_be_checked()
    expect(reset_at_100).to_be_checked()
    page.locator("label.preset", has_text=t("Table conventions")).click()
    expect(reset_at_100).not_to_be_checked()
    page.locator("label.preset", has_text=t("Classic")).click()
    expect(reset_at_100).to_be_checked()
    page.get_by_role("button", name=t("Start the match")).click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("alice · Борис · Vera")
    expect(page.locator("#sheet")).to_contain_text(
        t("No rounds yet. Enter the first round below when it has been played.")
    )
    assert page.evaluate("typeof window.htmx") == "object", "htmx did not load"
    # Rounds must be saved through htmx, in place: this marker would not survive a reload.
    page.evaluate("window.sameDocument = true")

    # Round 1: alice goes out with Q♠ (−40); Boris holds four Aces and four Tens
    # (4 × 11 + 4 × 10 = 84); Vera holds only Queens (classic: 20 each, not 3 each).
    tap_cards(page, "alice", "QS", went_out=True, t=t)
    tap_cards(page, "Борис", "AS AH AD AC 10S 10H 10D 10C", t=t)
    tap_cards(page, "Vera", "QH QD QC", t=t)
    save_round(page, 1, ["-40", "84", "60"], t)
    expect(sheet_row(page, 1)).to_have_text(["-40 -40", "+84 84", "+60 60"])

    # Round 2: alice goes out with 7♣ (0); Boris 84 + 16 = 100 becomes 50;
    # Vera 60 + 41 = 101 becomes 0.
    tap_cards(page, "alice", "7C", went_out=True, t=t)
    tap_cards(page, "Борис", "10S 6S", t=t)
    tap_cards(page, "Vera", "AS AH AD 8S", t=t)
    to_50, to_0 = f"50 {t('reset to 50')}", f"0 {t('reset to 0')}"
    save_round(page, 2, ["-40", to_50, to_0], t)
    expect(sheet_row(page, 2)).to_have_text(["0 -40", f"+16 {to_50}", f"+41 {to_0}"])

    # Round 3: Vera goes out with Q♥ (−20); alice holds K♠ (4);
    # Boris 50 + 84 = 134 is above 101: he loses, the other two play on (last survivor).
    tap_cards(page, "Vera", "QH", went_out=True, t=t)
    tap_cards(page, "alice", "KS", t=t)
    tap_cards(page, "Борис", "AS AH AD AC 10S 10H 10D 10C", t=t)
    save_round(page, 3, ["-36", f"134 {t('lost')}", "-20"], t)
    expect(sheet_row(page, 3)).to_have_text(["+4 -36", f"+84 134 {t('lost')}", "-20 -20"])

    expect(page.locator("#sheet tfoot td")).to_have_text(["-36", "134", "-20"])
    expect(page.locator("#sheet thead th.lost")).to_have_text("Борис")
    standings = page.locator("#sheet .standings")
    expect(standings.locator("li")).to_have_text(
        [
            "1 alice -36",
            "2 Vera -20",
            f"3 Борис 134 {t('lost in round %(number)s', number=3)}",
        ]
    )
    expect(standings.locator(".leads")).to_have_text(
        t("%(name)s leads the next round.", name="Vera")
    )
    # Round 4 is for the two players still in the match.
    expect(page.locator("#round-form legend")).to_have_text(["alice (-36)", "Vera (-20)"])

    assert page.evaluate("window.sameDocument") is True, "saving a round reloaded the page"
    assert problems == []


def test_a_card_given_to_two_players_is_shown_next_to_the_field_and_nothing_is_saved(
    page: Page, problems: list[str], alice, log_in
):
    match = make_match(alice, ["alice", "Dan", "Eve"])
    record(match, alice, {"alice": {"out": "7C"}, "Dan": {"hand": "KS"}, "Eve": {"hand": "8H"}})
    log_in(alice)
    page.goto(match.get_absolute_url())
    expect(page.locator("#sheet tbody tr")).to_have_count(1)

    tap_cards(page, "alice", "QS", went_out=True)
    tap_cards(page, "Dan", "AS 9D")
    # The grid dims a card another player already has, but it can still be tapped.
    eve = player_entry(page, "Eve")
    expect(eve.locator("button[data-card='AS']")).to_have_class(re.compile(r"\btaken\b"))
    tap_cards(page, "Eve", "AS")
    expect(page.locator("#err-s2")).to_have_text("A♠ is given twice (Dan, Eve)")

    with page.expect_response(
        lambda response: (
            response.request.method == "POST"
            and "action=save" in (response.request.post_data or "")
        )
    ) as saving:
        page.get_by_role("button", name="Save round").click()
    assert saving.value.ok

    expect(page.locator("#err-s2")).to_have_text("A♠ is given twice (Dan, Eve)")
    expect(eve.locator("input[data-cards]")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#round-form h2")).to_have_text("Round 2")
    expect(page.locator("#sheet tbody tr")).to_have_count(1)
    expect(page.locator("#sheet tfoot td")).to_have_text(["0", "4", "8"])
    expect(page.locator("#match-body .messages")).to_have_count(0)
    assert match.rounds.count() == 1
    assert problems == []


def test_the_card_grid_works_from_the_keyboard(page: Page, problems: list[str], alice, log_in):
    match = make_match(alice, ["alice", "Dan"])
    log_in(alice)
    page.goto(match.get_absolute_url())
    dan = player_entry(page, "Dan")
    dan.locator("label.kind", has_text="cards left").click()
    cards = dan.locator("input[data-cards]")
    # One Tab stop for the whole grid: from the cards field to its first card.
    cards.focus()
    page.keyboard.press("Tab")
    first = dan.locator(".card-grid button").first
    expect(first).to_be_focused()
    expect(first).to_have_accessible_name("Six of spades")
    # A row is a suit (nine cards of 36): right to 7♠, down to 7♥; Space takes it.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    seven_of_hearts = dan.locator("button[data-card='7H']")
    expect(seven_of_hearts).to_be_focused()
    page.keyboard.press("Space")
    expect(cards).to_have_value("7♥")
    expect(seven_of_hearts).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    expect(cards).to_have_value("7♥ A♣")
    # Tab leaves the grid (the next field), and Shift+Tab comes back to the last card used.
    page.keyboard.press("Tab")
    expect(dan.locator(".card-grid button:focus")).to_have_count(0)
    page.keyboard.press("Shift+Tab")
    expect(dan.locator("button[data-card='AC']")).to_be_focused()
    assert problems == []


# Each name at the head of the sheet, and whether the browser cut it: wider (or, turned, taller)
# than the room its column gives it.
CUT_NAMES = """() => [...document.querySelectorAll("table.sheet thead .pname")].map((name) => [
  name.textContent.trim(),
  name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1,
])"""


@in_both_languages
def test_four_long_names_head_the_sheet_whole_on_a_phone(
    page: Page, problems: list[str], alice, log_in
):
    names = LONG_NAMES
    match = long_names_match(alice)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(alice)
    page.goto(match.get_absolute_url())
    page.wait_for_load_state("load")
    assert page.evaluate(CUT_NAMES) == [[name, False] for name in names]
    for name in names:  # turned, they are still the links to the players
        expect(page.locator("table.sheet thead").get_by_role("link", name=name)).to_be_visible()
    # Short names stay upright: only a sheet whose names do not fit turns them.
    short = make_match(alice, ["alice", "Аня", "Боря", "Ёж"])
    record(
        short,
        alice,
        {
            "alice": {"out": "QS"},
            "Аня": {"hand": "AC"},
            "Боря": {"points": 5},
            "Ёж": {"hand": "9D"},
        },
    )
    page.goto(short.get_absolute_url())
    page.wait_for_load_state("load")
    assert not page.locator("table.sheet.names-turned").count()
    assert page.evaluate(CUT_NAMES) == [[name, False] for name in ["alice", "Аня", "Боря", "Ёж"]]
    assert problems == []
