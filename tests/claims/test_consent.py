"""Nobody's history or rating changes without them (issue 17, findings 1 and 2).

1. A scorekeeper who presses Rematch does not become someone who approves claims of the
   sheet's guests: a claim is decided by someone other than whoever asks.
2. Naming someone's account at a table you keep does not put it on their record: their seat is
   a guest of that name until they confirm, and the match counts for them from then on.
"""

import pytest
from django.urls import reverse

from claims import queries as claim_queries
from claims import services as claims
from claims.models import Claim
from games import services
from games.models import Match, Player, Seat
from stats.models import Rating
from tests.factories import make_match, play_out, rules_form_data
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def seated_names(match) -> list[tuple[str, bool]]:
    """Each seat's name and whether it is an account's player."""
    return [
        (seat.player.name, seat.player.user_id is not None)
        for seat in match.seats.select_related("player").order_by("position")
    ]


# --- 1. a rematch gives no say over the guests ---------------------------------------------


def test_a_scorekeeper_who_presses_rematch_cannot_approve_their_own_claim_of_a_guest(
    client, alice, bob
):
    # alice keeps a sheet with her guests Anna and Boris, and lets bob keep score.
    sheet = make_match(alice, ["alice", "Anna", "Boris"])
    play_out(sheet, alice)
    services.add_scorekeeper(match=sheet, username="bob", by=alice)
    anna = Player.objects.get(name="Anna", user=None)
    annas_seats = Seat.objects.filter(player=anna).count()

    client.force_login(bob)
    response = client.post(reverse("games:rematch", args=[sheet.pk]))
    rematch = Match.objects.get(rematch_of=sheet)
    assert response.url == rematch.get_absolute_url()
    assert rematch.created_by == bob
    client.post(reverse("claims:claim_ask", args=[anna.pk]))

    claim = Claim.objects.get(guest_number=anna.pk)
    assert claim.is_pending  # not approved by bob's own word
    assert Seat.objects.filter(player=anna).count() == annas_seats + 1  # Anna is still a guest
    assert claim_queries.deciders(claim) == {alice.pk}
    # Bob's claims page says who decides; bob cannot decide himself.
    page = client.get(reverse("claims:claims")).content.decode()
    assert "Decides:" in page and ">alice</a>" in page
    response = client.post(
        reverse("claims:claim_decide", args=[claim.pk]), {"decision": "approve"}, follow=True
    )
    assert "Nobody decides their own claim" in response.content.decode()
    assert Claim.objects.get(pk=claim.pk).is_pending
    # Deleting the rematch leaves the claim to alice, who refuses it; her decision is kept.
    client.post(reverse("games:match_delete", args=[rematch.pk]))
    claims.decide(claim=claim, approve=False, by=alice)
    claim.refresh_from_db()
    assert (claim.status, claim.decided_by) == (Claim.Status.REFUSED, alice)
    assert Player.objects.get(pk=anna.pk).user_id is None


def test_the_guests_profile_tells_the_claimant_who_decides(client, alice, bob):
    make_match(alice, ["alice", "Anna"])
    anna = Player.objects.get(name="Anna")
    client.force_login(bob)
    client.post(reverse("claims:claim_ask", args=[anna.pk]))
    page = client.get(reverse("stats:profile", args=[anna.pk])).content.decode()
    assert "You asked for this profile" in page
    assert "Decides:" in page and ">alice</a>" in page


# --- 2. naming someone's account ---------------------------------------------------------------


def start_sheet(client, user, names: list[str]) -> Match:
    """`user` starts a score sheet through the form, naming these players."""
    client.force_login(user)
    data = rules_form_data() | {f"player_{i}": name for i, name in enumerate(names, 1)}
    response = client.post(reverse("games:new_match"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Match.objects.filter(created_by=user).latest("pk")


def test_a_stranger_naming_an_account_puts_nothing_on_its_record_until_it_confirms(
    client, alice, bob, carol
):
    # bob, whom carol does not know, names her at a sheet he keeps, and finishes it.
    sheet = start_sheet(client, bob, ["bob", "carol", "Zed"])
    play_out(sheet, bob, winner_index=0)
    assert seated_names(sheet) == [("bob", True), ("carol", False), ("Zed", False)]
    carols = Player.objects.get(user=carol)
    assert not Seat.objects.filter(player=carols).exists()
    assert not Rating.objects.filter(player=carols).exists()  # her rating did not move
    client.force_login(carol)
    profile = client.get(reverse("stats:profile", args=[carols.pk])).content.decode()
    assert "Zed" not in profile

    # carol sees the notice in the top bar of every page, and the request on the claims page.
    home = client.get(reverse("home")).content.decode()
    assert 'class="waiting"' in home and "1 claim waits for your decision" in home
    link = Claim.objects.get(user=carol, status=Claim.Status.PENDING)
    assert (link.kind, link.asked_by) == (Claim.Kind.LINK, bob)
    page = client.get(reverse("claims:claims")).content.decode()
    assert "bob linked the guest carol to carol" in page and "Confirm: it is me" in page

    # She confirms: the match is hers, with its rating.
    client.post(reverse("claims:claim_decide", args=[link.pk]), {"decision": "approve"})
    assert seated_names(sheet)[1] == ("carol", True)
    assert Rating.objects.get(player=carols, pool__preset="classic").matches == 1
    assert 'class="waiting"' not in client.get(reverse("home")).content.decode()
    # And bob's later tables count for her at once.
    again = start_sheet(client, bob, ["bob", "carol"])
    assert seated_names(again) == [("bob", True), ("carol", True)]


def test_an_account_that_refuses_stays_off_the_table_and_is_not_asked_again(client, bob, carol):
    sheet = start_sheet(client, bob, ["bob", "carol"])
    play_out(sheet, bob, winner_index=1)
    link = Claim.objects.get(user=carol)
    client.force_login(carol)
    client.post(reverse("claims:claim_decide", args=[link.pk]), {"decision": "refuse"})
    assert Claim.objects.get(pk=link.pk).status == Claim.Status.REFUSED
    assert not Rating.objects.filter(player__user=carol).exists()
    # bob names her again: the same guest of his sits there, and she is not asked again.
    again = start_sheet(client, bob, ["bob", "carol"])
    assert seated_names(again) == [("bob", True), ("carol", False)]
    assert again.seats.get(position=1).player_id == sheet.seats.get(position=1).player_id
    assert Claim.objects.filter(user=carol).count() == 1


def test_own_tables_and_tables_played_on_the_site_count_as_before(client, alice, bob):
    sheet = start_sheet(client, alice, ["alice", "Dan"])
    assert seated_names(sheet) == [("alice", True), ("Dan", False)]
    assert not Claim.objects.exists()


def test_a_rematch_by_a_scorekeeper_asks_the_accounts_at_the_table(client, alice, bob, carol):
    # carol sits at alice's tables (she confirmed one); bob keeps score of this one.
    first = start_sheet(client, alice, ["alice", "carol"])
    client.force_login(carol)
    link = Claim.objects.get(user=carol)
    client.post(reverse("claims:claim_decide", args=[link.pk]), {"decision": "approve"})
    sheet = start_sheet(client, alice, ["alice", "carol", "Dan"])
    assert seated_names(sheet)[1] == ("carol", True)
    services.add_scorekeeper(match=sheet, username="bob", by=alice)

    client.force_login(bob)
    client.post(reverse("games:rematch", args=[sheet.pk]))
    rematch = Match.objects.get(rematch_of=sheet)
    # Neither alice nor carol counts bob's tables: guests of theirs sit until they confirm.
    assert seated_names(rematch) == [("alice", False), ("carol", False), ("Dan", False)]
    asked = set(Claim.objects.filter(asked_by=bob).values_list("user__username", flat=True))
    assert asked == {"alice", "carol"}
    assert first.seats.get(position=1).player.user == carol


def test_a_director_naming_an_account_enters_a_guest_until_it_confirms(alice, bob, carol):
    tournament = make_tournament(alice)
    (entrant,) = enter(tournament, ["carol"], alice)
    assert entrant.player.user is None and entrant.player.name == "carol"
    link = Claim.objects.get(user=carol, asked_by=alice)
    claims.decide(claim=link, approve=True, by=carol)
    assert list(tournament.entrants.values_list("player__user__username", flat=True)) == ["carol"]
    # bob registers himself: that is his own doing, and counts at once.
    tournament_services.register(tournament=tournament, user=bob)
    assert tournament.entrants.filter(player__user=bob).exists()
    # Typing the name of an account that entered already adds nobody.
    added = tournament_services.add_entrants(tournament=tournament, names=["BOB"], by=alice)
    assert (added.entrants, added.skipped) == ([], ["BOB"])
    assert not Claim.objects.filter(user=bob).exists()


def test_a_guest_standing_in_for_a_hidden_account_is_hidden_with_it(
    client, bob, carol, django_user_model
):
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "x")
    claims.set_private(player=carol.player, private=True, by=carol)
    sheet = start_sheet(client, bob, ["bob", "carol"])
    client.get(sheet.get_absolute_url())  # bob reads what he was told
    client.force_login(dave)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "carol" not in page and "Hidden player" in page
    # She shows her name again: the guest standing in for her shows it too.
    claims.set_private(player=carol.player, private=False, by=carol)
    assert "carol" in client.get(sheet.get_absolute_url()).content.decode()
