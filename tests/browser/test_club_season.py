"""A club's season in real browsers, on phones, through the pages only: alice starts a club
and its season, carol joins by the invitation link, alice runs a night (its form filled from
the club's defaults, the roll call, round 1 seated), bob enters a round at carol's table that
counts once carol confirms it on her phone, and the finished night puts carol on the season's
table: the club's page, the season's page and its JSON."""

import datetime
import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from django.utils.text import capfirst
from playwright.sync_api import Browser, Page, expect

from games.models import Match
from tests.browser.helpers import in_both_languages, new_context
from tests.browser.test_club_night import enter_deal
from tests.factories import counts_tables_of, play_out

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@in_both_languages
def test_a_club_runs_a_night_of_its_season_and_a_confirmed_round_counts(
    page: Page,
    problems: list[str],
    browser: Browser,
    live_server,
    alice,
    bob,
    carol,
    log_in,
    language,
    t,
):
    counts_tables_of(bob, alice)  # bob plays at alice's tables: her nights count for him
    phones = []

    def phone_of(user) -> Page:
        """`user`'s own phone: a browser of their own, logged in."""
        client = Client()  # a client of its own: logging in again would end alice's session
        client.force_login(user)
        context = new_context(browser, live_server, language)
        phones.append(context)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
        theirs = context.new_page()
        theirs.set_viewport_size(PHONE)
        theirs.on("pageerror", lambda error: problems.append(f"{user}'s phone: {error}"))
        theirs.on(
            "console",
            lambda message: (
                message.type == "error" and problems.append(f"{user}'s phone: {message.text}")
            ),
        )
        return theirs

    page.set_viewport_size(PHONE)
    log_in(alice)
    try:
        # 1. alice starts the club: its address is its Cyrillic name in Latin letters.
        page.goto("/clubs/")
        page.get_by_role("link", name=t("New club")).click()
        page.get_by_label(t("Name", context="tournament")).fill("Клуб «Туз»")
        page.get_by_role("button", name=t("Create the club")).click()
        expect(page).to_have_url(re.compile(r"/clubs/klub-tuz/settings/$"))
        expect(page.locator(".messages")).to_contain_text(
            t("The club has been created. Now set its house rules and its nights.")
        )
        page.goto("/clubs/klub-tuz/")
        expect(page.locator("h1")).to_have_text("Клуб «Туз»")
        expect(page.locator(".club-seasons")).to_contain_text(t("No season is running now."))

        # 2. A season around today, from the club's seasons page.
        today = timezone.localdate()
        page.locator(".club-seasons").get_by_role("link", name=t("Seasons", context="club")).click()
        page.get_by_role("link", name=t("New season", context="club")).click()
        page.get_by_label(t("Name", context="season")).fill("Осень")
        starts, ends = today - datetime.timedelta(days=30), today + datetime.timedelta(days=60)
        page.get_by_label(t("Starts", context="season")).fill(starts.isoformat())
        page.get_by_label(t("Ends", context="season")).fill(ends.isoformat())
        page.get_by_role("button", name=t("Create the season")).click()
        expect(page.locator("h1")).to_have_text("Осень")
        expect(page.locator("main")).to_contain_text(
            t("No finished night of the club falls within the season's dates yet.")
        )
        season_url = page.url
        assert re.search(r"/clubs/klub-tuz/seasons/\d+/$", season_url)

        # 3. carol joins by the invitation link alice sends her.
        page.goto("/clubs/klub-tuz/")
        page.get_by_role("link", name=t("Members"), exact=True).first.click()
        invitation = page.get_by_role("textbox", name=t("Invitation link")).input_value()
        assert invitation.startswith(live_server.url)
        carols = phone_of(carol)
        carols.goto(invitation)
        expect(carols.locator("main")).to_contain_text(t("You are invited to join the club."))
        carols.get_by_role("button", name=t("Join"), exact=True).click()
        expect(carols.locator(".messages")).to_contain_text(
            t("Welcome to %(club)s!", club="Клуб «Туз»")
        )
        expect(carols.locator(".notice")).to_have_text(
            t("You are a %(role)s of this club.", role=t("member"))
        )

        # 4. alice starts tonight's night from the club's page: its form filled in from the
        # club's defaults; tonight a single round.
        page.goto("/clubs/klub-tuz/")
        page.get_by_role("link", name=t("New club night")).click()
        name = page.get_by_label(t("Name", context="tournament"))
        expect(name).to_have_value(re.compile(r"^Клуб «Туз» — \d+ "))
        expect(page.get_by_label(capfirst(t("date")), exact=True)).to_have_value(today.isoformat())
        page.get_by_text(t("Rounds, tables, points and rules (the club's)")).click()
        rounds = page.get_by_label(capfirst(t("rounds")), exact=True)
        expect(rounds).to_have_value("3")
        rounds.fill("1")
        page.get_by_role("button", name=t("Create the night")).click()
        expect(page.locator("h1")).to_have_text(t("Roll call"))
        expect(page.locator(".messages")).to_contain_text(
            t("The night has been created. Who came?")
        )
        # The roll: carol tapped; bob (by his username) and two guests added in the one line.
        page.get_by_role("button", name="carol").click()
        expect(page.get_by_role("button", name="carol")).to_have_attribute("aria-pressed", "true")
        for newcomer in ("bob", "Анна", "Борис"):
            page.get_by_label(t("A guest's name or a player's username")).fill(newcomer)
            page.get_by_role("button", name=t("Add and check in")).click()
            expect(page.get_by_role("button", name=newcomer)).to_have_attribute(
                "aria-pressed", "true"
            )
        checked_in = t("%(count)s checked in", plural="%(count)s checked in", count=4)
        expect(page.locator("#roll [role=status]")).to_have_text(checked_in % {"count": 4})
        expect(page.get_by_role("button", name="alice")).to_have_attribute(
            "aria-pressed", "false"
        )  # she directs tonight
        page.get_by_role("link", name=t("To the night")).click()
        page.get_by_role("button", name=t("Seat round %(number)s", number=1)).click()
        expect(page.locator(".messages")).to_contain_text(
            t("Round %(number)s has been seated.", number=1)
        )
        seated = page.locator("#tables .table-seats li .name").all_inner_texts()
        assert sorted(seated) == sorted(["carol", "bob", "Анна", "Борис"])
        round_url = page.url

        # 5. bob, at carol's table, finds it from the home page and enters a deal: a player's
        # entry waits for another player's confirmation.
        bobs = phone_of(bob)
        bobs.goto("/")
        bobs.locator("a.seat-now").click()
        expect(bobs).to_have_url(re.compile(r"/matches/\d+/$"))
        table = Match.objects.get(pk=re.search(r"/matches/(\d+)/$", bobs.url)[1])
        names = bobs.locator("#round-form fieldset.entry").evaluate_all(
            "entries => entries.map((entry) => entry.dataset.name)"
        )
        enter_deal(bobs, out=names.index("carol"), t=t)  # carol goes out
        expect(bobs.locator("#round-form h2")).to_have_text(t("Round %(number)s", number=2))
        waits = t("waits for confirmation")
        expect(bobs.locator("#sheet tbody tr").first.get_by_role("img", name=waits)).to_be_visible()
        expect(
            bobs.get_by_role("button", name=t("Confirm round %(number)s", number=1))
        ).to_have_count(0)  # not by him who entered it
        # The director sees it waiting.
        page.goto(round_url)
        expect(page.locator(".director-tools")).to_contain_text(
            t(
                "Rounds wait for confirmation at: %(tables)s. A player at the table or a "
                "director confirms them on the score sheet.",
                tables="",
            ).split(":")[0]
        )

        # carol confirms it on her phone, from her own home page.
        carols.goto("/")
        carols.locator("a.seat-now").click()
        expect(carols).to_have_url(table.get_absolute_url())
        expect(
            carols.locator("#sheet tbody tr").first.get_by_role("img", name=waits)
        ).to_be_visible()
        carols.get_by_role("button", name=t("Confirm round %(number)s", number=1)).click()
        expect(carols.locator("#match-body .messages")).to_have_text(
            t("Round %(number)s confirmed.", number=1)
        )
        expect(carols.get_by_role("img", name=waits)).to_have_count(0)
        # It counts: nothing waits at the director's round page any more.
        page.reload()
        expect(page.locator("h1")).to_contain_text(
            t("Round %(number)s", context="tournament", number=1)
        )
        expect(page.locator(".director-tools")).not_to_contain_text(
            t(
                "Rounds wait for confirmation at: %(tables)s. A player at the table or a "
                "director confirms them on the score sheet.",
                tables="",
            ).split(":")[0]
        )

        # 6. The table plays on (the rest as a director enters it: counted at once), carol
        # wins; alice closes the round, the night's last: the night is finished.
        seats = list(table.seats.order_by("position").values_list("player__name", flat=True))
        play_out(table, alice, winner_index=seats.index("carol"))
        page.reload()
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name=t("Close the round")).click()
        expect(page.locator(".messages")).to_contain_text(
            t("Round %(number)s is closed; the standings are updated.", number=1)
        )
        expect(page.get_by_role("button", name=t("Reopen for corrections"))).to_be_visible()

        # The club's page: carol tops the season, with the 3 points of a table's winner.
        page.goto("/clubs/klub-tuz/")
        top = page.locator(".club-seasons .season-top li").first
        expect(top.locator(".name")).to_have_text("carol")
        expect(top.locator(".pts")).to_have_text("3")
        expect(page.locator(".club-seasons")).to_contain_text("Осень")
        # The season's page: her line, one night played; the night counted.
        page.goto(season_url)
        first = page.locator(".season-table tbody tr").first
        expect(first.locator("td").nth(0)).to_have_text("1")
        expect(first.locator(".name")).to_have_text("carol")
        expect(first.locator(".pts")).to_have_text("3")
        expect(first.locator("td").nth(3)).to_have_text("1")
        expect(page.locator(".season-nights li")).to_have_count(1)
        expect(page.locator(".season-nights")).to_contain_text("Клуб «Туз» — ")
        # The season's JSON, for the club's own site.
        response = page.request.get(season_url + "table.json")
        assert response.ok
        rows = response.json()["rows"]
        assert len(rows) == 4
        assert rows[0] == {
            "player": rows[0]["player"],
            "name": "carol",
            "points": 3,
            "nights": 1,
            "place": 1,
        }
    finally:
        for phone in phones:
            phone.close()
    assert problems == []
