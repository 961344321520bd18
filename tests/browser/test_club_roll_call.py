"""A club night's roll call on a phone: the director taps who came (and taps again to undo),
by touch or by keyboard, the focus staying on the name tapped; a newcomer added in one line is
a member and checked in."""

import pytest
from playwright.sync_api import Page, expect

from clubs import services as clubs
from tests.browser.helpers import in_both_languages
from tests.tournaments.factories import make_tournament
from tournaments.models import Entrant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@in_both_languages
def test_the_director_calls_the_roll_on_a_phone(page: Page, problems: list[str], alice, log_in, t):
    club = clubs.create_club(owner=alice, name="Клуб «Туз»")
    clubs.add_members_named(club=club, names=["Анна", "Борис", "Вера"], by=alice)
    night = make_tournament(alice, club=club)
    page.set_viewport_size(PHONE)
    log_in(alice)
    page.goto(f"/clubs/{club.slug}/nights/{night.pk}/roll-call/")

    anna = page.get_by_role("button", name="Анна")
    box = anna.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 150  # a big tap target
    anna.click()
    expect(anna).to_have_attribute("aria-pressed", "true")
    checked_in = t("%(count)s checked in", plural="%(count)s checked in", count=1)
    expect(page.locator("#roll [role=status]")).to_have_text(checked_in % {"count": 1})
    expect(anna).to_be_focused()  # the swap keeps the focus where the finger was

    # Boris by keyboard: Tab from Anna, Enter.
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Борис")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Борис")).to_have_attribute("aria-pressed", "true")

    # Anna tapped again: not checked in any more.
    page.get_by_role("button", name="Анна").click()
    expect(page.get_by_role("button", name="Анна")).to_have_attribute("aria-pressed", "false")

    # A newcomer in one line: a member now, and checked in.
    page.get_by_label(t("A guest's name or a player's username")).fill("Глеб")
    page.get_by_role("button", name=t("Add and check in")).click()
    expect(page.get_by_role("button", name="Глеб")).to_have_attribute("aria-pressed", "true")

    checked = Entrant.objects.filter(tournament=night, checked_in=True)
    assert sorted(checked.values_list("player__name", flat=True)) == ["Борис", "Глеб"]
    assert club.members.filter(player__name="Глеб").exists()
    assert problems == []
