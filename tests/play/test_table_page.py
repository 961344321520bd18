"""What a played table shows people, in English and Russian: the whole log of the round with
the suit each Queen orders, each round's points and every hand at its end, the replay of a
finished round with every hand, the invitation link to copy, and the chances to win as the
totals stand."""

import itertools
import re

import pytest
from django.urls import reverse
from django.utils import translation

from cards101.bots import make_bot
from cards101.engine import Game
from cards101.rules import PRESETS, parse_card
from games.labels import card_name, card_notation
from play import queries
from play import services as play
from play.board import LOG_SHOWN
from play.models import PlayMove, PlayTable
from tests.play.test_play import (
    assert_nothing_hidden,
    game_of,
    new_table,
    play_match_out,
    play_round,
    until_my_turn,
)

pytestmark = pytest.mark.django_db

RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def section(body: str, marker: str) -> str:
    """The part of the page from `marker` to the end of its section."""
    start = body.index(marker)
    return body[start : body.index("</section>", start)]


def lines(html: str) -> list[str]:
    """The log's lines as the page writes them."""
    return re.findall(r'<li><span aria-hidden="true">([^<]*)</span>', html)


def spoken_lines(html: str) -> list[str]:
    """The log's lines as a screen reader says them."""
    return re.findall(r'</span><span class="visually-hidden">([^<]*)</span></li>', html)


def bot_queen_position(seats: int = 3) -> Game:
    """A first round played by greedy bots to the move after a bot (not seat 0) played a
    Queen and ordered a suit, with more events in its log than the board shows open."""
    for seed in itertools.count():
        game = Game.new(PRESETS["classic"], players=seats, seed=seed)
        bots = [make_bot("greedy", seed=seat) for seat in range(seats)]
        while not game.round_over:
            seat = game.to_move
            game.play(bots[seat].choose(game.view(seat), game.legal_moves()))
            log = game.view(0)["log"]
            last = log[-1]
            if (
                last["kind"] == "play"
                and last["seat"] != 0
                and last["card"].startswith("Q")
                and last.get("suit")
                and len(log) > LOG_SHOWN + 3
                and not game.round_over
            ):
                return game
    raise AssertionError("unreachable")


@pytest.fixture
def queen_table(alice):
    """alice's table against two greedy bots, at a position just after a bot's Queen."""
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    game = bot_queen_position()
    PlayTable.objects.filter(pk=table.pk).update(state=game.to_json(), server_moves_at=None)
    table.refresh_from_db()
    return table, game


@pytest.mark.parametrize(
    ("headers", "orders", "whole_round", "suits"),
    [
        (EN, "and orders", "The whole round: ", ("spades", "hearts", "diamonds", "clubs")),
        (RU, "и заказывает", "Весь раунд: ещё ", ("пики", "червы", "бубны", "трефы")),
    ],
)
def test_the_board_shows_the_whole_round_newest_first_with_the_suit_a_bots_queen_orders(
    client, alice, queen_table, headers, orders, whole_round, suits
):
    table, game = queen_table
    client.force_login(alice)
    body = client.get(table.get_absolute_url(), **headers).content.decode()
    log = section(body, 'class="play-log"')
    shown = lines(log)
    # Every event of the round, the last first: the latest few open, the rest under "the
    # whole round".
    events = game.view(0)["log"]
    assert len(shown) == len(events) > LOG_SHOWN
    latest, earlier = log.split("<details", 1)
    assert len(lines(latest)) == LOG_SHOWN
    assert whole_round in earlier
    names = {0: "alice", 1: "Greedy bot", 2: "Greedy bot 2"}
    if headers is RU:
        names = {0: "alice", 1: "Жадный бот", 2: "Жадный бот 2"}
    queen = events[-1]
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[queen["suit"]]
    assert shown[0].startswith(names[queen["seat"]])
    assert shown[0].endswith(f"{orders} {symbol}")
    assert card_notation(parse_card(queen["card"])) in shown[0]
    # A screen reader hears each line too, the suit by its name.
    said = spoken_lines(log)
    assert len(said) == len(shown)
    suit = dict(zip("SHDC", suits, strict=True))[queen["suit"]]
    assert said[0].startswith(names[queen["seat"]])
    assert said[0].endswith(f"{orders} {suit}")


@pytest.mark.parametrize(
    ("headers", "theirs", "mine", "bots"),
    [
        (EN, "Round 1 · {} to move", "Round 1 · Your turn", ("Greedy bot", "Greedy bot 2")),
        (RU, "Раунд 1 · Ходит {}", "Раунд 1 · Ваш ход", ("Жадный бот", "Жадный бот 2")),
    ],
)
def test_the_status_line_says_the_round_and_whose_turn_it_is(
    client, alice, queen_table, headers, theirs, mine, bots
):
    table, game = queen_table
    client.force_login(alice)
    body = client.get(table.get_absolute_url(), **headers).content.decode()
    # A line the keyboard can be put on (static/js/table-tools.js), not a stop of Tab.
    status = re.search(r'<p id="board-status"[^>]*tabindex="-1"[^>]*>([^<]*)</p>', body)[1]
    assert status == (mine if game.to_move == 0 else theirs.format(bots[game.to_move - 1]))


def test_the_whole_log_keeps_the_cards_others_drew_and_the_stock_hidden(
    client, alice, bob, queen_table
):
    table, game = queen_table
    hidden = {card.code for hand in game.cards_in_play()["hands"][1:] for card in hand}
    hidden |= {card.code for card in game.cards_in_play()["stock"]}
    seen = {event.get("card") for event in game.view(0)["log"]}
    drew = [event for event in game.view(1)["log"] if event["kind"] == "draw"]
    assert any(event.get("cards") for event in drew)  # the bots drew: only they know what
    url = table.get_absolute_url()
    for user in (alice, bob, None):
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        body = client.get(url).content.decode()
        assert_nothing_hidden(body, hidden - seen)


@pytest.mark.parametrize(
    ("headers", "over", "score"),
    [(EN, "The round is over", "Score"), (RU, "Раунд окончен", "За раунд")],
)
def test_the_round_end_shows_each_players_points_new_total_and_hand_to_everyone(
    client, alice, bob, headers, over, score
):
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    game = play_round(table, alice)
    assert not game.match_over
    view = game.view(0)
    for user in (alice, bob, None):
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        body = client.get(table.get_absolute_url(), **headers).content.decode()
        end = section(body, 'class="round-end"')
        assert over in end and f">{score}</th>" in end
        rows = re.findall(r"<tr[^>]*>\s*<th scope=\"row\">(.*?)</tr>", end, re.S)
        assert len(rows) == 3
        for row, hand, points, total in zip(
            rows, view["hands"], view["scores"], view["totals_after"], strict=True
        ):
            cells = re.findall(r'<td class="num">(-?\d+)', row)
            assert cells == [str(points), str(total)]
            for code in hand:
                assert card_notation(parse_card(code)) in row


def test_a_finished_rounds_replay_shows_every_hand_at_every_step_to_anyone(client, alice, bob):
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    play_round(table, alice)
    moves = PlayMove.objects.filter(table=table, round=0).count()
    url = reverse("play:replay", args=[table.pk, 1])
    for step in (0, moves // 2, moves):
        game, _count = queries.replay(table, 0, step)
        hands = game.cards_in_play()["hands"]
        for user, language in ((bob, "en"), (None, "ru"), (alice, "en")):
            if user is None:
                client.logout()
            else:
                client.force_login(user)
            with translation.override(language):
                body = client.get(f"{url}?step={step}", HTTP_ACCEPT_LANGUAGE=language)
                shown = section(body.content.decode(), 'class="opponents replay-hands"')
                for card in itertools.chain(*hands):
                    assert f'title="{card_name(card)}">{card_notation(card)}<' in shown, step
    assert "this round" in client.get(f"{url}?step={moves}", **EN).content.decode()
    assert "за раунд" in client.get(f"{url}?step={moves}", **RU).content.decode()


def test_the_round_being_played_has_no_replay(client, alice, bob):
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    play_round(table, alice)
    table.refresh_from_db()
    play.next_round(table=table, user=alice, round_number=game_of(table).round + 1)
    until_my_turn(table)
    client.force_login(bob)
    assert client.get(reverse("play:replay", args=[table.pk, 1])).status_code == 200
    # Round 2 is being played: nobody replays it, not even at its first step.
    for step in ("", "?step=0", "?step=3"):
        assert client.get(reverse("play:replay", args=[table.pk, 2]) + step).status_code == 404
    client.force_login(alice)
    assert client.get(reverse("play:replay", args=[table.pk, 2])).status_code == 404


# --- the invitation link --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "copy", "copied"),
    [(EN, "Copy the link", "Copied"), (RU, "Скопировать ссылку", "Скопировано")],
)
def test_the_invitation_has_a_button_that_copies_it_beside_the_link_itself(
    client, alice, headers, copy, copied
):
    table = play.create_table(
        by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "open"]
    )
    client.force_login(alice)
    body = client.get(table.get_absolute_url(), **headers).content.decode()
    invite = section(body, 'class="invite"') if 'class="invite"' in body else ""
    link = f"http://testserver{reverse('play:invite', args=[table.invite])}"
    assert f'id="invite-link" readonly value="{link}"' in invite
    assert f'data-copy="invite-link" data-copied="{copied}"' in invite
    # Hidden until the script finds a clipboard to write; the link's field is there either way.
    assert f" hidden>{copy}</button>" in invite
    assert "js/table-tools" in body


# --- chances to win -----------------------------------------------------------------------


@pytest.mark.parametrize(("headers", "title"), [(EN, "Chances to win"), (RU, "Шансы на победу")])
def test_after_a_round_the_table_shows_each_players_chance_from_the_totals(
    client, alice, headers, title
):
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    game = play_round(table, alice)
    client.force_login(alice)
    board = client.get(table.get_absolute_url(), **headers).content.decode()
    # The board asks for them once it is shown: the move that ends a round is answered at once.
    chances = reverse("play:chances", args=[table.pk])
    assert f'hx-get="{chances}" hx-trigger="load"' in board
    body = client.get(chances, **headers, **HTMX).content.decode()
    panel = section(body, 'id="chances-title"')
    assert title in panel
    percents = [int(p) for p in re.findall(r"<strong>(\d+)%</strong>", panel)]
    assert len(percents) == 3 and sum(percents) == 100
    totals = game.view(0)["totals_after"]
    # Newcomers all: a lower total, a better chance.
    for (total, percent), (other, other_percent) in itertools.permutations(
        zip(totals, percents, strict=True), 2
    ):
        if total < other:
            assert percent >= other_percent


def test_after_the_match_the_table_shows_how_the_ratings_moved(client, alice):
    table = new_table(alice, seats=("me", "random"), preset="aaow")
    play_match_out(table, alice)
    body = client.get(reverse("play:chances", args=[table.pk]), **RU).content.decode()
    assert "Рейтинги" in section(body, 'id="moves-title"')
    waiting = play.create_table(
        by=alice, preset="aaow", variant=PRESETS["aaow"], seats=["me", "open"]
    )
    assert client.get(reverse("play:chances", args=[waiting.pk])).status_code == 404
