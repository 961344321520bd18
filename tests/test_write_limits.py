"""Rate limits on every post that changes something, with the site's own rates
(docs/rate-limits.md): one account sending one kind of post as fast as the server answers is
stopped well before the end, and nothing is done past the limit; a person at the pace of play
never meets one. Refused posts count too: a flood costs the server as much refused as accepted.

Creating things: tests/test_creation_limits.py; logins: tests/test_rate_limits.py; that every
view taking posts has a limit: tests/test_every_write.py."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import cycle, islice

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from claims import services as claims
from claims.models import Claim
from config.views import NOT_DONE
from games.models import Correction, Match, Player
from play.models import PlayMove, PlayTable
from tests.clock import Clock
from tests.factories import make_match, play_out, record, round_at
from tests.games.test_views import round_data
from tests.play.test_play import game_of, new_table, play_round, until_my_turn
from tests.test_creation_limits import HTMX, QUIET_ROUND, assert_limited
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = [pytest.mark.django_db, pytest.mark.real_rate_limits]

RATE_LIMITS_PAGE = settings.BASE_DIR / "docs" / "rate-limits.md"

# settings.RATE_LIMITS, as docs/rate-limits.md documents them.
MOVES_A_MINUTE = 90
DEALS_A_MINUTE = 30
PREVIEWS_A_MINUTE = 90
CORRECTIONS_AN_HOUR = 60
PRIVACY_CHANGES_AN_HOUR = 20
DIRECTOR_CLICKS_A_MINUTE = 60
LANGUAGE_SWITCHES_A_MINUTE = 60
AN_HOUR_OF = {
    "leave": 30,
    "scorekeeper": 60,
    "rated": 30,
    "delete": 30,
    "decide": 120,
    "withdraw": 40,
    "register": 30,
    "seating": 30,
    "display": 30,
}


Post = tuple[str, dict]  # where to, and what


@pytest.fixture(autouse=True)
def clock(limits_clock) -> Clock:
    """django-ratelimit's clock, stopped: a window never ends during a test by chance."""
    return limits_clock


def flood(client: Client, posts: Iterable[Post], count: int = 200, **extra) -> list[int]:
    """`count` posts one after another (`posts` in turn, again and again), as fast as the
    server answers: the status of each."""
    return [
        client.post(url, data, **extra).status_code for url, data in islice(cycle(posts), count)
    ]


def taken_before_the_limit(statuses: list[int]) -> int:
    """How many posts were taken before the first was refused (429); none is taken after it."""
    assert 429 in statuses, "never refused"
    first = statuses.index(429)
    assert set(statuses[first:]) == {429}
    return first


def at_pace(clock: Clock, client: Client, posts: Iterable[Post], *, every: float, count: int):
    """`count` posts, one every `every` seconds: the status of each."""
    statuses = []
    for url, data in islice(cycle(posts), count):
        statuses.append(client.post(url, data).status_code)
        clock.now += every
    return statuses


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- every limit --------------------------------------------------------------------------------


def test_every_limit_says_what_was_not_done_in_english_and_russian_and_is_documented():
    from django.utils import translation

    page = RATE_LIMITS_PAGE.read_text()
    for group, rate in settings.RATE_LIMITS.items():
        assert group in NOT_DONE, group
        with translation.override("ru"):
            russian = str(NOT_DONE[group])
        assert russian != str(NOT_DONE[group]) and re.search("[а-я]", russian), group
        assert re.search(rf"^\| `{group}`.*\| `{re.escape(rate)}` \|", page, re.M), group


# --- moves at a played table --------------------------------------------------------------------


def move_data(move, version: int) -> dict:
    return {
        "version": version,
        "kind": move.kind,
        "card": move.card.code if move.card else "",
        "suit": move.suit or "",
    }


@pytest.fixture
def alices_turn(alice):
    """alice against the greedy bot, her move."""
    table = new_table(alice, seats=("me", "greedy"))
    until_my_turn(table)
    table.refresh_from_db()
    return table


def test_200_moves_sent_flat_out_are_stopped_at_the_ninety_first_and_none_is_made_after(
    alice, alices_turn
):
    table, client = alices_turn, signed_in(alice)
    url = reverse("play:move", args=[table.pk])
    # Refused moves (a version the table has left) count as much as the others.
    stale = {"version": table.version - 1, "kind": "pass"}
    assert taken_before_the_limit(flood(client, [(url, stale)])) == MOVES_A_MINUTE

    legal = game_of(table).legal_moves()[0]
    response = client.post(url, move_data(legal, table.version))
    assert_limited(response, "You have made too many moves in a short time: this one was not made.")
    assert PlayTable.objects.get(pk=table.pk).version == table.version
    assert not PlayMove.objects.filter(table=table, by="").exists()


def test_a_move_over_the_limit_says_so_at_the_top_of_the_tables_page_in_russian(alice, alices_turn):
    table, client = alices_turn, signed_in(alice)
    url = reverse("play:move", args=[table.pk])
    flood(client, [(url, {"version": 0, "kind": "pass"})], count=MOVES_A_MINUTE)
    legal = move_data(game_of(table).legal_moves()[0], table.version)
    response = client.post(url, legal, HTTP_ACCEPT_LANGUAGE="ru", **HTMX)
    assert response.status_code == 429
    # Not over the board (the move's target): at the top of the page, which has one.
    assert response["HX-Retarget"] == "#main"
    assert response["HX-Reswap"] == "afterbegin show:top"
    assert 'id="main"' in client.get(table.get_absolute_url()).content.decode()
    notice = response.content.decode()
    assert 'role="alert"' in notice
    assert "Вы сделали слишком много ходов за короткое время: этот ход не сделан." in notice
    assert "Попробуйте снова через 1 минуту." in notice
    english = client.post(url, legal, **HTMX).content.decode()
    assert "You have made too many moves in a short time" in english
    assert "Try again in 1 minute." in english


def test_a_player_moving_every_second_for_five_minutes_is_never_refused(alice, alices_turn, clock):
    """Twice as fast as a quick player keeps up, refused moves and all."""
    table, client = alices_turn, signed_in(alice)
    url = reverse("play:move", args=[table.pk])
    stale = {"version": table.version - 1, "kind": "pass"}
    statuses = at_pace(clock, client, [(url, stale)], every=1, count=300)
    assert set(statuses) == {302}


# --- the next deal and fast-forward -------------------------------------------------------------


@pytest.fixture
def round_over(alice):
    table = new_table(alice, seats=("me", "greedy"))
    assert play_round(table, alice).round_over
    table.refresh_from_db()
    return table


def test_dealing_flat_out_is_stopped_at_the_thirty_first_and_deals_nothing_after(alice, round_over):
    client = signed_in(alice)
    next_deal = reverse("play:next", args=[round_over.pk])
    fast_forward = reverse("play:fast_forward", args=[round_over.pk])
    stale = {"round": 0}  # a round long over: nothing to do
    # The next deal and fast-forward count together.
    statuses = flood(client, [(fast_forward, stale), (next_deal, stale)])
    assert taken_before_the_limit(statuses) == DEALS_A_MINUTE

    response = client.post(next_deal, {"round": game_of(round_over).round + 1})
    assert_limited(
        response,
        "You have started or fast-forwarded too many rounds in a short time: this was not done.",
    )
    assert game_of(round_over).round_over


def test_a_player_dealing_or_fast_forwarding_every_four_seconds_is_never_refused(
    alice, round_over, clock
):
    """Quicker than a round can be played out among bots and dealt again."""
    client = signed_in(alice)
    posts = [
        (reverse("play:fast_forward", args=[round_over.pk]), {"round": 0}),
        (reverse("play:next", args=[round_over.pk]), {"round": 0}),
    ]
    assert set(at_pace(clock, client, posts, every=4, count=150)) == {302}


# --- previews of a round ------------------------------------------------------------------------


@pytest.fixture
def one_round(alice, match):
    """alice's match with Dan and Eve, one round entered."""
    record(match, alice, {"alice": {"out": "7C"}, "Dan": {"points": 12}, "Eve": {"points": 20}})
    return match


def test_200_previews_sent_flat_out_are_stopped_at_the_ninety_first_and_saves_count_apart(
    alice, one_round
):
    match, client = one_round, signed_in(alice)
    new = reverse("games:round_new", args=[match.pk])
    edit = reverse("games:round_edit", args=[match.pk, round_at(match, 1).pk])
    preview = round_data(match.version, *QUIET_ROUND, action="preview")
    # The previews of a new round and of a round being changed count together.
    statuses = flood(client, [(new, preview), (edit, preview)], HTTP_HX_TARGET="preview", **HTMX)
    assert taken_before_the_limit(statuses) == PREVIEWS_A_MINUTE
    response = client.post(new, preview, **HTMX)
    assert_limited(
        response, "You have asked for too many previews in a short time: this one was not shown."
    )

    # A preview saves nothing, so saving is not held up by them: the round is saved.
    response = client.post(new, round_data(match.version, *QUIET_ROUND), **HTMX)
    assert response.status_code == 200
    assert match.rounds.count() == 2


def test_a_scorekeeper_typing_flat_out_for_three_minutes_is_never_refused(alice, match, clock):
    """A preview every second (each pause in typing, each field left), a round saved every
    twenty."""
    client = signed_in(alice)
    url = reverse("games:round_new", args=[match.pk])
    for second in range(180):
        match.refresh_from_db()
        action = "save" if second % 20 == 19 else "preview"
        response = client.post(url, round_data(match.version, *QUIET_ROUND, action=action), **HTMX)
        assert response.status_code == 200
        clock.now += 1
    assert match.rounds.count() == 9


# --- corrections --------------------------------------------------------------------------------


def corrected(
    client: Client, match: Match, count: int, clock: Clock | None = None, every: float = 0
) -> list[int]:
    """Round 1 changed `count` times, each time to other points for Dan (a correction each),
    on the round as it then is."""
    round_ = round_at(match, 1)
    url = reverse("games:round_edit", args=[match.pk, round_.pk])
    statuses = []
    for edit in range(count):
        round_.refresh_from_db()
        data = round_data(round_.version, ("out", "7♣"), ("points", 10 + edit % 2), ("points", 20))
        statuses.append(client.post(url, data).status_code)
        if clock is not None:
            clock.now += every
    return statuses


def test_200_round_edits_sent_flat_out_are_stopped_at_the_sixty_first_and_add_no_correction(
    alice, one_round
):
    match, client = one_round, signed_in(alice)
    assert taken_before_the_limit(corrected(client, match, 200)) == CORRECTIONS_AN_HOUR
    assert Correction.objects.filter(match=match).count() == CORRECTIONS_AN_HOUR

    # Deleting a round is a correction too.
    round_ = round_at(match, 1)
    response = client.post(
        reverse("games:round_delete", args=[match.pk, round_.pk]), {"version": round_.version}
    )
    assert_limited(
        response,
        "You have corrected too many rounds in a short time: this correction was not made.",
    )
    assert match.rounds.count() == 1
    assert Correction.objects.filter(match=match).count() == CORRECTIONS_AN_HOUR


def test_a_director_correcting_a_round_every_ninety_seconds_for_two_hours_is_never_refused(
    alice, one_round, clock
):
    client = signed_in(alice)
    assert set(corrected(client, one_round, 80, clock, every=90)) == {302}
    assert Correction.objects.filter(match=one_round).count() == 80


# --- privacy ------------------------------------------------------------------------------------


def test_100_privacy_changes_sent_flat_out_are_stopped_at_the_twenty_first_and_change_nothing(
    bob,
):
    client, url = signed_in(bob), reverse("claims:privacy")
    hide, show = (url, {"private": "on"}), (url, {})
    statuses = flood(client, [hide, show], count=100)
    assert taken_before_the_limit(statuses) == PRIVACY_CHANGES_AN_HOUR
    bob.player.refresh_from_db()
    assert not bob.player.private  # as the twentieth change left it: shown

    response = client.post(*hide)
    assert_limited(
        response,
        "You have changed who sees your name too often in a short time: this change was not made.",
    )
    bob.player.refresh_from_db()
    assert not bob.player.private


def test_changing_ones_mind_every_ten_minutes_through_an_evening_is_never_refused(bob, clock):
    url = reverse("claims:privacy")
    posts = [(url, {"private": "on"}), (url, {})]
    assert set(at_pace(clock, signed_in(bob), posts, every=600, count=18)) == {302}


# --- a director's clicks ------------------------------------------------------------------------


@pytest.fixture
def entrant(alice):
    """alice's tournament, open for registration, with one player not checked in yet."""
    tournament = make_tournament(alice)
    return enter(tournament, ["Vera"], alice, checked_in=False)[0]


def check_in_and_out(entrant) -> list[Post]:
    url = reverse("tournaments:entrant", args=[entrant.tournament_id, entrant.pk])
    return [(url, {"action": "check_in"}), (url, {"action": "check_out"})]


def test_200_director_clicks_sent_flat_out_are_stopped_at_the_sixty_first_and_do_nothing(
    alice, entrant
):
    client = signed_in(alice)
    statuses = flood(client, check_in_and_out(entrant))
    assert taken_before_the_limit(statuses) == DIRECTOR_CLICKS_A_MINUTE
    check_in = check_in_and_out(entrant)[0]
    response = client.post(*check_in)
    assert_limited(
        response,
        "You have made too many changes to tournaments in a short time: this one was not made.",
    )
    entrant.refresh_from_db()
    assert not entrant.checked_in  # as the sixtieth click left it


def test_a_director_checking_players_in_every_two_seconds_is_never_refused(alice, entrant, clock):
    """Quicker than players come to the desk, for five minutes."""
    statuses = at_pace(clock, signed_in(alice), check_in_and_out(entrant), every=2, count=150)
    assert set(statuses) == {302}


# --- the language -------------------------------------------------------------------------------


def switch(language: str) -> Post:
    return reverse("set_language"), {"language": language, "next": "/"}


def test_switching_the_language_flat_out_is_stopped_at_the_sixty_first_and_switches_nothing():
    client = Client()
    statuses = flood(client, [switch("ru"), switch("en")])
    assert taken_before_the_limit(statuses) == LANGUAGE_SWITCHES_A_MINUTE
    response = client.post(*switch("ru"))
    assert_limited(
        response, "You have switched the language too often in a short time: it was not switched."
    )
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_a_club_of_a_hundred_behind_one_address_each_switching_once_is_never_refused(clock):
    """Not signed in, they count by their one address: a switch every 1.2 seconds."""
    statuses = []
    for _member in range(100):
        statuses.append(Client().post(*switch("ru")).status_code)
        clock.now += 1.2
    assert set(statuses) == {302}


# --- what a person does a few times an evening --------------------------------------------------


@dataclass
class Writes:
    """Posts of one group by one account: `posts` sent again and again (refused, or each
    undoing the one before), then `last`, which would change `state` if it were taken."""

    client: Client
    posts: list[Post]
    last: Post
    state: Callable[[], object]


def leaving(cast) -> Writes:
    """alice comes back to her table (she is not away: refused) and leaves her own score sheet
    (its creator cannot: refused); then resigns from the table."""
    alice = cast["alice"]
    table = new_table(alice, seats=("me", "greedy"))
    sheet = make_match(alice, ["alice", "Dan"])
    posts = [
        (reverse("play:back", args=[table.pk]), {}),
        (reverse("games:leave", args=[sheet.pk]), {}),
    ]
    resign = (reverse("play:leave", args=[table.pk]), {"status": table.status})
    return Writes(signed_in(alice), posts, resign, lambda: table.seats.get(position=0).left_at)


def keeping_score(cast) -> Writes:
    """alice lets bob keep score at her sheet, and takes it back."""
    match = make_match(cast["alice"], ["alice", "Dan"])
    url = reverse("games:scorekeepers", args=[match.pk])
    add, remove = (url, {"username": "bob"}), (url, {"username": "bob", "action": "remove"})
    return Writes(
        signed_in(cast["alice"]), [add, remove], add, lambda: list(match.scorekeepers.all())
    )


def rating(cast) -> Writes:
    """alice keeps her finished sheet out of the ratings, and counts it again."""
    match = make_match(cast["alice"], ["alice", "Dan", "Eve"])
    play_out(match, cast["alice"])
    url = reverse("games:rated", args=[match.pk])
    off, on = (url, {"rated": "0"}), (url, {"rated": "1"})
    return Writes(
        signed_in(cast["alice"]), [off, on], off, lambda: Match.objects.get(pk=match.pk).rated
    )


def deleting(cast) -> Writes:
    """bob deletes alice's sheet (not his: refused), then his own."""
    alices = make_match(cast["alice"], ["alice", "Dan"])
    his = make_match(cast["bob"], ["bob", "Dan"])
    return Writes(
        signed_in(cast["bob"]),
        [(reverse("games:match_delete", args=[alices.pk]), {})],
        (reverse("games:match_delete", args=[his.pk]), {}),
        lambda: Match.objects.filter(pk=his.pk).exists(),
    )


def claim_of(asker, keeper, guest: str) -> Claim:
    make_match(keeper, [keeper.username, guest])
    return claims.ask(guest=Player.objects.get(name=guest, added_by=keeper), by=asker)


def deciding(cast) -> Writes:
    """alice decides carol's claim of bob's guest (not hers to: refused), then lena's claim of
    her own guest."""
    others = claim_of(cast["carol"], cast["bob"], "Zed")
    hers = claim_of(cast["lena"], cast["alice"], "Dan")
    return Writes(
        signed_in(cast["alice"]),
        [(reverse("claims:claim_decide", args=[others.pk]), {"decision": "approve"})],
        (reverse("claims:claim_decide", args=[hers.pk]), {"decision": "approve"}),
        lambda: Claim.objects.get(pk=hers.pk).status,
    )


def withdrawing(cast) -> Writes:
    """lena withdraws carol's claim (not hers: refused), then her own."""
    others = claim_of(cast["carol"], cast["bob"], "Zed")
    hers = claim_of(cast["lena"], cast["alice"], "Dan")
    return Writes(
        signed_in(cast["lena"]),
        [(reverse("claims:claim_withdraw", args=[others.pk]), {})],
        (reverse("claims:claim_withdraw", args=[hers.pk]), {}),
        lambda: Claim.objects.get(pk=hers.pk).status,
    )


def registering(cast) -> Writes:
    """carol registers for alice's tournament, and leaves it."""
    tournament = make_tournament(cast["alice"])
    register = (reverse("tournaments:register", args=[tournament.pk]), {})
    leave = (reverse("tournaments:unregister", args=[tournament.pk]), {})
    return Writes(
        signed_in(cast["carol"]),
        [register, leave],
        register,
        lambda: tournament.entrants.filter(player__user=cast["carol"]).exists(),
    )


def seating(cast) -> Writes:
    """alice seats her tournament's first round again, and again."""
    tournament = make_tournament(cast["alice"])
    enter(tournament, [f"P{number}" for number in range(8)], cast["alice"])
    tournaments.seat_next_round(tournament=tournament, by=cast["alice"])
    again = (reverse("tournaments:reseat", args=[tournament.pk, 1]), {})
    return Writes(
        signed_in(cast["alice"]),
        [again],
        again,
        lambda: list(tournament.rounds.values_list("pk", "seed")),
    )


def switching_print(cast) -> Writes:
    """alice switches large print on and off."""
    url = reverse("games:large_print")
    on, off = (url, {"large": "1"}), (url, {"large": "0"})
    return Writes(
        signed_in(cast["alice"]),
        [on, off],
        on,
        lambda: Player.objects.get(user=cast["alice"]).large_print,
    )


# Each group, its scene, and the pace of a person: a post every so many seconds for so many.
EVENINGS = {
    "leave": (leaving, "leaving or coming back every five minutes", 300, 36),
    "scorekeeper": (keeping_score, "a scorekeeper changed every two minutes", 120, 90),
    "rated": (rating, "a sheet rated or not every five minutes", 300, 36),
    "delete": (deleting, "a sheet deleted every five minutes", 300, 36),
    "decide": (deciding, "a claim decided every forty seconds", 40, 270),
    "withdraw": (withdrawing, "a claim withdrawn every two minutes", 120, 90),
    "register": (registering, "registering or leaving every five minutes", 300, 36),
    "seating": (seating, "a round seated again every five minutes", 300, 36),
    "display": (switching_print, "large print switched every ten minutes", 600, 18),
}


@pytest.fixture
def cast(alice, bob, carol, django_user_model) -> dict:
    lena = django_user_model.objects.create_user("lena", "lena@example.com", "lena-password")
    return {"alice": alice, "bob": bob, "carol": carol, "lena": lena}


@pytest.mark.parametrize("group", EVENINGS)
def test_a_flood_of_each_is_stopped_at_its_limit_and_does_nothing_after(cast, group):
    scene, _pace, _every, _count = EVENINGS[group]
    writes = scene(cast)
    allowed = AN_HOUR_OF[group]
    statuses = flood(writes.client, writes.posts, count=max(200, 2 * allowed))
    assert taken_before_the_limit(statuses) == allowed
    before = writes.state()
    assert_limited(writes.client.post(*writes.last), str(NOT_DONE[group]))
    assert writes.state() == before


@pytest.mark.parametrize("group", EVENINGS)
def test_a_person_doing_each_through_an_evening_of_three_hours_is_never_refused(cast, group, clock):
    scene, _pace, every, count = EVENINGS[group]
    writes = scene(cast)
    assert every * count <= 3 * 3600
    statuses = at_pace(clock, writes.client, writes.posts, every=every, count=count)
    assert 429 not in statuses
