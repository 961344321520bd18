"""A played table's choices in a real browser: the move clock counts down (on a phone whose own
clock is wrong too) and marks the last seconds, resigning asks first and then the page says you
left, and someone out of a round among bots fast-forwards it."""

import datetime
import itertools
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from cards101.engine import Game
from cards101.rules import PRESETS
from play import services as play
from play.models import PlayTable
from tests.browser.helpers import bot_moves, in_both_languages
from tests.play.test_table_choices import out_of_the_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# This browser's clock runs five minutes fast, as a phone's may: the countdown follows the
# server's time all the same.
FAST_CLOCK = """(() => {
  const now = Date.now.bind(Date);
  Date.now = () => now() + 5 * 60 * 1000;
})();"""


def seconds_shown(clock) -> int:
    return int(clock.locator("[data-seconds]").inner_text())


@in_both_languages
def test_the_move_clock_counts_down_and_marks_the_last_ten_seconds(
    page: Page, context, problems: list[str], log_in, alice, bob, t
):
    context.add_init_script(FAST_CLOCK)
    seed = next(s for s in itertools.count() if Game.new(PRESETS["classic"], 2, s).to_move == 0)
    table = play.create_table(
        by=alice,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "open"],
        move_seconds=30,
        seed=seed,
    )
    play.join(table=table, user=bob, invite=table.invite)
    PlayTable.objects.filter(pk=table.pk).update(
        server_moves_at=timezone.now() + datetime.timedelta(seconds=12.5)
    )
    log_in(alice)
    page.goto(table.get_absolute_url())
    board = page.locator("#board")

    # alice must move: the seconds are large in her hand, and on her tile.
    line = board.locator(".move-clock")
    expect(line).to_contain_text(t("Time left for your move:"))
    expect(line).to_contain_text(t("s", context="seconds"))
    assert 11 <= seconds_shown(line) <= 13
    expect(line).to_have_class(re.compile(r"\blow\b"), timeout=4_000)
    assert seconds_shown(line) <= 10
    expect(board.locator(".opponent.me .countdown")).to_have_class(re.compile(r"\blow\b"))

    # She plays: the board swapped in shows bob's clock on his tile, and it counts down too.
    version = board.get_attribute("hx-get")
    board.locator(".hand form.inline button.card").first.click()
    expect(board).not_to_have_attribute("hx-get", version or "")
    expect(line).to_have_count(0)
    bobs = board.locator(".opponent.to-move .countdown")
    expect(bobs).to_be_visible()
    first = seconds_shown(bobs)
    assert 28 <= first <= 30
    counted = "|".join(str(n) for n in range(first - 6, first - 1))  # two seconds or more
    expect(bobs.locator("[data-seconds]")).to_have_text(re.compile(f"^({counted})$"), timeout=4_000)
    expect(bobs).not_to_have_class(re.compile(r"\blow\b"))
    assert problems == []


@in_both_languages
def test_resigning_asks_first_and_then_the_page_says_you_left(
    page: Page, problems: list[str], log_in, alice, t, settings
):
    settings.PLAY_BOT_DELAY = 60  # the bots move only when the test says
    table = play.create_table(
        by=alice,
        preset="aaow",
        variant=PRESETS["aaow"],
        seats=["me", "greedy", "greedy"],
        seed=next(s for s in itertools.count() if Game.new(PRESETS["aaow"], 3, s).to_move),
    )
    log_in(alice)
    page.goto(table.get_absolute_url())
    board = page.locator("#board")
    confirm = board.get_by_role("button", name=t("Resign and leave the table"))
    expect(confirm).to_be_hidden()
    board.get_by_text(t("Resign and leave"), exact=True).click()
    expect(confirm).to_be_visible()

    # A bot moves meanwhile: the board is swapped in again, and the question stays open.
    version = board.get_attribute("hx-get")
    bot_moves(table)
    expect(board).not_to_have_attribute("hx-get", version or "", timeout=5_000)
    expect(confirm).to_be_visible()

    confirm.click()
    expect(page.locator("#board .notice")).to_contain_text(
        t("You resigned and left this table: the site plays your seat to the end of the match.")
    )
    expect(page.locator("#board .my-hand")).to_have_count(0)
    expect(page.locator("#board .resign")).to_have_count(0)
    page.goto(reverse("play:lobby"))
    expect(page.locator(f'a[href="{table.get_absolute_url()}"]')).to_have_count(0)
    assert problems == []


@in_both_languages
def test_out_of_a_round_among_bots_fast_forward_finishes_it_at_once(
    page: Page, problems: list[str], log_in, alice, t, settings
):
    settings.PLAY_BOT_DELAY = 60  # at their own pace the bots would take a minute a move
    table = play.create_table(
        by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "greedy", "greedy"]
    )
    PlayTable.objects.filter(pk=table.pk).update(
        state=out_of_the_round().to_json(),
        server_moves_at=timezone.now() + datetime.timedelta(minutes=1),
    )
    log_in(alice)
    page.goto(table.get_absolute_url())
    offer = page.locator("#board .out-of-round")
    expect(offer).to_contain_text(t("You are out of this round."))
    expect(offer).to_contain_text(t("or keep watching at their usual pace"))
    offer.get_by_role("button", name=t("Fast-forward")).click()
    end = page.locator("#board .round-end")
    expect(end.get_by_role("heading")).to_have_text(
        re.compile(f"{t('The round is over')}|{t('The match is over')}")
    )
    expect(page.locator("#board .out-of-round")).to_have_count(0)
    assert problems == []


@in_both_languages
def test_fast_forward_tapped_at_once_while_the_bots_move_works_on_the_first_tap(
    page: Page, problems: list[str], log_in, alice, t, settings
):
    """At a club night's pace: the worker moves the bots every few tenths of a second, and one
    more moves while the tap is on its way. The tap names the round, not the table's version,
    so no bot's move refuses it."""
    settings.PLAY_BOT_DELAY = 0.4
    table = play.create_table(
        by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "greedy", "greedy"]
    )
    PlayTable.objects.filter(pk=table.pk).update(
        state=out_of_the_round().to_json(), server_moves_at=timezone.now()
    )
    moved_meanwhile = []

    def a_bot_moves_first(route) -> None:
        table.refresh_from_db()
        shown = table.version
        play.step(table=table, now=timezone.now() + datetime.timedelta(hours=1))
        table.refresh_from_db()
        moved_meanwhile.append(table.version > shown)
        route.continue_()

    page.route("**/fast-forward/", a_bot_moves_first)
    log_in(alice)
    page.goto(table.get_absolute_url())
    page.locator("#board .out-of-round").get_by_role("button", name=t("Fast-forward")).click()
    end = page.locator("#board .round-end")
    expect(end.get_by_role("heading")).to_have_text(
        re.compile(f"{t('The round is over')}|{t('The match is over')}")
    )
    assert moved_meanwhile == [True]
    expect(page.locator("#board-refusal [role=alert]")).to_have_count(0)
    expect(page.get_by_text(t("The table has moved on; here it is now."))).to_have_count(0)
    assert problems == []
