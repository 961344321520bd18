"""Tables played on the site: seats, moves under the table's lock, the server's moves, what
each seat may see, and finished rounds on the score sheet."""

import datetime
import itertools
import random
import re

import pytest
from django.db import connection, transaction
from django.test import RequestFactory
from django.test.html import parse_html
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from cards101.engine import Game, Move
from cards101.rules import PRESETS, parse_card
from games.labels import card_name, card_notation
from games.models import Match
from play import services as play
from play.models import PlayMove, PlayTable
from play.spoken import card_in_a_sentence
from play.views import _posted_move
from tests.factories import at_once, rules_form_data

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def new_table(user, seats=("me", "greedy", "greedy"), preset="classic", seed=7, move_seconds=None):
    return play.create_table(
        by=user,
        preset=preset,
        variant=PRESETS[preset],
        seats=list(seats),
        seed=seed,
        move_seconds=move_seconds,
    )


def game_of(table) -> Game:
    table.refresh_from_db()
    return Game.from_json(table.state)


def until_my_turn(table, seat=0, limit=200):
    """Let the server make the moves it owes until it is `seat`'s decision."""
    for _ in range(limit):
        game = game_of(table)
        if game.round_over or game.to_move == seat:
            return game
        PlayTable.objects.filter(pk=table.pk).update(server_moves_at=timezone.now())
        assert play.step(table=table)
    raise AssertionError("the bots never gave the turn back")


def test_a_table_against_bots_starts_at_once_as_a_match_played_on_the_site(alice):
    table = new_table(alice)
    assert table.status == PlayTable.Status.PLAYING
    assert table.match.kind == Match.Kind.ONLINE
    names = list(table.match.seats.order_by("position").values_list("player__name", flat=True))
    assert names == ["alice", "Greedy bot", "Greedy bot 2"]


def test_a_table_with_an_open_seat_waits_and_starts_when_someone_joins_by_the_link(
    alice, bob, carol
):
    table = new_table(alice, seats=("me", "open", "random"))
    assert table.status == PlayTable.Status.WAITING
    with pytest.raises(play.TableError, match="invitation link"):
        play.join(table=table, user=carol)
    play.join(table=table, user=bob, invite=table.invite)
    table.refresh_from_db()
    assert table.status == PlayTable.Status.PLAYING
    assert table.seats.get(position=1).user == bob
    with pytest.raises(play.TableError, match="started"):
        play.join(table=table, user=carol, invite=table.invite)


def test_a_legal_move_is_applied_once_and_a_stale_one_is_refused(alice):
    table = new_table(alice, seats=("me", "greedy"))
    game = until_my_turn(table)
    table.refresh_from_db()
    version = table.version
    move = game.legal_moves()[0]
    play.play(table=table, user=alice, move=move, version=version)
    table.refresh_from_db()
    assert table.version > version
    assert PlayMove.objects.filter(table=table, by="").count() == 1
    with pytest.raises(play.TableMovedOn, match="moved on"):
        play.play(table=table, user=alice, move=move, version=version)
    assert PlayMove.objects.filter(table=table, by="").count() == 1


def test_an_illegal_move_changes_nothing(alice):
    table = new_table(alice, seats=("me", "greedy"))
    game = until_my_turn(table)
    table.refresh_from_db()
    state, version = table.state, table.version
    hidden = game.cards_in_play()["stock"][0]
    from cards101.engine import IllegalMove

    with pytest.raises(IllegalMove):
        play.play(table=table, user=alice, move=Move("play", hidden), version=version)
    table.refresh_from_db()
    assert (table.state, table.version) == (state, version)


def test_someone_not_seated_cannot_move(alice, carol):
    table = new_table(alice, seats=("me", "greedy"))
    game = until_my_turn(table)
    table.refresh_from_db()
    with pytest.raises(play.TableError, match="do not sit"):
        play.play(table=table, user=carol, move=game.legal_moves()[0], version=table.version)


@pytest.mark.django_db(transaction=True)
def test_a_move_sent_twice_at_once_is_applied_once(alice):
    table = new_table(alice, seats=("me", "greedy"))
    game = until_my_turn(table)
    table.refresh_from_db()
    move, version = game.legal_moves()[0], table.version

    def send():
        return play.play(table=table, user=alice, move=move, version=version)

    results = at_once(send, send)
    assert sum(isinstance(r, play.TableMovedOn) for r in results) == 1
    assert PlayMove.objects.filter(table=table, by="").count() == 1


def test_an_unchanged_board_answers_204_and_no_fetch_makes_the_bots_move(client, alice):
    table = new_table(alice, seats=("me", "greedy"))
    game = until_my_turn(table)
    while game.to_move == 0 and not game.round_over:  # a skip or a draw keeps the turn
        table.refresh_from_db()
        play.play(table=table, user=alice, move=game.legal_moves()[0], version=table.version)
        game = game_of(table)
    assert game.to_move == 1 and not game.round_over
    url = reverse("play:table", args=[table.pk])
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"{url}?v={table.version}", **HTMX)
    assert response.status_code == 204
    assert response.content == b""
    # One query, the table's version: not even the session or the account of a signed-in
    # player (every watcher asks after every event).
    assert len(queries) == 1, [q["sql"] for q in queries]
    # The bot's move is due: reading the board does not make it (no GET changes state)...
    PlayTable.objects.filter(pk=table.pk).update(server_moves_at=timezone.now())
    moves = PlayMove.objects.count()
    assert client.get(f"{url}?v={table.version}", **HTMX).status_code == 204
    assert client.get(url).status_code == 200
    assert PlayMove.objects.count() == moves
    # ...the clock does, and the board naming the older version is sent at once.
    assert play.step_due() == table.pk
    assert PlayMove.objects.count() == moves + 1
    response = client.get(f"{url}?v={table.version}", **HTMX)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="board"')


def hidden_cards(table, seat: int) -> set[str]:
    """Cards the seat may not see: the other hands and the stock, less those played openly."""
    game = game_of(table)
    cards = game.cards_in_play()
    hidden = {card.code for i, hand in enumerate(cards["hands"]) if i != seat for card in hand}
    hidden |= {card.code for card in cards["stock"]}
    seen = {event.get("card") for event in game.view(seat)["log"]}
    return {code for code in hidden if code not in seen}


def assert_nothing_hidden(body: str, codes: set[str]) -> None:
    for code in codes:
        assert f'value="{code}"' not in body, code
        assert f'"{code}"' not in body, code
        assert card_name(parse_card(code)) not in body, code  # the title of a card button
        # Nor said by name to a screen reader, in the log or the news of a move.
        assert card_in_a_sentence(parse_card(code)) not in body, code


def test_no_response_shows_another_seats_cards_or_the_stock(client, alice, bob):
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    until_my_turn(table)
    url = reverse("play:table", args=[table.pk])
    for user, seat in ((alice, 0), (bob, None), (None, None)):
        if user is not None:
            client.force_login(user)
        else:
            client.logout()
        # The board fetched after an event says what happened since the board the page
        # showed (here, the whole round): others' draws as counts, never their cards.
        since_the_deal = client.get(url, {"seen": "0.0"}, **HTMX)
        for response in (client.get(url), client.get(url, **HTMX), since_the_deal):
            assert response.status_code == 200
            assert_nothing_hidden(response.content.decode(), hidden_cards(table, seat or 0))
    client.force_login(alice)
    # A refused move answers with the board too: still only alice's cards.
    response = client.post(
        reverse("play:move", args=[table.pk]),
        {"version": "1", "kind": "play", "card": "QS"},
        **HTMX,
    )
    assert "The table has moved on" in response.content.decode()
    assert_nothing_hidden(response.content.decode(), hidden_cards(table, 0))


def test_my_playable_cards_are_buttons_and_the_others_disabled(client, alice):
    table = new_table(alice, seats=("me", "greedy"))
    game = until_my_turn(table)
    client.force_login(alice)
    body = client.get(reverse("play:table", args=[table.pk])).content.decode()
    plays = {m.card.code for m in game.legal_moves() if m.kind == "play"}
    for code in game.view(0)["hand"]:
        if code in plays and not code.startswith("Q"):
            assert f'name="card" value="{code}"' in body
    assert body.count("disabled") >= len(set(game.view(0)["hand"]) - plays)


def test_a_timer_that_runs_out_moves_for_the_absent_player_and_two_make_them_away(alice, bob):
    table = new_table(alice, seats=("me", "open"), seed=3, move_seconds=30)
    play.join(table=table, user=bob, invite=table.invite)
    table.refresh_from_db()
    game = game_of(table)
    absent = table.seats.get(position=game.to_move)
    later = timezone.now() + datetime.timedelta(seconds=31)
    assert not play.step(table=table, now=timezone.now())
    assert play.step(table=table, now=later)
    absent.refresh_from_db()
    assert absent.timeouts == 1
    assert PlayMove.objects.filter(table=table, by="timer").count() == 1


def test_every_finished_round_is_a_round_of_the_match(alice):
    table = new_table(alice, seats=("me", "greedy"))
    game = play_round(table, alice)
    assert game.round_over
    match = Match.objects.get(pk=table.match_id)
    assert match.rounds.count() == 1
    totals = list(match.seats.order_by("position").values_list("total", flat=True))
    assert totals == [game.result.totals[seat] for seat in (0, 1)]


def play_round(table, user):
    """Play the table's current round to its end: the person's first legal move each time."""
    for _ in range(600):
        game = game_of(table)
        if game.round_over:
            return game
        if game.to_move == 0:
            table.refresh_from_db()
            play.play(table=table, user=user, move=game.legal_moves()[0], version=table.version)
        else:
            PlayTable.objects.filter(pk=table.pk).update(server_moves_at=timezone.now())
            play.step(table=table)
    raise AssertionError("the round did not end")


def test_a_finished_round_can_be_replayed_move_by_move_as_my_seat_saw_it(client, alice):
    table = new_table(alice, seats=("me", "greedy"))
    game = play_round(table, alice)
    moves = PlayMove.objects.filter(table=table, round=0).count()
    client.force_login(alice)
    url = reverse("play:replay", args=[table.pk, 1])
    first = client.get(url).content.decode()
    assert f"Move 0 of {moves}" in first
    last = client.get(f"{url}?step={moves}").content.decode()
    assert f"Move {moves} of {moves}" in last
    # At the end of the replay my hand is what I held when the round ended.
    for code in game.view(0)["hands"][0]:
        assert card_name(parse_card(code)) in last
    assert client.get(reverse("play:replay", args=[table.pk, 5])).status_code == 404


def test_the_round_end_shows_every_hand_and_the_next_round_can_be_dealt(client, alice):
    table = new_table(alice, seats=("me", "greedy"))
    game = play_round(table, alice)
    client.force_login(alice)
    body = client.get(reverse("play:table", args=[table.pk])).content.decode()
    assert "The round is over" in body or "The match is over" in body
    section = body[
        body.index('class="round-end"') : body.index("</section>", body.index("round-end"))
    ]
    for hand in game.view(0)["hands"]:
        for code in hand:
            assert card_notation(parse_card(code)) in section, code
    if not game.match_over:
        table.refresh_from_db()
        play.next_round(table=table, user=alice, round_number=game_of(table).round + 1)
        assert not game_of(table).round_over


def test_after_two_timeouts_the_seat_plays_as_a_bot_until_its_player_comes_back(alice, bob):
    table = new_table(alice, seats=("me", "open"), seed=3, move_seconds=30)
    play.join(table=table, user=bob, invite=table.invite)
    for _ in range(100):
        table.refresh_from_db()
        game = game_of(table)
        seat = table.seats.get(position=game.to_move)
        if seat.timeouts >= 2:
            break
        play.step(table=table, now=timezone.now() + datetime.timedelta(seconds=31))
    assert seat.is_away
    table.refresh_from_db()
    # Away: the server moves for that seat after the short bot delay, not after the timer.
    assert table.server_moves_at < timezone.now() + datetime.timedelta(seconds=5)
    play.come_back(table=table, user=seat.user)
    seat.refresh_from_db()
    table.refresh_from_db()
    assert seat.timeouts == 0
    assert table.server_moves_at > timezone.now() + datetime.timedelta(seconds=20)


def test_an_illegal_move_posted_says_why_and_shows_the_board(client, alice):
    table = new_table(alice, seats=("me", "greedy"))
    game = until_my_turn(table)
    table.refresh_from_db()
    stock_card = game.cards_in_play()["stock"][0]
    client.force_login(alice)
    data = {"version": table.version, "kind": "play", "card": stock_card.code, "suit": ""}
    response = client.post(reverse("play:move", args=[table.pk]), data, **HTMX)
    body = response.content.decode()
    assert f"{card_notation(stock_card)} is not in your hand" in body
    assert body.lstrip().startswith('<div id="board"')
    table.refresh_from_db()
    assert not PlayMove.objects.filter(table=table, by="").exists()
    for bad in ({"kind": "fly"}, {"kind": "play", "card": "Zx"}, {"kind": "play", "suit": "X"}):
        response = client.post(
            reverse("play:move", args=[table.pk]), {"version": table.version, **bad}, **HTMX
        )
        assert "That move could not be read." in response.content.decode()


# --- the lobby, a new table, joining, the end of a match ---------------------------------


def table_form_data(**changes):
    data = rules_form_data("classic") | {"seat_2": "greedy", "seat_3": "", "seat_4": ""}
    data.update(changes)
    return data


def test_a_new_table_from_the_form_starts_against_the_bots_chosen(client, alice):
    client.force_login(alice)
    response = client.post(reverse("play:new"), table_form_data(seat_3="expert", move_seconds="60"))
    table = PlayTable.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.status == PlayTable.Status.PLAYING and table.move_seconds == 60
    bots = list(table.seats.order_by("position").values_list("bot", flat=True))
    assert bots == ["", "greedy", "expert"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seat_2": ""}, "This field is required"),
        ({"seat_2": "champion"}, "Select a valid choice"),
        ({"move_seconds": "5"}, "Select a valid choice"),
        ({"hand_size": "40"}, "Ensure this value is less than or equal to 8"),
    ],
)
def test_a_new_table_with_bad_input_says_what_is_wrong_and_creates_nothing(
    client, alice, changes, message
):
    client.force_login(alice)
    response = client.post(reverse("play:new"), table_form_data(**changes))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not PlayTable.objects.exists()


def test_the_lobby_lists_my_tables_and_public_tables_waiting_for_players(client, alice, bob):
    public = play.create_table(
        by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "open"], public=True
    )
    private = play.create_table(
        by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "open"]
    )
    client.force_login(bob)
    body = client.get(reverse("play:lobby")).content.decode()
    assert "You sit at no table" in body
    assert public.get_absolute_url() in body
    assert private.get_absolute_url() not in body
    # From the lobby, bob takes the open seat of the public table, which starts.
    response = client.post(reverse("play:join", args=[public.pk]))
    assert response["Location"] == public.get_absolute_url()
    public.refresh_from_db()
    assert public.status == PlayTable.Status.PLAYING
    body = client.get(reverse("play:lobby")).content.decode()
    assert "No public table is waiting" in body
    assert body.count(public.get_absolute_url()) == 1  # now among bob's tables


def test_the_invitation_link_leads_to_the_table_and_a_wrong_one_is_not_found(client, alice, bob):
    table = play.create_table(
        by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "open"]
    )
    client.force_login(bob)
    response = client.get(reverse("play:invite", args=[table.invite]))
    assert response["Location"] == f"{table.get_absolute_url()}?invite={table.invite}"
    assert client.get(reverse("play:invite", args=["not-the-invite"])).status_code == 404
    # Joining without the link is refused with the reason, and the seat stays open.
    client.post(reverse("play:join", args=[table.pk]), {"invite": "guess"}, follow=True)
    table.refresh_from_db()
    assert table.status == PlayTable.Status.WAITING
    response = client.post(
        reverse("play:join", args=[table.pk]), {"invite": table.invite}, follow=True
    )
    table.refresh_from_db()
    assert table.status == PlayTable.Status.PLAYING
    assert table.seats.get(position=1).user == bob


def play_match_out(table, user):
    for _ in range(100):
        play_round(table, user)
        table.refresh_from_db()
        if table.status == PlayTable.Status.FINISHED:
            return
        play.next_round(table=table, user=user, round_number=game_of(table).round + 1)
    raise AssertionError("the match did not end")


def test_after_the_match_the_ranking_shows_and_play_again_seats_the_same_bots(client, alice):
    table = new_table(alice, seats=("me", "random"), preset="aaow")
    client.force_login(alice)
    # Dealing the next round mid-round is refused with the current state.
    table.refresh_from_db()
    response = client.post(
        reverse("play:next", args=[table.pk]), {"round": game_of(table).round + 1}, **HTMX
    )
    assert "still being played" in response.content.decode()
    play_match_out(table, alice)
    body = client.get(table.get_absolute_url()).content.decode()
    assert "The match is over" in body
    response = client.post(reverse("play:rematch", args=[table.pk]))
    new = PlayTable.objects.exclude(pk=table.pk).get()
    assert response["Location"] == new.get_absolute_url()
    assert new.rematch_of == table and new.status == PlayTable.Status.PLAYING
    assert list(new.seats.order_by("position").values_list("bot", flat=True)) == ["", "random"]
    # A second press (a double click) leads to the same new table.
    response = client.post(reverse("play:rematch", args=[table.pk]))
    assert response["Location"] == new.get_absolute_url()
    assert PlayTable.objects.count() == 2


# --- every legal move has a control on the board -------------------------------------------


def first_seed(variant, players: int, fits) -> int:
    """The first seed whose first deal `fits` (a predicate on the new game)."""
    return next(
        seed for seed in itertools.count() if fits(Game.new(variant, players=players, seed=seed))
    )


def turned_up_queen_for(seat: int):
    return lambda game: game.opening_queen and game.to_move == seat


def _elements(node, name: str | None = None):
    for child in node.children:
        if isinstance(child, str):
            continue
        if name is None or child.name == name:
            yield child
        yield from _elements(child, name)


def posted_moves(body: str, action: str) -> list[dict[str, str]]:
    """What each button of the page posts to `action`: its form's hidden fields (less the CSRF
    token) and its own name and value."""
    posts = []
    for form in _elements(parse_html(body), "form"):
        if dict(form.attributes).get("action") != action:
            continue
        fields, buttons = {}, []
        for element in _elements(form):
            attributes = dict(element.attributes)
            if element.name == "input" and attributes.get("type") == "hidden":
                fields[attributes["name"]] = attributes.get("value") or ""
            elif element.name == "button" and attributes.get("type", "submit") == "submit":
                assert "disabled" not in attributes
                buttons.append(attributes)
        fields.pop("csrfmiddlewaretoken", None)
        for button in buttons:
            posts.append(fields | ({button["name"]: button["value"]} if "name" in button else {}))
    return posts


def as_move(posted: dict[str, str]) -> tuple[str, str | None, str | None]:
    return (posted.get("kind", ""), posted.get("card") or None, posted.get("suit") or None)


def move_key(move: Move) -> tuple[str, str | None, str | None]:
    return (move.kind, move.card.code if move.card else None, move.suit)


def positions(variant, players: int, seeds: int, every: int = 4, most: int = 48):
    """Seeded positions of a first round: each game's opening and every `every`-th decision
    after it (up to `most` decisions: under `draw_when_able` random players draw for long),
    the moves chosen at random (seeded) among the legal ones; then, under `dealer_card`, a
    turned-up Queen for each seat."""
    for seed in range(seeds):
        game = Game.new(variant, players=players, seed=seed)
        choose = random.Random(seed)
        for decision in range(most):
            if game.round_over:
                break
            if decision % every == 0:
                yield game
            game.play(choose.choice(game.legal_moves()))
    if variant.opening == "dealer_card":
        for seat in range(players):
            seed = first_seed(variant, players, turned_up_queen_for(seat))
            yield Game.new(variant, players=players, seed=seed)


HOUSE_RULES = PRESETS["conventions"].replace(opening="last_dealt", deck_size=52)


@pytest.mark.parametrize(
    ("preset", "variant"),
    [
        ("aaow", PRESETS["aaow"]),
        ("classic", PRESETS["classic"]),
        ("conventions", PRESETS["conventions"]),
        # A house mix: the leader must lead the last card dealt to them, from a 52-card deck.
        ("conventions", HOUSE_RULES),
    ],
    ids=["aaow", "classic", "conventions", "house rules"],
)
def test_every_legal_move_has_a_control_on_the_board_that_posts_it(
    client, preset, variant, alice, bob, carol, django_user_model
):
    people = [alice, bob, carol, django_user_model.objects.create_user("dave", "", "dave-pw")]
    clients = []
    for person in people:
        clients.append(type(client)())
        clients[-1].force_login(person)
    seen: set[str] = set()
    posted_kinds: set[tuple[str, bool]] = set()
    for players in (2, 3, 4):
        table = play.create_table(
            by=alice, preset=preset, variant=variant, seats=["me"] + ["open"] * (players - 1)
        )
        for person in people[1:players]:
            play.join(table=table, user=person, invite=table.invite)
        table.refresh_from_db()
        url = reverse("play:table", args=[table.pk])
        action = reverse("play:move", args=[table.pk])
        for number, game in enumerate(positions(variant, players, seeds=4)):
            PlayTable.objects.filter(pk=table.pk).update(state=game.to_json())
            mover = clients[game.to_move]
            body = mover.get(url, **HTMX).content.decode()
            posts = posted_moves(body, action)
            legal = sorted(move_key(move) for move in game.legal_moves())
            assert sorted(as_move(posted) for posted in posts) == legal, game.view(game.to_move)
            seen |= situations(game)
            # Every control reads back as the move it names, a legal one there; one of
            # them (a different kind of control each position) is posted and made, rolled
            # back after it is checked: the path of a post is the same for every control.
            for posted in posts:
                read = _posted_move(RequestFactory().post(action, posted))
                assert move_key(read) == as_move(posted) and move_key(read) in legal, posted
            posted = posts[number % len(posts)]
            with transaction.atomic():
                moves = PlayMove.objects.count()
                answer = mover.post(action, posted, **HTMX).content.decode()
                assert 'role="alert"' not in answer, (posted, answer)
                assert PlayMove.objects.count() == moves + 1
                made = PlayMove.objects.latest("number").move
                assert as_move(made) == as_move(posted)
                transaction.set_rollback(True)
            posted_kinds.add((made["kind"], bool(made.get("suit"))))
    expected = {"draw", "a Queen in hand", "cover"}
    # Posted and made: a card, a Queen naming a suit, a draw (and a pass where one may pass).
    assert {("play", False), ("play", True), ("draw", False)} <= posted_kinds
    if variant.after_draw == "may_play":
        expected |= {"pass", "pass after a draw"}
        assert ("pass", False) in posted_kinds
    if variant.opening == "dealer_card":
        expected.add("turned-up Queen")
    assert expected <= seen


def situations(game: Game) -> set[str]:
    """The kinds of decision a position asks for, to show what the test went through."""
    found = set()
    view = game.view(game.to_move)
    kinds = {move.kind for move in game.legal_moves()}
    found |= kinds & {"draw", "pass"}
    if view["drew"] and "pass" in kinds:
        found.add("pass after a draw")
    if view["opening_queen"]:
        found.add("turned-up Queen")
    if view["must_cover"]:
        found.add("cover")
    if any(
        m.kind == "play" and m.card.is_queen and m.card.code in view["hand"]
        for m in game.legal_moves()
    ):
        found.add("a Queen in hand")
    return found


def test_the_leader_names_the_suit_of_a_turned_up_queen_on_the_board(client, alice):
    seed = first_seed(PRESETS["aaow"], 2, turned_up_queen_for(0))
    table = new_table(alice, seats=("me", "greedy"), preset="aaow", seed=seed)
    queen = parse_card(game_of(table).view(0)["top"])
    client.force_login(alice)
    body = client.get(table.get_absolute_url()).content.decode()
    assert "The turned-up Queen is yours to play: name the suit" in body
    # Each suit's button is named with the suit, as a screen reader says it.
    for suit in ("spades", "hearts", "diamonds", "clubs"):
        assert f'<span class="visually-hidden">Order {suit}</span>' in body
    russian = client.get(table.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Вам ходить открытой дамой: закажите масть" in russian
    assert '<span class="visually-hidden">Заказать червы</span>' in russian
    table.refresh_from_db()
    data = {"version": table.version, "kind": "play", "card": queen.code, "suit": "H"}
    body = client.post(reverse("play:move", args=[table.pk]), data, **HTMX).content.decode()
    assert 'role="alert"' not in body
    game = game_of(table)
    assert game.ordered_suit == "H" and not game.opening_queen and game.to_move == 1
    assert "ordered: ♥" in body
    assert f"alice orders ♥ on the turned-up {card_notation(queen)}" in body
    russian = client.get(table.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "заказ: ♥" in russian
    assert "alice заказывает ♥ открытой картой" in russian


# --- bots' names ---------------------------------------------------------------------------


def test_bots_are_named_in_the_language_of_the_page_wherever_they_appear(client, alice):
    table = new_table(alice, seats=("me", "random", "random"), preset="aaow")
    bots = list(table.match.seats.filter(position__gt=0).order_by("position"))
    # Stored once, in English, for everyone.
    assert [seat.player.name for seat in bots] == ["Random bot", "Random bot 2"]
    client.force_login(alice)
    until_my_turn(table)
    ru = {"HTTP_ACCEPT_LANGUAGE": "ru"}
    board = client.get(table.get_absolute_url(), **ru).content.decode()
    lobby = client.get(reverse("play:lobby"), **ru).content.decode()
    for page in (board, lobby):
        assert "Случайный бот 2" in page and "Random bot" not in page
    log = board[board.index('class="play-log"') :]
    assert re.search(
        r'<li><span aria-hidden="true">Случайный бот( 2)? (ходит|берёт|пасует|пропускает)', log
    )
    english = client.get(table.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Random bot 2" in english

    play_match_out(table, alice)
    bot = bots[1].player
    pages = {
        "board": table.get_absolute_url(),
        "score sheet": table.match.get_absolute_url(),
        "my profile": reverse("stats:profile", args=[alice.player.pk]),
        "the bot's profile": reverse("stats:profile", args=[bot.pk]),
        "leaderboard": reverse("stats:leaderboard") + "?preset=aaow",
    }
    for name, url in pages.items():
        page = client.get(url, **ru).content.decode()
        assert "Случайный бот 2" in page and "Random bot" not in page, name
    # Found by the name a Russian page shows.
    url = reverse("stats:leaderboard") + "?preset=classic&search=случайный бот 2"
    page = client.get(url, **ru).content.decode()
    found = page[
        page.index('id="found-title"') : page.index("</section>", page.index("found-title"))
    ]
    assert f'href="{reverse("stats:profile", args=[bot.pk])}">Случайный бот 2<' in found


@pytest.mark.parametrize(
    ("language", "why", "logged"),
    [
        ("en", "The round went nowhere, so it was cut after 4 moves", "The round is cut after 4"),
        ("ru", "Раунд никуда не вёл, поэтому его прервали после 4 ходов", "Раунд прерван после 4"),
    ],
)
def test_a_round_cut_at_the_move_limit_is_stored_as_cut_and_the_table_says_why(
    client, alice, monkeypatch, language, why, logged
):
    monkeypatch.setattr("cards101.engine.game.MOVE_LIMIT", 4)
    table = new_table(alice, seats=("me", "greedy"), seed=11)
    game = play_round(table, alice)
    assert game.cut
    match = Match.objects.get(pk=table.match_id)
    stored = match.rounds.get()
    assert stored.cut
    totals = list(match.seats.order_by("position").values_list("total", flat=True))
    assert totals == [game.result.totals[seat] for seat in (0, 1)]
    client.force_login(alice)
    # The request switches this thread's language: switch it back for the tests that follow.
    with translation.override("en"):
        body = client.get(reverse("play:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=language)
    text = body.content.decode()
    assert why in text
    assert logged in text
