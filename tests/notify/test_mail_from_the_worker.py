"""The fixed outside check: with the site's mail pointed at an SMTP server, the workers
(the play worker's moves, then the tasks' worker) send an account *your move* (at a table
whose page it does not have open) and *your table* (a round seated) by e-mail, naming the
table and linking to it with the site's address; nothing while the person watches, nothing twice."""

import datetime
import re
import threading

import pytest
from django.utils import timezone

from notify.models import Delivery, Notification
from play.management.commands import play_worker
from play.models import PlaySeat, PlayTable
from tests.factories import run_tasks
from tests.play.test_play import new_table, until_my_turn
from tests.tournaments.factories import make_tournament
from tournaments import services as tournaments
from tournaments.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def worker_pass() -> None:
    """The play worker makes the moves due, then the tasks' worker runs what is due."""
    play_worker.run(threading.Event(), until_idle=True)
    run_tasks()


def waited(table, seconds: int = 20) -> None:
    """The table's last change was `seconds` ago (a person's move has waited so long)."""
    PlayTable.objects.filter(pk=table.pk).update(
        updated_at=timezone.now() - datetime.timedelta(seconds=seconds)
    )


def her_move_waits_and_the_worker_passes(alice) -> None:
    """alice's move at a table with a bot has waited long enough to be told by mail, and the
    worker makes its pass."""
    table = new_table(alice, seats=("me", "greedy"))
    until_my_turn(table)
    waited(table)
    worker_pass()


def test_your_move_comes_by_mail_naming_the_table_and_linking_to_it_once(alice, smtp_sink):
    table = new_table(alice, seats=("me", "greedy"))
    until_my_turn(table)
    PlayTable.objects.filter(pk=table.pk).update(name="Friday table")
    waited(table)
    worker_pass()
    [mail] = smtp_sink.to("alice@example.com")
    body = mail.get_content()
    assert "Friday table" in mail["Subject"]
    assert f"https://101.example/play/{table.pk}/" in body
    # The words say more than the subject does.
    assert body.startswith("За столом «Friday table» ждут вашего хода: откройте стол и сходите.")
    assert mail["List-Unsubscribe"].startswith("<https://101.example/notifications/unsubscribe/")
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The next passes tell her nothing more of this move.
    worker_pass()
    waited(table, 600)
    worker_pass()
    assert len(smtp_sink.to("alice@example.com")) == 1


def test_the_mail_is_in_the_persons_language(alice, client, smtp_sink):
    client.force_login(alice)
    client.get("/notifications/", headers={"Accept-Language": "en"})
    her_move_waits_and_the_worker_passes(alice)
    [mail] = smtp_sink.to("alice@example.com")
    assert mail["Subject"].startswith("Your move")


def test_someone_who_never_told_their_language_is_written_to_in_russian(alice, smtp_sink):
    her_move_waits_and_the_worker_passes(alice)
    [mail] = smtp_sink.to("alice@example.com")
    assert mail["Subject"].startswith("Ваш ход")


def test_nobody_is_told_of_a_move_while_they_watch_the_table(alice, client, smtp_sink):
    table = new_table(alice, seats=("me", "greedy"))
    until_my_turn(table)
    client.force_login(alice)
    page = client.get(f"/play/{table.pk}/").content.decode()
    waited(table)
    worker_pass()
    assert smtp_sink.to("alice@example.com") == []
    # The page's poll names her seat's token: it keeps her watching, read without a session.
    token = page.split("&amp;w=")[1].split('"')[0]
    PlaySeat.objects.filter(table=table).update(
        watched_at=timezone.now() - datetime.timedelta(minutes=5)
    )
    client.logout()
    client.get(f"/play/{table.pk}/", {"v": 0, "w": token}, headers={"HX-Request": "true"})
    worker_pass()
    assert smtp_sink.to("alice@example.com") == []
    # She closed the page a minute ago: now she is told.
    PlaySeat.objects.filter(table=table).update(
        watched_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    worker_pass()
    assert len(smtp_sink.to("alice@example.com")) == 1


def test_a_forged_watch_token_marks_nobody(alice):
    table = new_table(alice, seats=("me", "greedy"))
    until_my_turn(table)
    from django.test import Client

    Client().get(f"/play/{table.pk}/", {"w": "1:forged"})
    assert PlaySeat.objects.get(table=table, user=alice).watched_at is None


def test_every_seated_account_gets_its_table_by_mail_when_a_round_is_seated(
    alice, bob, carol, smtp_sink, django_user_model
):
    """Six players, two tables of three: each is told their own table's number and who else
    sits there (in Russian, the language of someone who never chose one)."""
    tournament = make_cup(alice)
    players = [bob, carol] + [
        django_user_model.objects.create_user(name, f"{name}@example.com", "password")
        for name in ("dave", "erin", "fred", "gina")
    ]
    for user in players:
        tournaments.enter_checked_in(tournament=tournament, player=user.player)
    round_ = tournaments.seat_next_round(tournament=tournament, by=alice)
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    assert [table.number for table in tables] == [1, 2]
    worker_pass()
    for table in tables:
        seated = [seat.player.user for seat in table.match.seats.select_related("player__user")]
        for user in seated:
            [mail] = smtp_sink.to(user.email)
            assert mail["Subject"] == f"Autumn cup, тур 1: стол {table.number}"
            body = mail.get_content()
            assert all(other.username in body for other in seated if other != user)
            assert not any(other.username in body for other in players if other not in seated)
            assert f"https://101.example{table.match.get_absolute_url()}" in body
    # The director starts the clock: each is told that too.
    tournaments.start_clock(round_=round_, minutes=45)
    worker_pass()
    for user in players:
        [_table, clock] = smtp_sink.to(user.email)
        assert "Пошло время тура 1 турнира «Autumn cup»: 45 минут." in clock.get_content()


def make_cup(director, **changes):
    """A club's cup whose rounds are confirmed by a second person at the table."""
    return make_tournament(director, name="Autumn cup", confirm_results=True, **changes)


def test_a_person_who_switched_mail_off_for_their_move_gets_none(alice, smtp_sink):
    from notify import services

    services.switch_off(user=alice, kinds=["your_move"], channel="email")
    her_move_waits_and_the_worker_passes(alice)
    assert smtp_sink.to("alice@example.com") == []
    # Told all the same (kept on her page), with no delivery by e-mail.
    assert Notification.objects.filter(user=alice, kind="your_move").exists()
    assert not Delivery.objects.exists()


def test_a_refused_address_is_given_up_at_once(alice, smtp_sink):
    smtp_sink.refused.add("alice@example.com")
    her_move_waits_and_the_worker_passes(alice)
    delivery = Delivery.objects.get()
    assert delivery.status == Delivery.Status.FAILED, delivery.error
    assert "refused" in delivery.error


def test_a_greylisted_address_is_tried_again_and_gets_its_mail(alice, smtp_sink):
    """451 at RCPT TO: "try again later", as greylisting servers say to a first sender."""
    smtp_sink.greylisted.add("alice@example.com")
    her_move_waits_and_the_worker_passes(alice)
    waiting = Delivery.objects.get()
    assert waiting.status == Delivery.Status.PENDING, waiting.error
    assert "451" in waiting.error and smtp_sink.messages == []
    smtp_sink.greylisted.clear()
    run_tasks(timezone.now() + datetime.timedelta(hours=1))  # the retry's time has come
    assert Delivery.objects.get().status == Delivery.Status.SENT
    assert len(smtp_sink.to("alice@example.com")) == 1


def test_a_server_that_stops_answering_once_it_has_the_message_gets_it_once(
    alice, smtp_sink, settings
):
    """The whole message was handed over, then no answer: the server may have queued it. It
    is given up, in doubt, never sent a second time."""
    settings.MAILERS["default"]["OPTIONS"]["timeout"] = 1
    smtp_sink.slow = 2
    her_move_waits_and_the_worker_passes(alice)
    given_up = Delivery.objects.get()
    assert given_up.status == Delivery.Status.FAILED
    assert "no answer after the message was sent" in given_up.error
    smtp_sink.slow = 0
    run_tasks(timezone.now() + datetime.timedelta(hours=1))  # the retry's time has come
    assert len(smtp_sink.to("alice@example.com")) == 1


def test_the_unsubscribe_header_is_the_literal_address_mail_programs_read(alice, smtp_sink):
    her_move_waits_and_the_worker_passes(alice)
    [raw] = smtp_sink.raw
    header = re.search(rb"^List-Unsubscribe: (.*)$", raw, re.M)[1].decode().strip()
    assert re.fullmatch(r"<https://101\.example/notifications/unsubscribe/[^>\s]+/>", header)
    assert b"List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw


def test_a_player_whose_seat_is_swapped_is_told_the_new_table(alice, bob, carol):
    from notify.models import Kind, Notification

    tournament = make_tournament(alice, name="Autumn cup")
    for user in (bob, carol):
        tournaments.enter_checked_in(tournament=tournament, player=user.player)
    tournaments.add_entrants(
        tournament=tournament, names=["G1", "G2", "G3", "G4", "G5", "G6"], by=alice, checked_in=True
    )
    round_ = tournaments.seat_next_round(tournament=tournament, by=alice)
    carols = round_.tables.get(match__seats__player=carol.player)
    told = Notification.objects.filter(kind=Kind.YOUR_TABLE)
    before = {user: told.filter(user=user).count() for user in (bob, carol)}
    assert before == {bob: 1, carol: 1}

    other = round_.tables.exclude(pk=carols.pk).get()
    moving = other.match.seats.filter(player__user__isnull=True).first().player
    tournaments.swap_players(round_=round_, first=carol.player.pk, second=moving.pk)

    assert told.filter(user=carol).count() == 2
    latest = told.filter(user=carol).order_by("-pk").first()
    assert latest.payload["table"] == other.number
    # bob did not move: nothing new for him.
    assert told.filter(user=bob).count() == 1


def seated_cup_table(alice, bob, carol):
    """alice directs a cup whose rounds are confirmed; bob, carol and alice sit at table 1."""
    tournament = make_tournament(alice, name="Вечер в Самаре", confirm_results=True)
    for user in (alice, bob, carol):
        tournaments.enter_checked_in(tournament=tournament, player=user.player)
    round_ = tournaments.seat_next_round(tournament=tournament, by=alice)
    worker_pass()  # the seating's own mail
    return Table.objects.get(round=round_).match


ROUND_ONE = {"bob": {"out": "7C"}, "alice": {"points": 10}, "carol": {"points": 5}}


def test_a_round_to_confirm_comes_by_mail_naming_the_night_and_table(alice, bob, carol, smtp_sink):
    from tests.factories import record

    match = seated_cup_table(alice, bob, carol)
    before = len(smtp_sink.to(carol.email))
    record(match, bob, ROUND_ONE)
    worker_pass()
    [mail] = smtp_sink.to(carol.email)[before:]
    subject, body = mail["Subject"], mail.get_content()
    # Russian, as she never said otherwise: the sheet's «раунд», the night's name and table.
    assert subject == "Подтвердите раунд 1: Вечер в Самаре, тур 1, стол 1"
    assert "Кон" not in body and "Раунд 1 на листе счёта" in body
    assert f"https://101.example{match.get_absolute_url()}" in body


def test_a_round_confirmed_before_its_message_leaves_is_not_sent(alice, bob, carol, smtp_sink):
    from games import services as games
    from tests.factories import record, round_at

    match = seated_cup_table(alice, bob, carol)
    before = {user: len(smtp_sink.to(user.email)) for user in (alice, carol)}
    record(match, bob, ROUND_ONE)
    games.confirm_round(match=match, round_id=round_at(match, 1).pk, by=carol)
    worker_pass()
    assert len(smtp_sink.to(alice.email)) == before[alice]  # carol confirmed it meanwhile
    assert len(smtp_sink.to(carol.email)) == before[carol]
    [delivery] = Delivery.objects.filter(notification__user=alice, notification__kind="to_confirm")
    assert delivery.status == Delivery.Status.SKIPPED
