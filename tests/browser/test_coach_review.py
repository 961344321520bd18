"""The coach in a real browser: alice has played a match against bots at a table; the play
worker (running beside the site, as `make run` starts it) reviews its rounds; at the match's
end her board says her accuracy, she opens the match's review and, from her costliest
decision, the replay at that move with what was better. On a phone in Russian, and on a
laptop in English."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from playwright.sync_api import Browser, expect

from play.models import PlayTable
from tests.browser.helpers import BROWSER_LOCALES, in_both_languages
from tests.coach.factories import played_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"ru": {"width": 390, "height": 844}, "en": {"width": 1280, "height": 800}}


@in_both_languages
def test_a_player_reads_their_accuracy_the_matchs_review_and_the_marked_replay(
    browser: Browser, live_server, client, alice, language, t
):
    table = played_table(alice, seats=("me", "greedy", "greedy"), rounds=99)
    assert PlayTable.objects.get(pk=table.pk).status == PlayTable.Status.FINISHED
    context = browser.new_context(
        base_url=live_server.url, locale=BROWSER_LOCALES[language], viewport=VIEWPORTS[language]
    )
    context.set_default_timeout(5_000)
    problems: list[str] = []
    client.force_login(alice)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: message.type == "error" and problems.append(f"console: {message.text}"),
    )
    page.on(
        "response",
        lambda response: (
            response.status >= 400 and problems.append(f"{response.status} {response.url}")
        ),
    )
    try:
        page.goto(table.get_absolute_url())
        expect(page.get_by_role("heading", name=t("The match is over"))).to_be_visible()
        # The worker reviews the match's rounds meanwhile; the panel asks until it is done.
        said = page.locator(".coach-round-end")
        expect(said).to_contain_text(
            re.compile(
                re.escape(t("Your accuracy in this match: %(accuracy)s%%")).replace(
                    re.escape("%(accuracy)s"), r"\d+"
                )
            ),
            timeout=60_000,
        )
        said.get_by_role("link", name=t("see the review")).click()
        expect(page.get_by_role("heading", name=t("The coach's review"), level=1)).to_be_visible()
        accuracy = page.locator("table.coach-accuracy tr.mine")
        expect(accuracy).to_contain_text(t("you"))
        expect(accuracy.locator("td strong")).to_have_text(re.compile(r"^\d+%$"))
        # The same games on her profile: the review says what each figure counts.
        expect(page.locator(".coach-overall")).to_contain_text(re.compile(r"\d+%"))

        # Her costliest decision, in the replay at the position before it.
        costliest = page.locator("ol.coach-costliest").first.get_by_role("link").first
        where = costliest.inner_text()
        costliest.click()
        expect(page).to_have_url(re.compile(r"/rounds/\d+/\?step=\d+$"))
        current = page.locator(".coach-current")
        expect(current).to_contain_text(t("Better:"))
        number = re.search(r"(\d+)$", where)[1]
        expect(current).to_contain_text(t("Move %(number)s", number=number))
        expect(page.locator(".coach-decisions a[aria-current=step]")).to_have_count(1)
        # Its mark says the label in words too, not by colour alone.
        expect(current.locator(".coach-mark")).to_have_text(re.compile(r"^(\?!|\?|\?\?)$"))
        page.screenshot(path=f"/tmp/coach-replay-{language}.png", full_page=True)
    finally:
        context.close()
    assert problems == []
