"""Claims of guest profiles: asked and approved or refused, linked and confirmed, refused for two
people who met, decided by the right people only, once, with every step on record."""

import logging

import pytest
from django.urls import reverse

from claims import queries as claim_queries
from claims import services as claims
from claims.models import Claim
from games.models import Match, Player, Seat
from games.services import NotAllowed
from stats.models import Rating, RatingChange
from tests.factories import at_once, counts_tables_of, make_match, play_out
from tests.stats.test_rating_services import assert_equals_a_rebuild
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def guest(name: str) -> Player:
    return Player.objects.get(name=name, user=None)


@pytest.fixture
def dan(alice):
    """alice's guest Dan, who played two finished matches with alice and Eve."""
    for winner in (0, 1):
        play_out(make_match(alice, ["alice", "Dan", "Eve"]), alice, winner_index=winner)
    return guest("Dan")


# --- asking and approving --------------------------------------------------------------------


def test_an_approved_claim_moves_the_guests_matches_and_ratings_to_the_account(alice, bob, dan):
    # bob has a rated history of his own, in matches Dan never sat at.
    own_match = make_match(bob, ["bob", "Zed"])
    play_out(own_match, bob, winner_index=0)
    dan_matches = set(Match.objects.filter(seats__player=dan).values_list("pk", flat=True))
    claim = claims.ask(guest=dan, by=bob)
    assert claim.is_pending and claim.asked_by == bob and claim.user == bob
    assert Player.objects.filter(pk=dan.pk).exists()  # nothing moves before a decision

    claims.decide(claim=claim, approve=True, by=alice)

    claim.refresh_from_db()
    assert claim.status == Claim.Status.APPROVED
    assert (claim.decided_by, claim.seats_moved) == (alice, 2)
    assert (claim.guest, claim.guest_number, claim.guest_name) == (None, dan.pk, "Dan")
    assert not Player.objects.filter(pk=dan.pk).exists()
    bobs = Player.objects.get(user=bob)
    assert set(Match.objects.filter(seats__player=bobs).values_list("pk", flat=True)) == (
        dan_matches | {own_match.pk}
    )
    rating = Rating.objects.get(player=bobs, pool__preset="classic")
    assert rating.matches == 3
    assert not RatingChange.objects.filter(player_id=dan.pk).exists()
    assert_equals_a_rebuild()


def test_a_refused_claim_leaves_the_guest_as_it_was(alice, bob, dan):
    claim = claims.ask(guest=dan, by=bob)
    claims.decide(claim=claim, approve=False, by=alice)
    claim.refresh_from_db()
    assert (claim.status, claim.decided_by) == (Claim.Status.REFUSED, alice)
    assert Seat.objects.filter(player=dan).count() == 2
    with pytest.raises(NotAllowed, match="already refused"):
        claims.decide(claim=claim, approve=True, by=alice)


def test_asking_twice_gives_the_same_claim_and_the_asker_may_withdraw_it(alice, bob, dan):
    first = claims.ask(guest=dan, by=bob)
    assert claims.ask(guest=dan, by=bob) == first
    with pytest.raises(NotAllowed, match="Only whoever asked"):
        claims.withdraw(claim=first, by=alice)
    claims.withdraw(claim=first, by=bob)
    first.refresh_from_db()
    assert (first.status, first.decided_by) == (Claim.Status.WITHDRAWN, bob)
    assert claims.ask(guest=dan, by=bob) != first  # asked again: a new claim


def test_nobody_decides_their_own_claim_and_a_guest_with_no_other_judge_goes_to_staff(
    alice, django_user_model
):
    # alice typed herself in as a guest, "Al", and is the only one who may judge Al.
    play_out(make_match(alice, ["Al", "Eve"]), alice)
    claim = claims.ask(guest=guest("Al"), by=alice)
    assert claim.is_pending  # not approved by her own word
    with pytest.raises(NotAllowed, match="Nobody decides their own claim"):
        claims.decide(claim=claim, approve=True, by=alice)
    # Linking the guest to her own account is the same request.
    assert claims.link(guest=guest("Al"), username="alice", by=alice) == claim
    staff = django_user_model.objects.create_user("sam", "sam@example.com", "x", is_staff=True)
    assert claim_queries.deciders(claim) == {staff.pk}
    claims.decide(claim=claim, approve=True, by=staff)
    claim.refresh_from_db()
    assert (claim.status, claim.decided_by) == (Claim.Status.APPROVED, staff)
    assert Seat.objects.filter(player__user=alice).count() == 1


# --- two people, not one ---------------------------------------------------------------------


def test_a_guest_who_sat_with_the_claimant_cannot_be_them(alice, bob):
    make_match(bob, ["bob", "Dan"])
    with pytest.raises(NotAllowed, match="sat at the same match"):
        claims.ask(guest=guest("Dan"), by=bob)
    assert not Claim.objects.exists()


def test_a_claim_becomes_impossible_once_the_two_sit_together(alice, bob, dan):
    claim = claims.ask(guest=dan, by=bob)
    counts_tables_of(bob, alice)
    make_match(alice, ["bob", "Dan"])
    with pytest.raises(NotAllowed, match="sat at the same match"):
        claims.decide(claim=claim, approve=True, by=alice)
    claim.refresh_from_db()
    assert claim.is_pending
    assert Player.objects.filter(pk=dan.pk).exists()
    assert Seat.objects.filter(player=dan).count() == 3


def test_two_entrants_of_one_tournament_are_two_people(alice, bob):
    tournament = make_tournament(alice)
    enter(tournament, ["Gus", "Vera"], alice)
    tournament_services.register(tournament=tournament, user=bob)
    claim = claims.ask(guest=guest("Gus"), by=bob)
    with pytest.raises(NotAllowed, match="both play in Club night"):
        claims.decide(claim=claim, approve=True, by=alice)
    assert Player.objects.filter(name="Gus").exists()


def test_an_entrant_claimed_moves_its_entry_and_the_tournament_shows_the_account(alice, bob):
    tournament = make_tournament(alice)
    enter(tournament, ["Gus", "Vera", "Wim"], alice)
    version = tournament.version
    claim = claims.ask(guest=guest("Gus"), by=bob)
    claims.decide(claim=claim, approve=True, by=alice)
    assert set(tournament.entrants.values_list("player__name", flat=True)) == {"bob", "Vera", "Wim"}
    tournament.refresh_from_db()
    assert tournament.version > version


def test_bots_and_accounts_are_nobodys_to_claim(alice, bob):
    bot = Player.objects.create(name="Greedy bot", is_bot=True)
    with pytest.raises(NotAllowed, match="A bot"):
        claims.ask(guest=bot, by=bob)
    with pytest.raises(NotAllowed, match="already has an account"):
        claims.ask(guest=Player.objects.get(user=alice), by=bob)
    with pytest.raises(NotAllowed, match="already has an account"):
        claims.ask(guest=Player.objects.get(user=bob), by=bob)


# --- who decides -------------------------------------------------------------------------------


def test_only_the_guests_judges_decide_a_claim(alice, bob, carol, django_user_model, dan):
    claim = claims.ask(guest=dan, by=bob)
    with pytest.raises(NotAllowed, match="Nobody decides their own claim"):
        claims.decide(claim=claim, approve=True, by=bob)
    with pytest.raises(NotAllowed, match="Only whoever added this guest"):
        claims.decide(claim=claim, approve=True, by=carol)
    assert Claim.objects.get(pk=claim.pk).is_pending
    assert claim_queries.judges(dan) == {alice.pk}


def test_a_tournaments_creator_and_directors_are_judges_a_creator_of_its_tables_is_not(
    alice, bob, carol, django_user_model
):
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "x")
    tournament = make_tournament(carol)
    tournament_services.add_director(tournament=tournament, username="dave")
    (gus,) = enter(tournament, ["Gus"], carol)
    assert claim_queries.judges(gus.player) == {carol.pk, dave.pk}
    # Carol seats Gus at a table: creating that match gives nobody a say.
    assert claim_queries.may_judge(gus.player, dave)
    assert not claim_queries.may_judge(gus.player, alice)
    claim = claims.ask(guest=gus.player, by=bob)
    claims.decide(claim=claim, approve=True, by=dave)
    assert Claim.objects.get(pk=claim.pk).decided_by == dave


def test_a_link_is_made_by_a_judge_and_confirmed_by_the_account_alone(alice, bob, carol, dan):
    with pytest.raises(NotAllowed, match="can link it"):
        claims.link(guest=dan, username="bob", by=carol)
    with pytest.raises(NotAllowed, match="no account called"):
        claims.link(guest=dan, username="nobody", by=alice)
    with pytest.raises(NotAllowed, match="Enter the username"):
        claims.link(guest=dan, username="  ", by=alice)
    claim = claims.link(guest=dan, username="BOB", by=alice)
    assert (claim.kind, claim.user, claim.asked_by) == (Claim.Kind.LINK, bob, alice)
    for other in (alice, carol):
        with pytest.raises(NotAllowed, match="Only the account's owner"):
            claims.decide(claim=claim, approve=True, by=other)
    claims.decide(claim=claim, approve=True, by=bob)
    assert Seat.objects.filter(player__user=bob).count() == 2


def test_every_step_is_logged_with_who_took_it(alice, bob, dan, caplog):
    with caplog.at_level(logging.INFO, logger="claims.services"):
        claim = claims.ask(guest=dan, by=bob)
        claims.decide(claim=claim, approve=True, by=alice)
    lines = [record.getMessage() for record in caplog.records]
    assert lines[0] == f"claim {claim.pk}: bob asks for guest {dan.pk} (Dan)"
    assert lines[1].startswith(f"claim {claim.pk}: approved by alice; guest {dan.pk} (Dan) merged")


# --- at once -------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_approvals_at_once_merge_once(alice, bob, django_user_model):
    play_out(make_match(alice, ["alice", "Dan"]), alice)
    dan = guest("Dan")
    tournament = make_tournament(alice)
    tournament_services.add_director(tournament=tournament, username="bob")
    enter(tournament, ["Dan"], alice)
    carol = django_user_model.objects.create_user("carol", "c@example.com", "x")
    claim = claims.ask(guest=dan, by=carol)

    def approve(user):
        return lambda: claims.decide(claim=claim, approve=True, by=user)

    results = at_once(approve(alice), approve(bob))
    refusals = [str(r) for r in results if isinstance(r, Exception)]
    assert len(refusals) == 1, results
    assert refusals[0] in {
        "This claim was already approved.",
        "This guest is no longer there: it was merged or removed.",
    }
    assert Claim.objects.get(pk=claim.pk).status == Claim.Status.APPROVED
    assert Seat.objects.filter(player__user=carol).count() == 1
    assert not Player.objects.filter(pk=dan.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_two_peoples_claims_of_one_guest_approved_at_once_give_it_to_one(
    alice, bob, carol, django_user_model
):
    play_out(make_match(alice, ["alice", "Dan"]), alice)
    dan = guest("Dan")
    asked = [claims.ask(guest=dan, by=user) for user in (bob, carol)]

    results = at_once(*(lambda c=c: claims.decide(claim=c, approve=True, by=alice) for c in asked))
    assert sum(isinstance(r, Exception) for r in results) == 1, results
    statuses = sorted(Claim.objects.values_list("status", flat=True))
    assert statuses == [Claim.Status.APPROVED, Claim.Status.REFUSED]
    owner = Claim.objects.get(status=Claim.Status.APPROVED).user
    assert Seat.objects.filter(player__user=owner).count() == 1
    assert Seat.objects.count() == 2


# --- the pages ---------------------------------------------------------------------------------


def test_a_visitor_claims_from_the_guests_profile_and_the_judge_approves_on_the_claims_page(
    client, alice, bob, dan
):
    profile = reverse("stats:profile", args=[dan.pk])
    page = client.get(profile).content.decode()
    assert "Is this you?" in page and "Log in" in page

    client.force_login(bob)
    assert "This is me" in client.get(profile).content.decode()
    response = client.post(reverse("claims:claim_ask", args=[dan.pk]), {"next": profile})
    assert response.url == profile
    page = client.get(profile).content.decode()
    assert "You asked for this profile" in page and "This is me" not in page

    client.force_login(alice)
    page = client.get(reverse("claims:claims")).content.decode()
    assert "bob says they are the guest Dan" in page
    claim = Claim.objects.get()
    response = client.post(reverse("claims:claim_decide", args=[claim.pk]), {"decision": "approve"})
    assert response.url == reverse("claims:claims")
    bobs = Player.objects.get(user=bob)
    # The guest's old address leads to its new owner.
    response = client.get(profile)
    assert response.status_code == 301
    assert response.url == reverse("stats:profile", args=[bobs.pk])
    assert "approved" in client.get(reverse("claims:claims")).content.decode()


def test_claim_pages_refuse_what_they_should(client, alice, bob, carol, dan):
    ask = reverse("claims:claim_ask", args=[dan.pk])
    assert client.post(ask).url.startswith(reverse("account_login"))
    client.force_login(bob)
    assert client.get(ask).status_code == 405
    assert client.post(reverse("claims:claim_ask", args=[99999999999])).status_code == 404
    assert client.post(reverse("claims:claim_decide", args=[424242])).status_code == 404
    client.post(ask)
    claim = Claim.objects.get()
    client.force_login(carol)
    response = client.post(
        reverse("claims:claim_decide", args=[claim.pk]), {"decision": "approve"}, follow=True
    )
    assert "Only whoever added this guest" in response.content.decode()
    assert Claim.objects.get().is_pending
    # An outside "next" is not followed, nor one that is not a path.
    for outside in ("https://evil.example/", "claims"):
        response = client.post(reverse("claims:claim_decide", args=[claim.pk]), {"next": outside})
        assert response.url == reverse("claims:claims")
    response = client.post(
        reverse("claims:claim_withdraw", args=[claim.pk]), {"next": "https://evil.example/"}
    )
    assert response.url == reverse("claims:claims")


def test_a_judge_links_a_guest_from_its_profile_and_the_account_confirms(client, alice, bob, dan):
    client.force_login(alice)
    profile = reverse("stats:profile", args=[dan.pk])
    assert "Link this guest to an account" in client.get(profile).content.decode()
    client.post(reverse("claims:claim_link", args=[dan.pk]), {"username": "bob"})
    client.force_login(bob)
    page = client.get(reverse("claims:claims")).content.decode()
    assert "alice linked the guest Dan to bob" in page
    claim = Claim.objects.get()
    client.post(reverse("claims:claim_decide", args=[claim.pk]), {"decision": "approve"})
    assert Seat.objects.filter(player__user=bob).count() == 2


def test_the_claims_page_says_when_nothing_waits(client, bob):
    client.force_login(bob)
    page = client.get(reverse("claims:claims")).content.decode()
    assert "Nothing waits for you." in page
    assert "You have not claimed or linked a guest." in page
