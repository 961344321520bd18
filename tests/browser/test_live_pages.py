"""Pushed, not polled: a round saved by another scorekeeper appears on the live sheet, a table's
result on the tournament's page and on the projector, each within a couple of seconds, far
sooner than the 15-second fallback poll; and a table whose pages are all closed goes on."""

import time

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from cards101.rules import PRESETS
from games import services as games
from play import services as play
from play.models import PlayTable
from tests.browser.helpers import in_both_languages
from tests.factories import by_seat, make_match, play_out
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Well under the fallback poll (15 s): only a pushed event can be this quick.
PUSHED = 3_000


@in_both_languages
def test_a_round_saved_elsewhere_appears_on_the_live_sheet_at_once(
    page: Page, problems: list[str], alice, t
):
    match = make_match(alice, ["alice", "Борис", "Вера"])
    page.goto(reverse("games:match_live", args=[match.pk]))
    totals = page.locator(".live-totals li")
    expect(totals).to_have_count(3)
    expect(totals.filter(has_text="Борис").locator(".total")).to_have_text("0")
    # Another scorekeeper's phone saves a round.
    match.refresh_from_db()
    games.record_round(
        match=match,
        outcomes=by_seat(
            match, {"alice": {"out": "7C"}, "Борис": {"points": 25}, "Вера": {"points": 9}}
        ),
        version=match.version,
        by=alice,
    )
    expect(totals.filter(has_text="Борис").locator(".total")).to_have_text("25", timeout=PUSHED)
    assert problems == []


@in_both_languages
def test_a_tables_result_reaches_the_tournament_page_and_the_projector_at_once(
    page: Page, context, problems: list[str], alice, t
):
    tournament = make_tournament(alice, name="Клубный вечер")
    enter(tournament, ["Анна", "Борис", "Вера", "Глеб"], alice)
    round_ = tournaments.seat_next_round(tournament=tournament, by=alice)
    page.goto(tournament.get_absolute_url())
    projector = context.new_page()
    projector.goto(reverse("tournaments:projector", args=[tournament.pk]))
    done = t("finished", context="table")
    for table in round_.tables.select_related("match"):
        play_out(table.match, alice)
    for tables in (page.locator("#live .table-card"), projector.locator(".projector-tables > li")):
        expect(tables.first).to_contain_text(done, timeout=PUSHED)
    assert problems == []


def test_a_table_whose_pages_are_all_closed_is_played_to_its_end(page: Page, alice, settings):
    """Alice opens a table with three bots and a 1-second timer, then closes the page: the
    play worker plays for her when her time runs out, and the bots, to the match's end."""
    settings.PLAY_BOT_DELAY = 0
    settings.PLAY_ROUND_PAUSE = 0.1
    table = play.create_table(
        by=alice,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "greedy", "random", "greedy"],
        move_seconds=1,
        seed=3,
    )
    page.goto(table.get_absolute_url())
    page.close()
    deadline = time.monotonic() + 120
    while table.status != PlayTable.Status.FINISHED and time.monotonic() < deadline:
        time.sleep(0.2)
        table.refresh_from_db()
    assert table.status == PlayTable.Status.FINISHED
    assert table.match.status == "finished"
    assert table.moves.filter(by="timer").exists()


def test_a_page_refused_a_stream_stays_current_by_its_slow_poll(page: Page, alice, settings):
    """An address that holds its share of streams (here: none at all) is refused another,
    with when to try again; the page does not break and shows each round within its poll."""
    settings.LIVE_STREAMS_PER_ADDRESS = 0
    refused: list[int] = []
    page.on(
        "response",
        lambda response: "/events/" in response.url and refused.append(response.status),
    )
    page.clock.install()
    match = make_match(alice, ["alice", "Борис"])
    page.goto(reverse("games:match_live", args=[match.pk]))
    totals = page.locator(".live-totals li")
    expect(totals.filter(has_text="Борис").locator(".total")).to_have_text("0")
    deadline = time.monotonic() + 5
    while not refused and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert refused == [429]  # the stream was refused, and not tried again at once
    games.record_round(
        match=match,
        outcomes=by_seat(match, {"alice": {"out": "7C"}, "Борис": {"points": 25}}),
        version=match.version,
        by=alice,
    )
    # Pushed it would be at once; refused, it comes with the page's next poll (15 s).
    page.clock.fast_forward(16_000)
    expect(totals.filter(has_text="Борис").locator(".total")).to_have_text("25", timeout=PUSHED)
    assert set(refused) == {429}
