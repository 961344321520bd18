"""Times in the reader's zone in a real browser: a phone in Samara with no zone chosen reads a
correspondence deadline in Samara's time, from the zone the browser tells the site."""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from cards101.rules import PRESETS
from play import services as play
from play.models import PlayTable
from tests.browser.helpers import BROWSER_LOCALES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_in_samara_reads_the_deadline_in_samaras_time(
    browser: Browser, live_server, client, alice, bob
):
    table = play.create_table(
        by=alice,
        preset="classic",
        variant=PRESETS["classic"],
        seats=["me", "open"],
        move_seconds=24 * 60 * 60,
    )
    play.join(table=table, user=bob, invite=table.invite)
    deadline = timezone.now() + datetime.timedelta(hours=20)
    PlayTable.objects.filter(pk=table.pk).update(server_moves_at=deadline)
    context = browser.new_context(
        base_url=live_server.url, locale=BROWSER_LOCALES["ru"], timezone_id="Europe/Samara"
    )
    try:
        client.force_login(alice)
        cookie = client.cookies["sessionid"]
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
        page = context.new_page()
        page.goto(table.get_absolute_url())  # the site learns the browser's zone here
        page.reload()
        samara = deadline.astimezone(datetime.timezone(datetime.timedelta(hours=4)))
        utc = deadline.astimezone(datetime.UTC)
        clock = page.locator("#board .countdown time").first
        expect(clock).to_have_text(re.compile(samara.strftime("%H:%M") + "$"))
        assert utc.strftime("%H:%M") not in clock.inner_text()
    finally:
        context.close()
