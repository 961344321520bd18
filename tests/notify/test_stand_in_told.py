"""A person whose time ran out at a correspondence table is told that the site moved for them,
and what it played (written with the move, sent by the worker in their language); told again
when the site goes on moving for them until they come back, then not at each move."""

import datetime

import pytest
from django.utils import translation

from notify import messages
from notify.models import Kind, Notification
from play import services as play
from play.models import PlayMove, PlayTable
from tests.play.test_correspondence import DAY, by_post, clock, mover, run_worker  # noqa: F401
from tests.play.test_play import game_of
from tests.play.test_stand_in_said import time_runs_out
from tests.play.test_table_choices import two_people


def site_moved(user) -> list[Notification]:
    return list(
        Notification.objects.filter(
            user=user, kind=Kind.REMINDER, payload__what="stand_in"
        ).order_by("pk")
    )


def said(notification: Notification, language: str) -> messages.Message:
    with translation.override(language):
        return messages.render(notification)


def what_it_did(made: PlayMove, language: str) -> str:
    """The words for the stand-in's move, by its kind (the card itself is said by its name)."""
    kind = made.move["kind"]
    if language == "ru":
        return {
            "play": "сайт сходил за вас: положил ",
            "draw": "сайт сходил за вас: взял карту",
        }.get(kind, "сайт сходил за вас: спасовал")
    return {
        "play": "the site moved for you: it played the ",
        "draw": "the site moved for you: it drew a card",
    }.get(kind, "the site moved for you: it passed")


def until_the_others_move(table: PlayTable, person, other) -> None:
    """The other plays their first legal moves until it is the person's move again."""
    game = game_of(table)
    seat = table.seats.get(user=person).position
    while game.to_move != seat:
        table.refresh_from_db()
        play.play(table=table, user=other, move=game.legal_moves()[0], version=table.version)
        game = game_of(table)
    table.refresh_from_db()


@pytest.mark.django_db
def test_the_person_the_site_moved_for_is_told_what_it_played_in_both_languages(alice, bob):
    table = by_post(alice, bob, days=2)
    PlayTable.objects.filter(pk=table.pk).update(name="Пятница")
    person, other = mover(table, alice, bob)
    made = time_runs_out(table)
    [told] = site_moved(person)
    assert site_moved(other) == []
    assert told.payload["table"] == table.pk and told.payload["path"] == f"/play/{table.pk}/"
    russian = said(told, "ru")
    assert russian.title == "Сайт сходил за вас: Пятница"
    assert russian.text.startswith("Время на ход за столом «Пятница» вышло, и ")
    assert what_it_did(made, "ru") in russian.text
    assert "Пока вы не вернётесь" not in russian.text
    english = said(told, "en")
    assert english.title == "The site moved for you: Пятница"
    assert what_it_did(made, "en") in english.text


@pytest.mark.django_db
def test_a_second_time_out_says_the_site_goes_on_and_then_it_is_not_told_each_move(alice, bob):
    table = by_post(alice, bob, days=2)
    person, other = mover(table, alice, bob)
    time_runs_out(table)
    seat = table.seats.get(user=person)
    while game_of(table).to_move == seat.position:  # the stand-in drew: its turn goes on
        time_runs_out(table)
    until_the_others_move(table, person, other)
    time_runs_out(table)
    seat.refresh_from_db()
    assert seat.is_away
    last = site_moved(person)[-1]
    assert last.payload["away"] is True
    assert "Пока вы не вернётесь к столу, за вас будет ходить сайт." in said(last, "ru").text
    assert "It moves for you until you come back to the table." in said(last, "en").text
    # Away: the site moves for them at once, and tells them no more.
    told = len(site_moved(person))
    until_the_others_move(table, person, other)
    assert play.step(table=table, now=table.server_moves_at + datetime.timedelta(seconds=1))
    assert PlayMove.objects.filter(table=table).order_by("number").last().by == "timer"
    assert len(site_moved(person)) == told


@pytest.mark.django_db
def test_a_live_table_tells_nobody_the_board_says_it(alice, bob):
    table = two_people(alice, bob, move_seconds=120)
    time_runs_out(table)
    assert not Notification.objects.filter(payload__what="stand_in").exists()


@pytest.mark.django_db(transaction=True)  # the worker closes its connections
def test_the_worker_sends_it_by_mail_in_the_persons_language(alice, bob, clock, smtp_sink):  # noqa: F811
    table = by_post(alice, bob, days=1)
    person, _ = mover(table, alice, bob)
    clock.move_on(DAY + datetime.timedelta(seconds=1))
    run_worker()
    made = PlayMove.objects.get(table=table, number=1)
    assert made.by == "timer"
    [mail] = [
        m for m in smtp_sink.to(person.email) if m["Subject"].startswith("Сайт сходил за вас")
    ]
    body = mail.get_content()
    assert what_it_did(made, "ru") in body
    assert f"https://101.example/play/{table.pk}/" in body
