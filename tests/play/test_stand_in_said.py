"""A move the site made for a person whose time ran out (the stand-in) is said as the site's in
the round's log, to them ("The site plays the eight of hearts for you") and to the others
("… (moved by the site)"), on the board and in the replay; the person's own moves are not."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import translation

from cards101.rules import parse_card
from play import services as play
from play.models import PlayMove, PlayTable
from play.spoken import by_site, card_in_a_sentence, news, say
from tests.play.test_play import game_of
from tests.play.test_table_choices import two_people

NAMES = {0: "Anna", 1: "Boris"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


@pytest.mark.parametrize(
    ("language", "to_me", "to_others"),
    [
        (
            "en",
            "The site plays the eight of hearts for you",
            "Anna plays the eight of hearts (moved by the site)",
        ),
        (
            "ru",
            "Сайт кладёт за вас восьмёрку червей",
            "Anna кладёт восьмёрку червей (ход сделал сайт)",
        ),
    ],
)
def test_a_card_the_site_played_for_a_person_is_said_as_the_sites(language, to_me, to_others):
    event = {"seat": 0, "kind": "play", "card": "8H", "suit": None}
    with translation.override(language):
        assert say(event, NAMES, 0, site=True) == to_me
        assert say(event, NAMES, 1, site=True) == to_others
        assert say(event, NAMES, None, site=True) == to_others
        # Made by the person: theirs, as always.
        assert "site" not in say(event, NAMES, 0) and "сайт" not in say(event, NAMES, 0)


@pytest.mark.parametrize(
    ("language", "drew", "passed", "ordered"),
    [
        (
            "en",
            "The site draws 2 cards for you: the ace of spades, the king of hearts",
            "The site passes for you",
            "The site plays the queen of spades for you and orders hearts",
        ),
        (
            "ru",
            "Сайт берёт за вас 2 карты: туза пик, короля червей",
            "Сайт пасует за вас",
            "Сайт кладёт за вас даму пик и заказывает червы",
        ),
    ],
)
def test_a_draw_a_pass_and_an_order_made_for_me_are_said_as_the_sites(
    language, drew, passed, ordered
):
    with translation.override(language):
        draw = {"seat": 0, "kind": "draw", "count": 2, "cards": ["AS", "KH"]}
        assert say(draw, NAMES, 0, site=True) == drew
        assert say({"seat": 0, "kind": "pass"}, NAMES, 0, site=True) == passed
        queen = {"seat": 0, "kind": "play", "card": "QS", "suit": "H"}
        assert say(queen, NAMES, 0, site=True) == ordered


def test_only_the_events_of_the_stand_ins_own_move_are_the_sites():
    log = [
        {"seat": 1, "kind": "play", "card": "7C"},  # Boris's own
        {"seat": 0, "kind": "draw", "count": 2},  # Boris's 7 makes Anna draw...
        {"seat": 0, "kind": "skip"},  # ...and skip: both his move's
        {"seat": 1, "kind": "draw", "count": 1},  # the stand-in draws for Boris
        {"seat": 1, "kind": "pass"},  # and passes (the same move)
        {"kind": "restock", "count": 20},
        {"seat": 0, "kind": "play", "card": "9C"},  # Anna's own
    ]
    assert by_site(log, [(1, 3, 6)]) == {3, 4}
    with translation.override("en"):
        said = news(
            {"round": 0, "log": log, "round_over": False, "to_move": 1}, NAMES, 0, (0, 3), {3, 4}
        )
    assert "Boris draws 1 card (moved by the site). Boris passes (moved by the site)." in said
    assert "You play the nine of clubs." in said


def by_correspondence(alice, bob) -> PlayTable:
    return two_people(alice, bob, move_seconds=2 * 86400, seed=3)


def time_runs_out(table: PlayTable) -> PlayMove:
    """The worker's step once the deadline of the person to move has passed: the stand-in's
    move for them."""
    table.refresh_from_db()
    assert play.step(table=table, now=table.server_moves_at + datetime.timedelta(seconds=1))
    made = PlayMove.objects.filter(table=table).order_by("number").last()
    assert made.by == "timer"
    return made


def log_of(client, table, user, headers) -> str:
    client.force_login(user)
    page = client.get(reverse("play:table", args=[table.pk]), **headers).content.decode()
    return re.search(r'<section class="play-log".*?</section>', page, re.S)[0]


def first_words(made: PlayMove, language: str) -> tuple[str, str]:
    """How the log begins to say the stand-in's move to its person, and to the others."""
    move = made.move
    with translation.override(language):
        if move["kind"] == "play":
            card = card_in_a_sentence(parse_card(move["card"]))
            return (
                {"en": f"The site plays {card} for you", "ru": f"Сайт кладёт за вас {card}"}[
                    language
                ],
                {"en": "(moved by the site)", "ru": "(ход сделал сайт)"}[language],
            )
        if move["kind"] == "draw":
            return (
                {"en": "The site draws 1 card for you", "ru": "Сайт берёт за вас 1 карту"}[
                    language
                ],
                {"en": "(moved by the site)", "ru": "(ход сделал сайт)"}[language],
            )
        return (
            {"en": "The site passes for you", "ru": "Сайт пасует за вас"}[language],
            {"en": "(moved by the site)", "ru": "(ход сделал сайт)"}[language],
        )


@pytest.mark.django_db
@pytest.mark.parametrize(("headers", "language"), [(EN, "en"), (RU, "ru")])
def test_the_board_says_the_site_moved_for_the_person_and_tells_the_others(
    client, alice, bob, headers, language
):
    table = by_correspondence(alice, bob)
    seat = game_of(table).to_move
    person, other = (alice, bob) if seat == 0 else (bob, alice)
    made = time_runs_out(table)
    to_them, to_others = first_words(made, language)
    mine = log_of(client, table, person, headers)
    assert to_them in mine
    assert {"en": "You play", "ru": "Вы кладёте"}[language] not in mine
    # The line the eye reads says it too, after the person's name.
    name = str(table.seats.get(position=seat))
    assert re.search(
        rf'<span aria-hidden="true">{re.escape(name)} [^<]*{re.escape(to_others)}</span>', mine
    )
    theirs = log_of(client, table, other, headers)
    assert to_others in theirs and to_them not in theirs


@pytest.mark.django_db
def test_a_persons_own_move_is_not_said_as_the_sites(client, alice, bob):
    table = by_correspondence(alice, bob)
    game = game_of(table)
    person = alice if game.to_move == 0 else bob
    play.play(table=table, user=person, move=game.legal_moves()[0], version=table.version)
    table.refresh_from_db()
    log = log_of(client, table, person, EN)
    assert "for you" not in log and "moved by the site" not in log
    assert table.site_moves == []


@pytest.mark.django_db
def test_the_replay_of_the_round_says_the_site_moved_too(client, alice, bob):
    table = by_correspondence(alice, bob)
    made = time_runs_out(table)
    game = game_of(table)
    # The round played to its end by the two of them.
    while not game.round_over:
        user = alice if game.to_move == 0 else bob
        play.play(table=table, user=user, move=game.legal_moves()[0], version=table.version)
        table.refresh_from_db()
        game = game_of(table)
    other = bob if made.seat == 0 else alice
    # The next round's board says nothing of the last round's stand-in.
    play.next_round(table=table, user=other, round_number=1)
    table.refresh_from_db()
    assert table.site_moves == []
    client.force_login(other)
    board = client.get(reverse("play:table", args=[table.pk]), **RU).content.decode()
    assert "Раунд 2" in board and "(ход сделал сайт)" not in board
    url = reverse("play:replay", args=[table.pk, 1])
    client.force_login(other)
    page = client.get(f"{url}?step={made.number}", **RU).content.decode()
    log = re.search(r'<section class="play-log".*?</section>', page, re.S)[0]
    assert "(ход сделал сайт)" in log
    # Before the move, nothing the site made is in the log.
    page = client.get(f"{url}?step={made.number - 1}", **RU).content.decode()
    assert "(ход сделал сайт)" not in page
