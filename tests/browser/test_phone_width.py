"""No page is wider than a 390 px phone: a correspondence table, whose countdown says hours
and a date in words, and a hand whose Queen's suit buttons are open."""

import itertools

import pytest
from playwright.sync_api import Page, expect

from cards101.engine import Game
from cards101.rules import PRESETS
from play import services as play
from tests.browser.helpers import in_russian, wider_than_the_screen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DAY = 24 * 60 * 60


def a_queen_in_hand(seed: int) -> bool:
    """alice (seat 0) leads this deal and may play a Queen from her hand."""
    game = Game.new(PRESETS["classic"], players=2, seed=seed)
    return (
        game.to_move == 0
        and not game.opening_queen
        and any(m.kind == "play" and m.card.rank == "Q" for m in game.legal_moves())
    )


@in_russian
def test_a_correspondence_table_and_its_queens_suits_fit_a_phone(
    page: Page, problems: list[str], log_in, alice, bob
):
    seed = next(s for s in itertools.count() if a_queen_in_hand(s))
    table = play.create_table(
        by=alice,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "open"],
        move_seconds=DAY,
        seed=seed,
    )
    play.join(table=table, user=bob, invite=table.invite)
    log_in(alice)
    page.set_viewport_size(PHONE)
    page.goto(table.get_absolute_url())
    board = page.locator("#board")
    # A day to move: the time left is said in hours and minutes, with the date it runs to.
    expect(board.locator(".opponent.to-move .countdown")).to_contain_text("до")
    assert wider_than_the_screen(page) == []

    # Her Queen's suits, opened: all four buttons within the phone.
    queen = board.locator("details.queen-pick").first
    queen.locator("summary").click()
    expect(queen.locator("button[name=suit]")).to_have_count(4)
    assert wider_than_the_screen(page) == []
    assert problems == []
