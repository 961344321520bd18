"""The board in words for a screen reader (play.spoken): each event said with the cards' and
suits' names in the page's language, and what changed since the board a page showed, never a
card another seat drew."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from cards101.bots import make_bot
from cards101.engine import Game
from cards101.rules import PRESETS
from play import services as play
from play.spoken import news, parse_seen, say, seen
from tests.play.test_play import HTMX, game_of, new_table, until_my_turn

NAMES = {0: "Anna", 1: "Boris", 2: "Bot"}


def played_until(game: Game, done) -> Game:
    """The game played on by greedy bots in every seat until `done(game)`."""
    bots = [make_bot("greedy", seed=seat) for seat in range(game.players)]
    for _ in range(500):
        if done(game):
            return game
        game.play(bots[game.to_move].choose(game.view(game.to_move), game.legal_moves()))
    raise AssertionError("never reached")


def events_said(view, mine, language) -> list[str]:
    with translation.override(language):
        return [say(event, NAMES, mine) for event in view["log"]]


@pytest.mark.parametrize(
    ("language", "played", "ordered"),
    [
        (
            "en",
            "Boris plays the seven of clubs",
            "Boris plays the queen of spades and orders hearts",
        ),
        ("ru", "Boris кладёт семёрку треф", "Boris кладёт даму пик и заказывает червы"),
    ],
)
def test_a_card_played_is_said_by_its_name_in_the_pages_language(language, played, ordered):
    with translation.override(language):
        assert say({"seat": 1, "kind": "play", "card": "7C", "suit": None}, NAMES, 0) == played
        queen = {"seat": 1, "kind": "play", "card": "QS", "suit": "H"}
        assert say(queen, NAMES, 0) == ordered


@pytest.mark.parametrize(
    ("language", "mine", "theirs"),
    [
        ("en", "You play the jack of diamonds", "Anna plays the jack of diamonds"),
        ("ru", "Вы кладёте валета бубен", "Anna кладёт валета бубен"),
    ],
)
def test_my_own_move_is_said_to_me_as_mine_and_to_others_with_my_name(language, mine, theirs):
    event = {"seat": 0, "kind": "play", "card": "JD", "suit": None}
    with translation.override(language):
        assert say(event, NAMES, 0) == mine
        assert say(event, NAMES, 1) == theirs
        assert say(event, NAMES, None) == theirs  # a spectator


@pytest.mark.parametrize(
    ("language", "count", "said"),
    [
        ("en", 1, "Boris draws 1 card"),
        ("en", 2, "Boris draws 2 cards"),
        ("ru", 1, "Boris берёт 1 карту"),
        ("ru", 2, "Boris берёт 2 карты"),
        ("ru", 5, "Boris берёт 5 карт"),
    ],
)
def test_another_seats_draw_is_said_as_a_count_and_never_its_cards(language, count, said):
    # Even an event that holds the cards (the whole game's log) is said without them.
    event = {"seat": 1, "kind": "draw", "count": count, "cards": ["AS", "KH", "6D", "7D", "8D"]}
    with translation.override(language):
        assert say(event, NAMES, 0) == said
        assert say(event, NAMES, None) == said


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "You draw 2 cards: the ace of spades, the king of hearts"),
        ("ru", "Вы берёте 2 карты: туза пик, короля червей"),
    ],
)
def test_my_own_draw_tells_me_the_cards_i_drew(language, said):
    event = {"seat": 0, "kind": "draw", "count": 2, "cards": ["AS", "KH"]}
    with translation.override(language):
        assert say(event, NAMES, 0) == said


def test_the_news_is_what_happened_since_the_board_the_page_showed_then_whose_turn():
    game = Game.new(PRESETS["classic"], players=3, seed=3)
    game = played_until(game, lambda g: len(g.view(0)["log"]) >= 2 and g.to_move != 0)
    shown = game.view(0)
    game = played_until(game, lambda g: g.to_move == 0 or g.round_over)
    view = game.view(0)
    since = parse_seen(seen(shown))
    assert since == (0, len(shown["log"]))
    with translation.override("en"):
        told = news(view, NAMES, 0, since)
    expected = events_said(view, 0, "en")[len(shown["log"]) :]
    assert expected and told.startswith(". ".join(expected))
    assert told.endswith("Your turn." if not view["round_over"] else "The round is over.")


def test_nothing_is_said_for_a_first_board_or_when_nothing_happened():
    game = Game.new(PRESETS["classic"], players=3, seed=3)
    game = played_until(game, lambda g: len(g.view(0)["log"]) >= 2)
    view = game.view(0)
    assert news(view, NAMES, 0, None) == ""
    assert news(view, NAMES, 0, parse_seen(seen(view))) == ""
    # A page that names a board ahead of this one (or nonsense) is told nothing.
    assert news(view, NAMES, 0, (0, 99)) == ""
    assert parse_seen("1.x") is None and parse_seen("") is None and parse_seen(None) is None


@pytest.mark.parametrize(("language", "round_said"), [("en", "Round 2."), ("ru", "Раунд 2.")])
def test_a_new_round_is_said_with_its_number_and_everything_since_its_deal(language, round_said):
    game = Game.new(PRESETS["aaow"], players=2, seed=5)
    game = played_until(game, lambda g: g.round_over)
    shown = game.view(0)
    game.next_round()
    view = game.view(0)
    with translation.override(language):
        told = news(view, NAMES, 0, parse_seen(seen(shown)))
    assert told.startswith(round_said)
    for sentence in events_said(view, 0, language):
        assert sentence in told


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("headers", "your_turn"), [({}, "Your turn."), ({"HTTP_ACCEPT_LANGUAGE": "ru"}, "Ваш ход.")]
)
def test_the_board_fetched_after_an_event_brings_its_news_for_the_live_region(
    client, alice, headers, your_turn
):
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    game = until_my_turn(table)
    client.force_login(alice)
    table.refresh_from_db()
    url = reverse("play:table", args=[table.pk])
    page = client.get(url, **headers).content.decode()
    named = re.search(r"hx-vals='\{\"seen\": \"([\d.]+)\"\}'", page)[1]
    assert named == seen(game.view(0))
    assert "data-news" not in page  # a page's first board says nothing
    # alice moves; the bots answer until it is her turn again.
    play.play(table=table, user=alice, move=game.legal_moves()[0], version=table.version)
    game = until_my_turn(table)
    view = game_of(table).view(0)
    board = client.get(url, {"v": "0", "seen": named}, **HTMX, **headers).content.decode()
    told = re.search(r"<p hidden data-news>([^<]*)</p>", board)[1]
    language = "ru" if headers else "en"
    names = {0: "alice", 1: "Greedy bot", 2: "Greedy bot 2"}
    if language == "ru":
        names = {0: "alice", 1: "Жадный бот", 2: "Жадный бот 2"}
    with translation.override(language):
        expected = [say(event, names, 0) for event in view["log"]][int(named.split(".")[1]) :]
    assert told.startswith(expected[0])
    for sentence in expected:
        assert sentence in told
    assert told.endswith(your_turn) or view["round_over"]


@pytest.mark.django_db
def test_watchers_who_saw_different_boards_are_each_told_their_own_news(alice):
    table = new_table(alice, seats=("me", "greedy", "greedy"))
    game = until_my_turn(table)
    url = reverse("play:table", args=[table.pk])
    table.refresh_from_db()
    early = seen(game.view(0))
    play.play(table=table, user=alice, move=game.legal_moves()[0], version=table.version)
    later = seen(game_of(table).view(0))
    until_my_turn(table)

    def told(since: str) -> str:
        body = Client().get(url, {"v": "0", "seen": since}, **HTMX).content.decode()
        return re.search(r"<p hidden data-news>([^<]*)</p>", body)[1]

    # The spectators' board is kept per version: one who saw alice's move is not told it again.
    assert told(early).startswith("alice plays")
    assert not told(later).startswith("alice plays")
    assert told(early).endswith(told(later))
