"""A table in a group (issue 36, part 2): `/play` opens it, people join with a button, whoever
opened it starts it; it is a played table of the site whose seats are the joined people's
accounts (made for them by Telegram, none needed before); the group reads one journal message,
edited as the game goes, and never a card of anyone's hand. A button pressed by someone else,
or too late, changes nothing; an update Telegram posts twice is taken once."""

import pytest

from cards101.engine import Game
from cards101.rules import parse_card
from chats.models import GroupTable
from games import services as games
from games.labels import card_notation
from play import services as play
from play.models import PlayTable
from telegram import router
from telegram.models import Identity
from tests.factories import run_tasks
from tests.fake_telegram import serving, tap, update

pytestmark = pytest.mark.django_db

GROUP = -100700
ANYA, BORYA, VERA, STRANGER = 7001, 7002, 7003, 7009


@pytest.fixture
def api(settings, monkeypatch):
    settings.PLAY_BOT_DELAY = 0
    with serving(settings, monkeypatch) as server:
        yield server


def play_in_group(number: int = 1) -> None:
    body = update(GROUP, "/play", chat_type="group", sender=ANYA, number=number, language="ru")
    body["message"]["from"]["first_name"] = "Аня"
    router.handle(body)


def pressed(number: int, data: str, sender: int, name: str) -> None:
    router.handle(tap(number, GROUP, data, sender=sender, first_name=name))


def answers(api) -> list[str]:
    run_tasks()
    return [params.get("text", "") for params in api.called("answerCallbackQuery")]


def journal(api) -> dict:
    run_tasks()
    [message] = [m for m in api.shown(GROUP) if "callback_data" in str(m) or "url" in str(m)]
    return message


def three_at_the_table(api) -> GroupTable:
    play_in_group()
    group_table = GroupTable.objects.get()
    pressed(2, f"join:{group_table.pk}", BORYA, "Боря")
    pressed(3, f"join:{group_table.pk}", VERA, "Вера")
    return group_table


def test_three_people_with_no_account_open_join_and_start_a_table(api):
    group_table = three_at_the_table(api)
    lobby = journal(api)
    assert "Аня" in lobby["text"] and "Боря" in lobby["text"] and "Вера" in lobby["text"]
    data = [button["callback_data"] for row in lobby["buttons"] for button in row]
    assert any("join" in item for item in data) and any("start" in item for item in data)
    pressed(4, f"start:{group_table.pk}", ANYA, "Аня")
    group_table.refresh_from_db()
    table = group_table.table
    assert table is not None and table.status == PlayTable.Status.PLAYING
    accounts = [seat.user for seat in table.seats.order_by("position")]
    assert [account.telegram_identity.telegram_id for account in accounts] == [ANYA, BORYA, VERA]
    assert Identity.objects.filter(user__isnull=False).count() == 3
    shown = journal(api)
    assert len(api.sent()) <= 3  # the lobby, then edits; a mention at most, never a message a move
    [[hand]] = shown["buttons"]
    assert hand["url"].endswith(table.get_absolute_url())  # no Mini App set up: the site


def test_the_journal_follows_the_game_and_never_names_a_card_in_a_hand(api, settings, monkeypatch):
    settings.TELEGRAM_APP_NAME = "play"
    monkeypatch.setattr(play.secrets, "randbits", lambda bits: 101)  # one deal, the same each run
    group_table = three_at_the_table(api)
    pressed(4, f"start:{group_table.pk}", ANYA, "Аня")
    group_table.refresh_from_db()
    table = group_table.table
    [[hand]] = journal(api)["buttons"]  # each player's own hand: the Mini App, for them alone
    assert hand["url"] == f"https://t.me/sto_odno_test_bot/play?startapp=t{table.pk}"
    for _ in range(400):  # the people's moves, made by the stand-in as if their time ran out
        if table.status == PlayTable.Status.FINISHED:
            break
        PlayTable.objects.filter(pk=table.pk).update(server_moves_at=table.created_at)
        play.step(table=table)
        table.refresh_from_db()
        game = Game.from_json(table.state)
        hands = {
            card_notation(parse_card(card)) for seat in range(3) for card in game.view(seat)["hand"]
        }
        run_tasks()
        said = " ".join(message["text"] for message in api.shown(GROUP))
        top = game.view(0)["top"]
        for card in hands - ({card_notation(parse_card(top))} if top else set()):
            assert card not in said, card
    assert table.status == PlayTable.Status.FINISHED
    shown = journal(api)
    assert "Партия окончена." in shown["text"]
    [[replay]] = shown["buttons"]
    assert replay["text"] == "Запись партии"
    assert replay["url"].endswith(table.get_absolute_url())
    assert GroupTable.objects.get().status == GroupTable.Status.CLOSED
    # Each turn's person is mentioned, once a turn: never more messages than moves.
    mentions = [m for m in api.sent() if "tg://user?id=" in m["text"]]
    assert 0 < len(mentions) <= table.moves_made


def test_a_strangers_button_and_a_late_one_change_nothing(api):
    group_table = three_at_the_table(api)
    pressed(4, f"start:{group_table.pk}", STRANGER, "Чужой")
    assert GroupTable.objects.get().status == GroupTable.Status.OPEN
    pressed(5, f"start:{group_table.pk}", ANYA, "Аня")
    pressed(6, f"join:{group_table.pk}", STRANGER, "Чужой")
    told = answers(api)  # Борины и Верины «сел», чужой «начать», Анин «начать», чужой «сесть»
    assert told == [
        "",
        "",
        "Начинает только тот, кто открыл стол: Аня.",
        "",
        "Этот стол уже начался: садитесь за следующий.",
    ]
    table = GroupTable.objects.get().table
    assert table.seats.count() == 3
    assert not Identity.objects.filter(telegram_id=STRANGER, user__isnull=False).exists()


def test_an_update_posted_twice_seats_once(api):
    play_in_group()
    group_table = GroupTable.objects.get()
    pressed(2, f"join:{group_table.pk}", BORYA, "Боря")
    pressed(2, f"join:{group_table.pk}", BORYA, "Боря")  # Telegram gives it again
    play_in_group(number=1)
    assert GroupTable.objects.count() == 1
    assert group_table.seats.count() == 2


# --- /score: a score sheet of real cards -----------------------------------------------------


def score_in_group() -> GroupTable:
    body = update(GROUP, "/score", chat_type="group", sender=ANYA, number=1, language="ru")
    body["message"]["from"]["first_name"] = "Аня"
    router.handle(body)
    group_table = GroupTable.objects.get()
    pressed(2, f"join:{group_table.pk}", BORYA, "Боря")
    pressed(3, f"join:{group_table.pk}", VERA, "Вера")
    pressed(4, f"start:{group_table.pk}", ANYA, "Аня")
    group_table.refresh_from_db()
    return group_table


def test_three_people_keep_score_of_real_cards_from_the_chat(api):
    group_table = score_in_group()
    match = group_table.match
    players = [seat.player for seat in match.seats.order_by("position")]
    accounts = [player.user.telegram_identity.telegram_id for player in players]
    assert accounts == [ANYA, BORYA, VERA]
    anya, borya = players[0].user, players[1].user
    assert "Аня" in journal(api)["text"]
    # Borya enters a round on the sheet (the Mini App opens the site's own sheet for him).
    outcomes = {0: {"points": 40}, 1: {"out": "QS"}, 2: {"points": 101}}
    games.record_round(match=match, outcomes=outcomes, version=match.version, by=borya)
    shown = journal(api)
    assert "после раунда 1" in shown["text"]
    confirm = [b for row in shown["buttons"] for b in row if "callback_data" in b]
    assert [b["text"] for b in confirm] == ["Подтвердить раунд 1"]
    # Someone who is not at the table cannot confirm it; Anya can.
    pressed(5, confirm[0]["callback_data"], STRANGER, "Чужой")
    match.refresh_from_db()
    assert match.unconfirmed_rounds == 1
    pressed(6, confirm[0]["callback_data"], ANYA, "Аня")
    shown = journal(api)
    assert [b for row in shown["buttons"] for b in row if "callback_data" in b] == []
    assert "Аня: 40" in shown["text"]
    assert anya.pk == match.created_by_id
    told = answers(api)
    assert "Подтверждают раунды только игроки за этим столом." in told


def test_a_score_sheet_needs_two_people(api):
    body = update(GROUP, "/score", chat_type="group", sender=ANYA, number=1, language="ru")
    router.handle(body)
    group_table = GroupTable.objects.get()
    pressed(2, f"start:{group_table.pk}", ANYA, "A")
    assert GroupTable.objects.get().match is None
    assert answers(api)[-1] == "Для записи счёта нужно хотя бы двое: подождите, пока сядут."


def test_a_tables_language_follows_most_of_its_people(api):
    body = update(GROUP, "/play", chat_type="group", sender=ANYA, number=1, language="ru")
    router.handle(body)
    group_table = GroupTable.objects.get()
    for number, person in ((2, BORYA), (3, VERA)):
        router.handle(tap(number, GROUP, f"join:{group_table.pk}", sender=person, language="en"))
    assert GroupTable.objects.get().language == "en"
    lobby = journal(api)
    assert "A table of 101" in lobby["text"] and "3 players" in lobby["text"]
