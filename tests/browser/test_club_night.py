"""A club night in a real browser: a latecomer joins round 1 when the director seats it again,
a player finds their table from the home page, keeps its score through a network cut, and the
projector shows the winner at the end."""

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Match
from tests.browser.helpers import cut_network, in_both_languages, restore_network
from tests.factories import counts_tables_of, play_out
from tests.tournaments.factories import enter, make_tournament
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def wait_for_the_kept_copy(page: Page, fits=bool) -> None:
    """Until the phone keeps a copy of this sheet (the service worker keeps what it serves)
    whose HTML `fits` (by default: any copy)."""
    for _ in range(50):
        if fits(page.evaluate("caches.match(location.pathname).then((r) => r ? r.text() : '')")):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the phone keeps no such copy of the sheet")


def enter_deal(page: Page, out: int, t) -> None:
    """One deal at a table of four: one player goes out with the seven of clubs, the others
    count a few points; saved."""
    for index, entry in enumerate(page.locator("#round-form fieldset.entry").all()):
        if index == out:
            entry.get_by_label(t("went out"), exact=True).check()
            entry.locator("input[data-cards]").fill("7♣")
        else:
            entry.get_by_label(t("points"), exact=True).check()
            entry.get_by_label(t("Points"), exact=True).fill(str(10 + index))
    page.get_by_role("button", name=t("Save round")).click()


@in_both_languages
def test_a_latecomer_joins_round_1_and_a_player_finds_their_table(
    page: Page, problems: list[str], alice, bob, log_in, t
):
    tournament = make_tournament(alice, rounds_planned=1)
    counts_tables_of(bob, alice)  # bob plays at alice's club: her tournaments count for him
    enter(tournament, ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "bob"], alice)
    round_ = services.seat_next_round(tournament=tournament, by=alice)
    log_in(alice)

    # The latecomer arrives after round 1 was seated: added, they would wait for round 2...
    page.goto(f"/tournaments/{tournament.pk}/players/")
    page.get_by_label(t("Players"), exact=True).fill("Late")
    page.get_by_label(t("Checked in already")).check()
    page.get_by_role("button", name=t("Add"), exact=True).click()
    expect(page.locator(".players-table")).to_contain_text(t("joins in round %(number)s", number=2))
    # ...but nobody has played yet, so the director seats round 1 again, after confirming.
    page.goto(f"/tournaments/{tournament.pk}/rounds/1/")
    asked = []

    def confirm(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", confirm)
    page.get_by_role("button", name=t("Seat this round again")).click()
    expect(page.locator(".messages")).to_contain_text(
        t("Round %(number)s has been seated again.", number=1)
    )
    assert asked and asked[0].startswith(t("Seat this round again") + "?")
    seated = page.locator("#tables .table-seats li .name").all_inner_texts()
    assert sorted(seated) == sorted(
        ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "bob", "Late"]
    )

    # bob, on his phone, finds his table on the home page and opens its score sheet.
    page.context.clear_cookies()
    log_in(bob)
    page.goto("/")
    seat_now = page.locator("a.seat-now")
    expect(seat_now).to_contain_text(
        f"Club night · {t('Round %(number)s', context='tournament', number=1)}"
    )
    table_and_seat = t("Table %(table)s, seat %(seat)s", table="[0-9]", seat="[0-9]")
    expect(seat_now).to_contain_text(re.compile(table_and_seat))
    seat_now.click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.locator("h1")).to_contain_text("bob")

    # The club room loses the network for two deals; bob keeps scoring on his phone.
    table = Match.objects.get(pk=re.search(r"/matches/(\d+)/$", page.url)[1])
    wait_for_the_kept_copy(page)
    posted = []  # what the page sends while the network is cut: to tell why, if anything
    page.on("request", lambda r: r.method == "POST" and posted.append(r.url))
    cut_network(page.context)
    enter_deal(page, out=0, t=t)
    expect(page.locator("#outbox-status")).to_contain_text(
        t(
            "No network: round %%(number)s is kept on this phone and will be sent when the "
            "network is back.",
            number=1,
        )
    )
    enter_deal(page, out=1, t=t)
    kept = page.locator("#outbox li.kept")
    expect(kept).to_have_count(2)
    expect(kept.nth(1)).to_contain_text(
        f"{t('Round %%(number)s', number=2)} — {t('waiting to send')}"
    )
    expect(page.locator("#round-form h2")).to_have_text(t("Round %(number)s", number=3))
    # bob closes the browser and opens the sheet again, still without a network: it comes
    # from the phone, with the rounds it keeps. (A new page, not a reload: a reloaded page may
    # run its scripts before Chromium's offline emulation reaches it again, and post.)
    address = page.url
    page.close()
    page = page.context.new_page()
    page.on("request", lambda r: r.method == "POST" and posted.append(r.url))
    assert page.evaluate("navigator.onLine") is False
    page.goto(address)
    kept = page.locator("#outbox li.kept")
    expect(page.locator("h1")).to_contain_text("bob")
    expect(kept).to_have_count(2)
    saved = list(table.rounds.values_list("number", "entered_by__username", "created_at"))
    assert not saved, f"saved while offline: {saved}; the page posted {posted}"
    # The network is back: both are sent, in order, and the sheet shows them.
    restore_network(page.context)
    expect(kept).to_have_count(0, timeout=15_000)
    expect(page.locator("#outbox-status")).to_contain_text(
        t("Sent from this phone: rounds %%(rounds)s.", rounds="1, 2")
    )
    expect(page.locator("#round-form h2")).to_have_text(t("Round %(number)s", number=3))
    assert list(table.rounds.values_list("number", "entered_by__username")) == [
        (1, "bob"),
        (2, "bob"),
    ]

    # Every table finished and the round closed: the projector shows the final standings.
    round_ = tournament.rounds.get()
    for table in round_.tables.select_related("match"):
        play_out(table.match, alice)
    services.close_round(round_=round_, by=alice)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"/tournaments/{tournament.pk}/projector/")
    expect(page.locator(".round-name")).to_have_text(t("Final standings"))
    expect(page.locator(".projector-winner")).to_contain_text(
        t("Winner", plural="Winners", count=1) + ":"
    )
    expect(page.locator(".projector-standings li")).to_have_count(8)
    expect(page.locator("#screen a, #screen button")).to_have_count(0)
    assert problems == []
