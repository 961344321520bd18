"""Rate limits on creating things, with the site's own rates: score sheets, played tables,
seats, claims, rounds and tournaments. A post over its limit creates nothing and gets a page
(429) saying what was not done and when to try again, in the visitor's language; a round sent
from a phone's outbox gets the same in JSON, and an htmx post a notice on its page."""

import itertools
import re
import time as real_time

import django_ratelimit.core
import pytest
from django.urls import reverse

from cards101.rules import PRESETS
from claims.models import Claim
from games.models import Match, Player
from play import services as play
from play.models import PlayTable
from tests.clock import Clock
from tests.factories import make_match
from tests.games.test_views import GOOD_ROUND, new_match_data, round_data
from tests.play.test_play import table_form_data
from tests.play.test_play_servers import log_in, send
from tests.test_rate_limits import PROXY, behind_one_proxy  # noqa: F401  (a fixture)
from tests.tournaments.test_views import form_data as tournament_data
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.real_rate_limits]

# settings.RATE_LIMITS, as docs/rate-limits.md documents them: so many posts an hour per account.
MATCHES = 30
TABLES = 30
SEATS = 60
CLAIMS = 20
ROUNDS = 600
TOURNAMENTS = 10

CLIENT = "203.0.113.7"
OTHER = "198.51.100.20"
TRY_AGAIN = re.compile(r"Try again in (\d+) minutes?\.")
HTMX = {"HTTP_HX_REQUEST": "true"}
# A round that ends no one's match: alice goes out, Dan and Eve hold nines (0 in classic).
QUIET_ROUND = [("out", "7♣"), ("hand", "9♠"), ("hand", "9♥")]


@pytest.fixture(autouse=True)
def clock(limits_clock) -> Clock:
    """django-ratelimit's clock, stopped: an hour's window never ends during a test by chance."""
    return limits_clock


def assert_limited(response, not_done: str) -> None:
    """The 429 page: what was not done, and in how many minutes (within the hour) to retry."""
    assert response.status_code == 429
    page = response.content.decode()
    assert not_done in page
    minutes = int(TRY_AGAIN.search(page)[1])
    assert 1 <= minutes <= 60
    assert 0 < int(response["Retry-After"]) <= 3600


# --- score sheets ---------------------------------------------------------------------------


def test_starting_too_many_matches_is_refused_and_starts_nothing(client, alice):
    client.force_login(alice)
    for _match in range(MATCHES):
        assert client.post(reverse("games:new_match"), new_match_data()).status_code == 302

    response = client.post(reverse("games:new_match"), new_match_data())
    assert_limited(
        response, "You have started too many matches in a short time: this one was not started."
    )
    assert Match.objects.count() == MATCHES


def test_a_refused_match_can_be_started_when_the_page_says(client, alice, clock):
    client.force_login(alice)
    for _match in range(MATCHES):
        client.post(reverse("games:new_match"), new_match_data())
    refused = client.post(reverse("games:new_match"), new_match_data())
    clock.now += int(refused["Retry-After"]) - 1
    assert client.post(reverse("games:new_match"), new_match_data()).status_code == 429
    clock.now += 1
    assert client.post(reverse("games:new_match"), new_match_data()).status_code == 302
    assert Match.objects.count() == MATCHES + 1


def test_a_rematch_counts_as_a_new_match(client, alice):
    client.force_login(alice)
    for _match in range(MATCHES):
        client.post(reverse("games:new_match"), new_match_data())
    last = Match.objects.latest("pk")

    response = client.post(reverse("games:rematch", args=[last.pk]))
    assert_limited(response, "this one was not started")
    assert Match.objects.count() == MATCHES


def test_the_limit_is_per_account(client, alice, bob):
    client.force_login(alice)
    for _match in range(MATCHES + 1):
        client.post(reverse("games:new_match"), new_match_data())
    client.force_login(bob)
    response = client.post(reverse("games:new_match"), new_match_data(player_1="bob"))
    assert response.status_code == 302
    assert Match.objects.filter(created_by=bob).count() == 1


def test_the_refusal_is_in_russian_for_a_russian_visitor(client, alice):
    client.force_login(alice)
    for _match in range(MATCHES):
        client.post(reverse("games:new_match"), new_match_data())
    response = client.post(reverse("games:new_match"), new_match_data(), HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 429
    page = response.content.decode()
    assert "Вы начали слишком много партий за короткое время: эта партия не создана." in page
    assert re.search(r"Попробуйте снова через \d+ минут", page)


# --- played tables --------------------------------------------------------------------------


def test_opening_too_many_tables_is_refused_and_opens_nothing(client, alice):
    client.force_login(alice)
    for _table in range(TABLES):
        assert client.post(reverse("play:new"), table_form_data()).status_code == 302

    response = client.post(reverse("play:new"), table_form_data())
    assert_limited(
        response, "You have opened too many tables in a short time: this one was not opened."
    )
    assert PlayTable.objects.count() == TABLES


def test_taking_too_many_seats_is_refused_and_takes_nothing(client, alice, bob):
    tables = [
        play.create_table(
            by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "open"], public=True
        )
        for _table in range(SEATS + 1)
    ]
    client.force_login(bob)
    for table in tables[:SEATS]:
        client.post(reverse("play:join", args=[table.pk]))
    assert PlayTable.objects.filter(seats__user=bob).count() == SEATS

    response = client.post(reverse("play:join", args=[tables[-1].pk]))
    assert_limited(
        response, "You have taken too many seats in a short time: this one was not taken."
    )
    assert not tables[-1].seats.filter(user=bob).exists()


# --- claims ---------------------------------------------------------------------------------


def test_sending_too_many_claims_is_refused_and_sends_nothing(client, alice, bob):
    for number in range(0, CLAIMS + 2, 2):
        make_match(alice, ["alice", f"Guest {number}", f"Guest {number + 1}"])
    guests = list(Player.objects.filter(name__startswith="Guest ").order_by("pk"))
    client.force_login(bob)
    for guest in guests[:CLAIMS]:
        client.post(reverse("claims:claim_ask", args=[guest.pk]))
    assert Claim.objects.filter(user=bob).count() == CLAIMS

    response = client.post(reverse("claims:claim_ask", args=[guests[CLAIMS].pk]))
    assert_limited(
        response, "You have sent too many claims in a short time: this one was not sent."
    )
    # Linking a guest to an account is a claim too.
    response = client.post(
        reverse("claims:claim_link", args=[guests[CLAIMS].pk]), {"username": "alice"}
    )
    assert response.status_code == 429
    assert Claim.objects.count() == CLAIMS


# --- rounds ---------------------------------------------------------------------------------


def send_url(match) -> str:
    return reverse("games:round_send", args=[match.pk])


def test_an_outbox_of_thirty_rounds_is_taken_all_at_once(client, alice, match):
    # A phone that kept a whole evening's rounds offline sends them one after another.
    client.force_login(alice)
    version = match.version
    for _round in range(30):
        response = client.post(
            send_url(match), round_data(version, *QUIET_ROUND) | {"seats": "0,1,2"}
        )
        assert response.status_code == 201
        version = response.json()["version"]
    assert match.rounds.count() == 30


def refused_saves(client, url: str, count: int) -> None:
    """Rounds sent that the form refuses: they count as saves (and are quicker to make)."""
    for _save in range(count):
        assert client.post(url, {"version": "1", "seats": "0,1,2"}).status_code == 400


def test_saving_too_many_rounds_is_refused_and_saves_nothing(client, alice, match):
    client.force_login(alice)
    url = reverse("games:round_new", args=[match.pk])
    # Rounds from the outbox and from the form count together.
    refused_saves(client, send_url(match), ROUNDS // 2)
    for _round in range(ROUNDS // 2):
        assert client.post(url, round_data(match.version, ("out", "Q♠"))).status_code == 200

    response = client.post(url, round_data(match.version, *GOOD_ROUND))
    assert_limited(
        response, "You have saved too many rounds in a short time: this one was not saved."
    )
    assert match.rounds.count() == 0


def test_a_limited_round_saved_through_htmx_shows_a_notice_and_keeps_the_form(client, alice, match):
    client.force_login(alice)
    refused_saves(client, send_url(match), ROUNDS)
    url = reverse("games:round_new", args=[match.pk])
    response = client.post(url, round_data(match.version, *GOOD_ROUND), **HTMX)
    assert response.status_code == 429
    # Put at the top of the page (base.html lets htmx take a 429), not over the sheet and
    # the round typed into it.
    assert response["HX-Retarget"] == "#main"
    assert response["HX-Reswap"] == "afterbegin show:top"
    notice = response.content.decode()
    assert 'role="alert"' in notice
    assert "this one was not saved" in notice and TRY_AGAIN.search(notice)
    assert "<html" not in notice
    assert match.rounds.count() == 0


def test_a_limited_round_from_the_outbox_is_answered_in_json_to_be_sent_later(client, alice, match):
    client.force_login(alice)
    refused_saves(client, send_url(match), ROUNDS)
    data = round_data(match.version, *GOOD_ROUND) | {"seats": "0,1,2"}
    response = client.post(send_url(match), data, HTTP_ACCEPT="application/json")
    assert response.status_code == 429
    answer = response.json()
    assert answer["error"].startswith(
        "You have saved too many rounds in a short time: this one was not saved. Try again in"
    )
    assert 0 < answer["retry_after"] <= 3600
    assert answer["retry_after"] == int(response["Retry-After"])
    assert match.rounds.count() == 0


def test_previews_of_a_round_do_not_count(client, alice, match):
    client.force_login(alice)
    refused_saves(client, send_url(match), ROUNDS - 1)
    url = reverse("games:round_new", args=[match.pk])
    preview = round_data(match.version, *GOOD_ROUND, action="preview")
    for _preview in range(10):
        assert client.post(url, preview, **HTMX).status_code == 200

    response = client.post(url, round_data(match.version, *GOOD_ROUND), **HTMX)
    assert response.status_code == 200  # the six hundredth save
    assert match.rounds.count() == 1


@pytest.mark.usefixtures("behind_one_proxy")
def test_someone_not_signed_in_is_counted_by_the_address_the_proxy_adds(client, match):
    # Posts of rounds need an account (each is refused, 403), but count all the same.
    for _round in range(ROUNDS):
        response = client.post(send_url(match), {}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=CLIENT)
        assert response.status_code == 403
    limited = client.post(send_url(match), {}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=CLIENT)
    assert limited.status_code == 429
    # Another client behind the same proxy is not limited.
    other = client.post(send_url(match), {}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=OTHER)
    assert other.status_code == 403


# --- tournaments ----------------------------------------------------------------------------


def test_creating_too_many_tournaments_is_refused_and_creates_nothing(client, alice):
    client.force_login(alice)
    for _tournament in range(TOURNAMENTS):
        assert client.post(reverse("tournaments:new"), tournament_data()).status_code == 302

    response = client.post(reverse("tournaments:new"), tournament_data())
    assert_limited(
        response,
        "You have created too many tournaments in a short time: this one was not created.",
    )
    assert Tournament.objects.count() == TOURNAMENTS


# --- what is not limited --------------------------------------------------------------------


def test_pages_are_not_counted(client, alice):
    client.force_login(alice)
    for _page in range(MATCHES + 1):
        assert client.get(reverse("games:new_match")).status_code == 200
    assert client.post(reverse("games:new_match"), new_match_data()).status_code == 302


# --- two app servers sharing Redis ----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_matches_started_on_two_servers_count_against_one_limit(two_workers, django_user_model):
    # The servers' clocks are real: the account must be well inside an hour's window (each
    # account's windows end at a moment of their own, django-ratelimit's _get_window), so take
    # the first new account whose window has a minute left rather than wait for one.
    for number in itertools.count():
        user = django_user_model.objects.create_user(f"player{number}", password="pw-of-theirs")
        if django_ratelimit.core._get_window(str(user.pk), 3600) - real_time.time() >= 60:
            break
    cookies = log_in(two_workers[0], user.username, "pw-of-theirs")
    url = reverse("games:new_match")
    # Each server alone sees only half of alice's matches.
    for number in range(MATCHES):
        response, _page = send(two_workers[number % 2], "POST", url, cookies, new_match_data())
        assert response.status == 302, _page

    for worker in two_workers:
        response, page = send(worker, "POST", url, cookies, new_match_data())
        assert response.status == 429
        assert "this one was not started" in page
    assert Match.objects.count() == MATCHES


# --- allauth's own limits -------------------------------------------------------------------


def test_allauths_limits_answer_with_the_same_page(client):
    # allauth lets one address sign up (or try to) 20 times a minute.
    for attempt in range(20):
        client.post(reverse("account_signup"), {"username": f"new{attempt}"})
    response = client.post(reverse("account_signup"), {"username": "one-more"})
    assert response.status_code == 429
    page = response.content.decode()
    assert "Too many requests in a short time. Try again in a few minutes." in page
    assert 'class="topbar"' in page  # the site's own page, with its menus
