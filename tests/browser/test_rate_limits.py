"""A round over the rate limit in a real browser: saved from the form, the sheet says so at the
top and keeps what was typed; sent from the phone's outbox, the round waits on the phone and is
sent by itself once the limit's hour has passed. Never lost, never a dead end. A move over the
limit at a played table says so at the top of the page, over the board as it was."""

import itertools
import re

import django_ratelimit.core
import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from cards101.engine import Game
from cards101.rules import PRESETS
from play import services as play
from play.models import PlayTable
from tests.browser.helpers import cut_network, in_both_languages, restore_network
from tests.browser.test_club_night import enter_deal, wait_for_the_kept_copy
from tests.browser.test_play import WORDS, take_my_turn
from tests.clock import Clock
from tests.factories import make_match
from tests.test_creation_limits import ROUNDS
from tests.test_write_limits import MOVES_A_MINUTE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.real_rate_limits,
]


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """django-ratelimit's clock (in the live server too: one process), moved by the test."""
    clock = Clock()
    monkeypatch.setattr(django_ratelimit.core, "time", clock)
    return clock


def use_up_the_rounds(client, match) -> None:
    """As many saves as an hour allows, by the logged-in account (rounds the form refuses:
    they count as saves, and are quicker to make)."""
    url = reverse("games:round_send", args=[match.pk])
    for _save in range(ROUNDS):
        assert client.post(url, {"version": "1", "seats": "0,1,2,3"}).status_code == 400


def test_a_round_saved_over_the_limit_is_refused_at_the_top_and_stays_in_the_form(
    page: Page, problems: list[str], alice, bob, log_in, client, clock, t
):
    match = make_match(alice, ["alice", "bob", "Vera", "Gleb"])
    log_in(alice)
    use_up_the_rounds(client, match)
    page.goto(match.get_absolute_url())
    enter_deal(page, out=0, t=t)

    notice = page.locator("#main > .messages[role=alert]")
    expect(notice).to_contain_text(
        t("You have saved too many rounds in a short time: this one was not saved.")
    )
    expect(notice).to_contain_text("Try again in")
    # The sheet and the round typed into it are as they were.
    expect(page.locator("#id_s0-cards")).to_have_value("7♣")
    expect(page.locator("#id_s1-points")).to_have_value("11")
    expect(page.locator("#round-form h2")).to_have_text(t("Round %(number)s", number=1))
    assert match.rounds.count() == 0
    assert [problem.split(" http")[0] for problem in problems] == [
        "429 POST",
        "console: Failed to load resource: the server responded with a status of 429 "
        "(Too Many Requests)",
    ]


def test_a_round_from_the_outbox_over_the_limit_waits_on_the_phone_and_goes_later(
    page: Page, problems: list[str], alice, bob, log_in, client, clock, t
):
    match = make_match(alice, ["alice", "bob", "Vera", "Gleb"])
    log_in(alice)
    page.clock.install()
    page.goto(match.get_absolute_url())
    wait_for_the_kept_copy(page)
    cut_network(page.context)
    enter_deal(page, out=0, t=t)
    kept = page.locator("#outbox li.kept")
    expect(kept).to_have_count(1)

    # While the phone was offline, the account used up its rounds for the hour elsewhere.
    use_up_the_rounds(client, match)
    restore_network(page.context)
    status = page.locator("#outbox-status")
    expect(status).to_contain_text(
        t("You have saved too many rounds in a short time: this one was not saved.")
    )
    expect(status).to_contain_text(
        t(
            "%%(reason)s The round stays on this phone and is sent by itself as soon as the "
            "site takes it.",
            reason="",
        ).strip()
    )
    expect(kept).to_have_count(1)
    expect(kept.first).to_contain_text(t("waiting to send"))
    assert match.rounds.count() == 0

    # Not sent again before the hour is over, however often the outbox looks...
    page.clock.fast_forward(5 * 60_000)
    expect(kept).to_have_count(1)
    # ...and sent by itself once it is.
    clock.now += 3600
    page.clock.fast_forward(60 * 60_000)
    # A phone back from an hour asleep: the outbox looks again on its next round (every 20 s,
    # static/js/outbox.js), whichever timer the jump fired first.
    page.clock.run_for(20_000)
    expect(page.locator("#outbox")).to_be_hidden()
    expect(status).to_contain_text(t("Sent from this phone: rounds %(rounds)s.", rounds="1"))
    assert match.rounds.count() == 1
    assert [problem.split(" http")[0] for problem in problems] == [
        "429 POST",
        "console: Failed to load resource: the server responded with a status of 429 "
        "(Too Many Requests)",
    ]


@in_both_languages
def test_a_move_over_the_limit_is_refused_at_the_top_of_the_page_and_the_board_stays(
    page: Page, problems: list[str], alice, log_in, client, clock, t, language
):
    seed = next(s for s in itertools.count() if Game.new(PRESETS["classic"], 2, s).to_move == 0)
    table = play.create_table(
        by=alice, preset="classic", variant=PRESETS["classic"], seats=["me", "greedy"], seed=seed
    )
    log_in(alice)
    # The minute's moves used up by the same account elsewhere (refused ones count too).
    move = reverse("play:move", args=[table.pk])
    for _move in range(MOVES_A_MINUTE):
        assert client.post(move, {"version": 0, "kind": "pass"}).status_code == 302
    page.goto(table.get_absolute_url())
    your_turn = page.locator("#board").get_by_role(
        "heading", name=re.compile(f"^{WORDS[language]['your turn']}")
    )
    expect(your_turn).to_be_visible()
    take_my_turn(page, WORDS[language])

    notice = page.locator("#main > .messages[role=alert]")
    expect(notice).to_contain_text(
        t("You have made too many moves in a short time: this one was not made.")
    )
    expect(notice).to_contain_text(
        t(
            "Try again in %(minutes)s minute.",
            plural="Try again in %(minutes)s minutes.",
            count=1,
            minutes=1,
        )
    )
    # Nothing was played: the board is the one she had, still her turn.
    expect(your_turn).to_be_visible()
    assert PlayTable.objects.get(pk=table.pk).version == table.version
    assert [problem.split(" http")[0] for problem in problems] == [
        "429 POST",
        "console: Failed to load resource: the server responded with a status of 429 "
        "(Too Many Requests)",
    ]
