"""A club's Telegram group (issue 36, part 4): a director links it with a one-time code from
the club's page (`/club <code>` in the group, or the link that adds the bot there), and the
group is told when a night opens, each round's tables (one message a round, edited when it is
seated again) and the season's table after each night; names as anyone may see them."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import translation

from cards101.rules import PRESETS
from chats.models import ClubChat
from clubs import services as clubs
from clubs.models import Member
from games.models import Player
from telegram import router
from tests.factories import play_out, run_tasks
from tests.fake_telegram import member_update, serving, update
from tests.tournaments.factories import enter, make_tournament
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db

GROUP, OTHER_GROUP = -100500, -100600
ALICE_TG = 5550001


@pytest.fixture
def api(settings, monkeypatch):
    with serving(settings, monkeypatch) as server:
        yield server


@pytest.fixture
def club(alice):
    return clubs.create_club(owner=alice, name="Клуб <Туз>")


def code_for(client, club, language: str = "ru") -> str:
    """What a director reads on the page after asking for a code: `/club <code>`."""
    page = client.post(
        reverse("chats:club_code", args=[club.slug]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    return re.search(r'value="/club ([A-Za-z0-9_-]+)"', page).group(1)


def said_in_group(text: str, *, chat: int = GROUP, number: int = 1) -> None:
    router.handle(update(chat, text, chat_type="group", sender=ALICE_TG, number=number))


def group_reads(api, chat: int = GROUP) -> list[str]:
    run_tasks()
    return [message["text"] for message in api.shown(chat)]


@pytest.fixture
def linked(api, client, alice, club):
    client.force_login(alice)
    said_in_group(f"/club {code_for(client, club)}")
    run_tasks()  # the bot's answer, sent
    api.messages.clear()
    return ClubChat.objects.get(club=club)


def test_a_director_links_the_clubs_group_with_the_code_from_the_clubs_page(
    api, client, alice, club
):
    client.force_login(alice)
    detail = client.get(reverse("clubs:detail", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Привязать группу Telegram" in detail.content.decode()
    page = client.post(
        reverse("chats:club_code", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    code = re.search(r'value="/club ([A-Za-z0-9_-]+)"', page).group(1)
    assert f"https://t.me/sto_odno_test_bot?startgroup={code}" in page
    said_in_group(f"/club {code}")
    assert ClubChat.objects.get().club == club
    [reply] = group_reads(api)
    assert "Клуб &lt;Туз&gt;" in reply and "сезона" in reply
    detail = client.get(reverse("clubs:detail", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="ru")
    assert "«The club»" in detail.content.decode()  # the group's title, as Telegram gave it


def test_the_link_that_adds_the_bot_to_a_group_links_it_too(api, client, alice, club):
    client.force_login(alice)
    said_in_group(f"/start {code_for(client, club, 'en')}")
    assert ClubChat.objects.get().chat.chat_id == GROUP
    assert "This group is now the chat of <b>Клуб &lt;Туз&gt;</b>" in group_reads(api)[0]


def test_a_code_works_once_and_a_wrong_one_links_nothing(api, client, alice, club):
    client.force_login(alice)
    code = code_for(client, club)
    said_in_group(f"/club {code}")
    said_in_group(f"/club {code}", chat=OTHER_GROUP, number=2)
    said_in_group("/club guess", chat=OTHER_GROUP, number=3)
    assert [linked.chat.chat_id for linked in ClubChat.objects.all()] == [GROUP]
    assert all("wrong, used or expired" in text for text in group_reads(api, OTHER_GROUP))


def test_only_whoever_runs_the_club_gets_a_code(api, client, bob, club):
    client.force_login(bob)
    response = client.post(reverse("chats:club_code", args=[club.slug]))
    assert response.status_code == 403
    detail = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "Telegram group" not in detail
    client.logout()
    assert client.post(reverse("chats:club_code", args=[club.slug])).status_code == 302


def test_the_group_is_told_when_a_night_opens(api, linked, alice, club):
    night = clubs.create_night(
        club=club,
        by=alice,
        variant=PRESETS["classic"],
        name="Пятница <13>",
        date=datetime.date(2026, 12, 11),
        place="Кафе «Туз»",
        **NIGHT,
    )
    [told] = group_reads(api)
    assert "Пятница &lt;13&gt;" in told and "регистрация открыта" in told
    assert "Кафе «Туз»" in told
    [[button]] = api.messages[GROUP][max(api.messages[GROUP])]["buttons"]
    assert button["url"].endswith(night.get_absolute_url())


# What a night's form sends besides its name, date and place (tests.tournaments.factories).
NIGHT = {
    "rounds_planned": 2,
    "table_size": 4,
    "match_end": "played_out",
    "points_by_place": {"3": [3, 1.5, 0], "4": [3, 2, 1, 0]},
    "tie_breaks": ["penalty_total", "deals_won"],
    "preset": "classic",
}


def test_each_round_is_one_message_of_its_tables_edited_when_seated_again(api, linked, alice, club):
    night = make_tournament(alice, club=club, name="Четверг")
    enter(night, ["Аня", "Боря", "Вера", "Гоша", "Дина", "Егор", "Женя"], alice)
    hidden = Player.objects.get(name="Дина")
    hidden.private = True
    hidden.save()
    with translation.override("en"):  # the director's own language: the group keeps its own
        seated = tournaments.seat_next_round(tournament=night, by=alice)
    [told] = group_reads(api)
    assert "Четверг" in told and "раунд 1" in told
    assert told.count("Стол") == 2
    assert "Дина" not in told and "Скрытый игрок" in told  # anyone in the group reads it
    tournaments.reseat_round(round_=seated, by=alice)
    assert len(group_reads(api)) == 1  # edited, not a second message


def test_after_a_night_the_group_reads_the_seasons_table(api, linked, alice, club):
    clubs.create_season(
        club=club,
        by=alice,
        name="Зима",
        starts=datetime.date(2026, 12, 1),
        ends=datetime.date(2027, 2, 28),
    )
    night = make_tournament(alice, club=club, date="2026-12-04", rounds_planned=1)
    enter(night, ["Аня", "Боря", "Вера"], alice)
    round_ = tournaments.seat_next_round(tournament=night, by=alice)
    run_tasks()  # the round's tables, sent
    api.messages.clear()
    match = round_.tables.get().match
    winner = match.seats.get(position=0).player.name
    play_out(match, alice, winner_index=0)
    tournaments.close_round(round_=round_, by=alice)
    night.refresh_from_db()
    if night.status != night.Status.FINISHED:
        tournaments.finish_tournament(tournament=night, by=alice)
    [table] = group_reads(api)
    assert "Зима" in table and f"1. {winner} — 3" in table


def test_a_group_the_bot_was_removed_from_is_told_nothing_more(api, linked, alice, club):
    chat = {"id": GROUP, "type": "group", "title": "The club"}
    router.handle(member_update(7, chat, "kicked"))
    assert not ClubChat.objects.exists()
    make_tournament(alice, club=club)
    clubs.create_night(
        club=club,
        by=alice,
        variant=PRESETS["classic"],
        name="Суббота",
        date=datetime.date(2026, 12, 12),
        **NIGHT,
    )
    assert group_reads(api) == []


def test_a_director_stops_telling_the_group(api, client, linked, alice, bob, club):
    Member.objects.create(club=club, player=Player.objects.get(user=bob), role=Member.Role.MEMBER)
    client.force_login(bob)
    assert client.post(reverse("chats:club_unlink", args=[club.slug])).status_code == 403
    assert ClubChat.objects.exists()
    client.force_login(alice)
    response = client.post(reverse("chats:club_unlink", args=[club.slug]), follow=True)
    assert "will be told nothing more" in response.content.decode()
    assert not ClubChat.objects.exists()
